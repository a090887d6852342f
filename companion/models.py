"""Typed models. Rows hold what the table entered; everything else is derived."""

from __future__ import annotations

import secrets
import string
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from flask import abort, g, has_request_context, request
from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, delete, event, insert, inspect, select, update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship, selectinload, validates
from sqlalchemy.orm.exc import StaleDataError

from .extensions import Model, db
from .paths import private_files
from .rules import black_spy as bs
from .rules import spy

# the same module under a name no column shadows (SpyTurn has a column called spy)
from .rules import spy as spy_rules
from .rules.players import MAX_NAME_LENGTH

PUBLIC_ID_ALPHABET = string.ascii_letters + string.digits
PUBLIC_ID_LENGTH = 10


# the largest multiple of the alphabet's size below 256: a random byte under it, taken
# modulo the size, is each character with the same chance
_UNIFORM_BELOW = 256 // len(PUBLIC_ID_ALPHABET) * len(PUBLIC_ID_ALPHABET)


def new_public_id() -> str:
    """An unguessable id for a game's urls (62^10, about 8e17 of them).

    One read of the system's randomness per id, not one per character: an import makes
    thousands at once.
    """
    characters: list[str] = []
    while len(characters) < PUBLIC_ID_LENGTH:
        characters += [
            PUBLIC_ID_ALPHABET[byte % len(PUBLIC_ID_ALPHABET)]
            for byte in secrets.token_bytes(2 * PUBLIC_ID_LENGTH)
            if byte < _UNIFORM_BELOW
        ]
    return "".join(characters[:PUBLIC_ID_LENGTH])


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Player(Model):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME_LENGTH), unique=True)
    # the name in any case, as Python folds it: a database's lower() knows only ASCII, so
    # "Əli" and "əli" would be two players (and the second a UNIQUE error)
    key: Mapped[str] = mapped_column(String(4 * MAX_NAME_LENGTH), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # when they last sat down to a game: lists of players show the most recent first
    last_seen: Mapped[datetime | None] = mapped_column(index=True)

    @validates("name")
    def _keep_key(self, _field: str, name: str) -> str:
        self.key = name_key(name)
        return name


def name_key(name: str) -> str:
    """What makes two names the same player.

    >>> name_key("ƏLI") == name_key("əli"), name_key("Álvaro") == name_key("álvaro")
    (True, True)
    """
    return name.casefold()


class PlayerDay(Model):
    """One player's figures over one day's finished games (see companion/stats.py)."""

    __tablename__ = "player_days"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    games: Mapped[int]
    wins: Mapped[int]
    shared_wins: Mapped[int]
    total_sum: Mapped[int]
    best_total: Mapped[int | None]
    deals: Mapped[int]
    score_sum: Mapped[int]
    shoots: Mapped[int]
    heavy: Mapped[int]
    spy_games: Mapped[int]
    spy_wins: Mapped[int]


class RivalDay(Model):
    """Two players' finished Black Spy games together on one day, and who finished lower."""

    __tablename__ = "rival_days"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    games: Mapped[int]
    lower: Mapped[int]
    higher: Mapped[int]
    level: Mapped[int]


class Game(Model):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_public_id)
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # black spy's rule set: the preset and the table's house rules (None = the preset's)
    preset: Mapped[str | None] = mapped_column(String(16))
    end_value: Mapped[int | None]
    shoot_rule: Mapped[bool | None]
    first_lead: Mapped[str | None] = mapped_column(String(16))
    # the seat that deals (black spy) or plays (spy) first
    first_seat: Mapped[int]
    # bumped on every write (the flush that writes it), which is refused if someone else bumped it first
    version: Mapped[int] = mapped_column(default=1)
    # SQLAlchemy reads it off the class
    __mapper_args__ = {"version_id_col": version}  # noqa: RUF012
    # spy: where each tracked Spy starts, [{"slot", "facing"}] by seat; None when untracked
    spies: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # the read-only link's id: it can be shared, and no write route accepts it
    watch_id: Mapped[str | None] = mapped_column(String(32), unique=True, default=new_public_id)
    # the rematch started from this game, so a second tap on "Rematch" finds it, not a twin
    rematch_id: Mapped[str | None] = mapped_column(String(32), ForeignKey("games.id", ondelete="SET NULL"))

    # derived from the inputs, kept so that lists and statistics over thousands of games
    # need no replay (benchmarks/history_scale.py); refresh_cache() rewrites them on every
    # write and tests/test_history.py checks them against the fold
    finished: Mapped[bool] = mapped_column(default=False, index=True)
    rounds: Mapped[int] = mapped_column(default=0)
    next_seat: Mapped[int | None]

    __table_args__ = (Index("ix_games_finished_created_at", "finished", "created_at"),)

    seats: Mapped[list[Seat]] = relationship(order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin")
    deals: Mapped[list[Deal]] = relationship(order_by="Deal.number", cascade="all, delete-orphan")
    turns: Mapped[list[SpyTurn]] = relationship(order_by="SpyTurn.number", cascade="all, delete-orphan")
    scores: Mapped[list[DealScore]] = relationship(cascade="all, delete-orphan")

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(seat.player.name for seat in self.seats)

    def rules(self) -> bs.RuleSet:
        return bs.rule_set(
            self.preset or bs.DEFAULT_PRESET,
            end_value=self.end_value,
            shoot_rule=self.shoot_rule,
            first_lead=self.first_lead,
        )

    def setup(self) -> bs.Setup:
        return bs.Setup(rules=self.rules(), players=self.player_names, first_dealer=self.first_seat)

    def entries(self) -> list[bs.DealEntry]:
        return [deal.entry() for deal in self.deals]

    def state(self) -> bs.GameState:
        return bs.replay(self.setup(), self.entries())

    def mark_changed(self) -> None:
        """Say the game changed though its own row did not (an input was edited in place):
        its version goes up at the flush, and its kept figures are rewritten."""
        self.updated_at = utcnow()

    def replayed(self) -> Any:
        """The game's inputs folded by its kind's rules."""
        from . import kinds

        return kinds.of(self).replay(self)

    def refresh_cache(self) -> None:
        """Rewrite the derived figures kept beside the inputs from a fresh replay."""
        from . import kinds

        kind = kinds.of(self)
        figures = kind.figures(kind.replay(self))
        self.finished, self.rounds, self.next_seat = figures.finished, figures.rounds, figures.next_seat
        for seat in self.seats:
            seat.total = figures.totals[seat.position]
            seat.won = figures.won[seat.position]
        self._keep_scores(figures.scores)

    def _keep_scores(self, rows: tuple[dict[str, Any], ...]) -> None:
        """Bring the kept per-deal scores to ``rows``, writing only what changed.

        A new deal adds its seats' rows and leaves the others be; rewriting them all made
        every deal of a long game cost a delete and an insert per deal and seat. A game
        already stored reads its kept scores as plain rows and writes the difference in
        statements: a Python object per deal and seat (300 in a 50-deal game of six) was
        a quarter of a deal's POST (benchmarks/profile_page.py deal-post).
        """
        session = inspect(self).session
        if session is None or self in session.new or "scores" in self.__dict__:
            self._keep_loaded_scores(rows)
            return
        kept = {
            (number, seat): (score_id, (raw, score, shot))
            for score_id, number, seat, raw, score, shot in session.execute(
                select(DealScore.id, DealScore.number, DealScore.seat, DealScore.raw, DealScore.score, DealScore.shot).where(
                    DealScore.game_id == self.id
                )
            )
        }
        added, changed = [], []
        for row in rows:
            found = kept.pop((row["number"], row["seat"]), None)
            if found is None:
                added.append({"game_id": self.id, **row})
            elif found[1] != (row["raw"], row["score"], row["shot"]):
                changed.append({"id": found[0], "raw": row["raw"], "score": row["score"], "shot": row["shot"]})
        if added:
            session.execute(insert(DealScore), added)
        if changed:
            session.execute(update(DealScore), changed)
        if kept:
            session.execute(delete(DealScore).where(DealScore.id.in_([score_id for score_id, _ in kept.values()])))

    def _keep_loaded_scores(self, rows: tuple[dict[str, Any], ...]) -> None:
        """As _keep_scores, through the collection: a new game's, or one already loaded."""
        kept = {(score.number, score.seat): score for score in self.scores}
        for row in rows:
            score = kept.pop((row["number"], row["seat"]), None)
            if score is None:
                self.scores.append(DealScore(**row))
            elif (score.raw, score.score, score.shot) != (row["raw"], row["score"], row["shot"]):
                # set only what changed: each set is an event and a history entry, and in a
                # long game all but the new deal's rows are the same
                score.raw, score.score, score.shot = row["raw"], row["score"], row["shot"]
        for gone in kept.values():
            self.scores.remove(gone)

    def spy_setup(self) -> spy.Setup:
        places = None
        if self.spies is not None:
            places = tuple(spy.SpyPlace(place["slot"], spy.Facing(place["facing"])) for place in self.spies)
        return spy.Setup(
            players=self.player_names,
            colours=tuple(spy.Colour(str(seat.colour)) for seat in self.seats),
            first_player=self.first_seat,
            spies=places,
        )

    def spy_turns(self) -> list[spy.Turn]:
        return [turn.turn() for turn in self.turns]

    def spy_state(self) -> spy.SpyState:
        return spy.replay(self.spy_setup(), self.spy_turns())

    def summary(self) -> GameSummary:
        """What a list of games shows, from the kept figures: no replay."""
        names = self.player_names
        return GameSummary(
            names=names,
            finished=self.finished,
            winners=tuple(seat.player.name for seat in self.seats if seat.won),
            next_up=None if self.next_seat is None else names[self.next_seat],
            rounds=self.rounds,
            next_number=None if self.finished else self.rounds + 1,
        )


BLACK_SPY, SPY = "black-spy", "spy"


@dataclass(frozen=True)
class KeptFigures:
    """What a game keeps of its replay for lists and statistics (see Game.refresh_cache)."""

    finished: bool
    rounds: int  # deals or turns played
    next_seat: int | None  # black spy: the next dealer; spy: whose turn
    totals: tuple[int | None, ...]  # by seat; none in Spy
    won: tuple[bool, ...]  # by seat: a share of the win
    scores: tuple[dict[str, Any], ...]  # the deal_scores rows, without their game


@dataclass(frozen=True)
class GameSummary:
    names: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    next_up: str | None  # black spy: the next dealer; spy: whose turn
    rounds: int  # deals or turns played
    next_number: int | None = None


class Seat(Model):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    __table_args__ = (Index("ix_seats_player_game", "player_id", "game_id"),)
    # spy: the colour set this player plays
    colour: Mapped[str | None] = mapped_column(String(16))
    # kept from the replay (see Game.refresh_cache): the running total, and a share of the win
    total: Mapped[int | None]
    won: Mapped[bool] = mapped_column(default=False)

    player: Mapped[Player] = relationship(lazy="joined")


class Deal(Model):
    """One deal as the table entered it: raw points, or the cards each player took."""

    __tablename__ = "deals"
    # an input of its game: a change to it rewrites the game's kept figures (see _keep_figures)
    input_of_game = True
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    # raw points by seat, for a deal entered by points
    raw: Mapped[list[int] | None] = mapped_column(JSON)
    # per seat {"black_spies", "low_blacks", "high_blacks", "coloured_spies"}, by cards
    cards: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)
    # the seat the table said took all 16 black cards (points entry only)
    shooter: Mapped[int | None]
    # one per form shown: a replayed or double-tapped post is recorded once
    submission_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    def entry(self) -> bs.DealEntry:
        if self.cards is not None:
            return bs.CardsEntry(tuple(cards_from_json(taken) for taken in self.cards))
        return bs.PointsEntry(raw=tuple(self.raw or ()), shooter=self.shooter)

    def set_entry(self, entry: bs.DealEntry) -> None:
        if isinstance(entry, bs.CardsEntry):
            self.cards = [cards_to_json(taken) for taken in entry.cards]
            self.raw, self.shooter = None, None
        else:
            self.raw, self.shooter, self.cards = list(entry.raw), entry.shooter, None


class DealScore(Model):
    """One player's result in one deal, kept from the replay for statistics in SQL."""

    __tablename__ = "deal_scores"
    __table_args__ = (Index("ix_deal_scores_game_seat", "game_id", "seat"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    seat: Mapped[int]
    raw: Mapped[int]
    score: Mapped[int]
    shot: Mapped[bool]


class SpyTurn(Model):
    """One turn of Spy as the table played it: a move, a spy, both or neither."""

    __tablename__ = "spy_turns"
    input_of_game = True
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]
    player: Mapped[int]
    # {"steps", "turn_before", "turn_after", "other_end"}, when the table tracks Spies
    move: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # {"target": seat, "card": number or None for their Spy, "answer"}
    spy: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    submission_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    def turn(self) -> spy_rules.Turn:
        return spy.Turn(
            player=self.player,
            move=None if self.move is None else spy.Move(**self.move),
            spy=None
            if self.spy is None
            else spy.SpyAction(target=self.spy["target"], card=self.spy["card"], answer=spy.Answer(self.spy["answer"])),
        )

    def set_turn(self, turn: spy_rules.Turn) -> None:
        self.player = turn.player
        self.move = (
            None
            if turn.move is None
            else {
                "steps": turn.move.steps,
                "turn_before": turn.move.turn_before,
                "turn_after": turn.move.turn_after,
                "other_end": turn.move.other_end,
            }
        )
        self.spy = (
            None
            if turn.spy is None
            else {
                "target": turn.spy.target,
                "card": turn.spy.card,
                "answer": turn.spy.answer.value,
            }
        )


def cards_to_json(taken: bs.Cards) -> dict[str, Any]:
    return {
        "black_spies": taken.black_spies,
        "low_blacks": taken.low_blacks,
        "high_blacks": sorted(taken.high_blacks),
        "coloured_spies": taken.coloured_spies,
    }


def cards_from_json(data: dict[str, Any]) -> bs.Cards:
    return bs.Cards(
        black_spies=data["black_spies"],
        low_blacks=data["low_blacks"],
        high_blacks=frozenset(data["high_blacks"]),
        coloured_spies=data["coloured_spies"],
    )


# what a write meets when another phone wrote the same game first
CONFLICTS = (IntegrityError, StaleDataError)


def commit_or_conflict() -> bool:
    """Commit; when another phone's write won the race, roll back and return False."""
    try:
        db.session.commit()
    except CONFLICTS:
        db.session.rollback()
        return False
    return True


def game_of_kind(game_id: str, kind: str) -> Game:
    """The game at this public id, or 404 when there is none of that kind."""
    game = db.get_or_404(Game, game_id)
    if game.kind != kind:
        abort(404)
    return game


def load_inputs(games: Sequence[Game], *collections: Any) -> None:
    """Load these collections of many games in a query each, not one per game."""
    if games:
        db.session.scalars(select(Game).where(Game.id.in_([game.id for game in games])).options(selectinload(*collections))).all()


def player_named(name: str, seen: datetime | None = None) -> Player:
    """The known player of that name (in any case), made if new: players persist across games.

    ``seen`` is when they sat down to the game, now unless an imported game says otherwise.
    """
    seen = seen or utcnow()
    player = _player_by_key(name)
    if player is None:
        # two phones starting games with the same new player at once: one inserts, the
        # other waits for it and then finds that player (a plain add would be refused)
        db.session.execute(
            _insert_for(db.session)(Player)
            .values(name=name, key=name_key(name), created_at=utcnow(), last_seen=seen)
            .on_conflict_do_nothing(index_elements=[Player.name])
        )
        player = _player_by_key(name)
        assert player is not None, name
    player.last_seen = seen if player.last_seen is None else max(player.last_seen, seen)
    return player


def insert_players(seen: dict[str, datetime]) -> dict[str, int]:
    """The player id of each name, made where new, in a few bulk statements (an import).

    ``seen`` gives each name when it last sat down in the games being written; a known
    player's ``last_seen`` moves forward to it, never back.
    """
    by_key: dict[str, str] = {}
    for name in seen:
        by_key.setdefault(name_key(name), name)

    def known() -> dict[str, tuple[int, datetime | None]]:
        found: dict[str, tuple[int, datetime | None]] = {}
        keys = list(by_key)
        for start in range(0, len(keys), 500):
            rows = db.session.execute(
                select(Player.key, Player.id, Player.last_seen)
                .where(Player.key.in_(keys[start : start + 500]))
                .order_by(Player.id)
            )
            for key, player_id, last_seen in rows:
                found.setdefault(key, (player_id, last_seen))
        return found

    found = known()
    new = [
        {"name": name, "key": key, "created_at": utcnow(), "last_seen": None} for key, name in by_key.items() if key not in found
    ]
    if new:
        db.session.execute(_insert_for(db.session)(Player).on_conflict_do_nothing(index_elements=[Player.name]), new)
        found = known()
    latest: dict[str, datetime] = {}
    for name, moment in seen.items():
        key = name_key(name)
        latest[key] = max(latest.get(key, moment), moment)
    moved = [
        {"id": player_id, "last_seen": latest[key]}
        for key, (player_id, last_seen) in found.items()
        if last_seen is None or last_seen < latest[key]
    ]
    if moved:
        db.session.execute(update(Player), moved)
    return {name: found[name_key(name)][0] for name in seen}


def _player_by_key(name: str) -> Player | None:
    return db.session.scalar(select(Player).where(Player.key == name_key(name)).order_by(Player.id).limit(1))


def _insert_for(session: Any) -> Any:
    """The insert that knows ON CONFLICT, in the dialect of the session's database."""
    from sqlalchemy.dialects import postgresql, sqlite

    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


@event.listens_for(Session, "before_flush")
def _keep_figures(session: Session, _context: Any, _instances: Any) -> None:
    """Rewrite the kept figures of every game whose inputs changed, before they are written.

    Every write reaches the database through a flush, so no view can forget this: the
    game's version goes up with its row (a race with another phone is caught at the
    commit), and, when it is or was over, its statistics day is recounted just before
    the commit.
    """
    changed: dict[int, Game] = {}
    for item in (*session.new, *session.dirty, *session.deleted):
        game = item if isinstance(item, Game) else _game_of(session, item)
        if game is not None and game not in session.deleted and (item is not game or _inputs_changed(session, game)):
            changed[id(game)] = game
    for game in changed.values():
        game.updated_at = utcnow()
        # the statistics count finished games only: a deal in a game that is not over, and
        # was not before it, changes none of them, and most writes are such deals
        was_finished = bool(game.finished)
        with session.no_autoflush:
            game.refresh_cache()
        if was_finished or game.finished:
            session.info.setdefault("touched_games", set()).add(game)


def _game_of(session: Session, item: Any) -> Game | None:
    if not getattr(type(item), "input_of_game", False):
        return None
    from sqlalchemy.orm.util import identity_key

    game_id = item.game_id
    if game_id is None:
        return None  # a new input: its game's collection changed, and the game is dirty itself
    found = session.identity_map.get(identity_key(Game, game_id))
    return found if isinstance(found, Game) else None


def _inputs_changed(session: Session, game: Game) -> bool:
    """A game in the session is new, or had an input added or removed, or was marked changed
    (its derived columns alone do not count: they are what this hook writes)."""
    if game in session.new:
        return True
    from sqlalchemy import inspect as inspect_

    state = inspect_(game)
    return any(
        state.attrs[name].history.has_changes()
        for name in ("deals", "turns", "updated_at", *_EXTRA_INPUTS)
        if name in state.attrs
    )


# collections of inputs that other kinds add to Game (companion/kinds.py)
_EXTRA_INPUTS: list[str] = []


@event.listens_for(Session, "after_soft_rollback")
def _forget_touched(session: Session, _transaction: Any) -> None:
    session.info.pop("touched_games", None)


@event.listens_for(Session, "before_commit")
def _recount_statistics(session: Session) -> None:
    """Bring the day buckets of every game changed in this transaction up to date."""
    # the last flush first: it is where the games changed in it are noted (_keep_figures)
    session.flush()
    games = session.info.pop("touched_games", None)
    if not games:
        return
    from .stats import hold_players, refresh_days

    # two tables that share a player recount that player's day in turn, not at once
    # (each would delete and reinsert the same rows, and one would be refused)
    hold_players({seat.player_id for game in games for seat in game.seats})
    refresh_days((game.created_at.date(), seat.player_id) for game in games for seat in game.seats)
    session.flush()


def configure_sqlite(engine: Engine, busy_timeout_ms: int = 5000) -> None:
    """WAL, a busy timeout and foreign keys on every SQLite connection; writes take the
    write lock when their transaction begins.

    pysqlite would begin a transaction lazily, as a reader, and upgrade it at its first
    write: when another connection wrote in between, that upgrade fails at once with
    "database is locked", whatever the busy timeout. A request that writes (any method
    but GET, HEAD and OPTIONS), and a command inside ``writing()``, begins ``IMMEDIATE`` instead, so it waits
    its turn for up to ``busy_timeout_ms``; pages that only read begin as readers, and in
    WAL mode never wait for a writer, as does what a request reads after its commit.
    """
    if engine.dialect.name != "sqlite":
        return

    database = engine.url.database

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # the driver's own transaction handling off: _on_begin says BEGIN itself
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
        if database and database != ":memory:":
            # the table's games are nobody else's to read: SQLite makes its -wal and -shm
            # files with the database file's own mode
            private_files(*(Path(database + suffix) for suffix in ("", "-wal", "-shm")))

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if _may_write() else "BEGIN")


READING_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# set by writing(): a command about to write, outside any request
_writing: ContextVar[bool] = ContextVar("companion_writing", default=False)


def _may_write() -> bool:
    if _writing.get():
        return True
    if has_request_context():
        # once its write is committed, a request only reads (the page or fragment it answers
        # with): it renders that without holding the write lock the next table waits for
        return request.method not in READING_METHODS and not g.get("_companion_written", False)
    return _writing.get()


@event.listens_for(Session, "after_commit")
def _written(_session: Session) -> None:
    if has_request_context():
        g._companion_written = True


@contextmanager
def writing() -> Iterator[None]:
    """The transactions begun inside take the write lock at their start, as a request that
    writes does: a command's, or a request's after its first commit (an import's batches)."""
    token = _writing.set(True)
    try:
        yield
    finally:
        _writing.reset(token)


def is_busy(error: BaseException) -> bool:
    """Whether a database error is SQLite's "database is locked": another write held the
    lock for longer than the busy timeout. Nothing was written; the same request can be
    sent again."""

    return isinstance(error, OperationalError) and "database is locked" in str(error.orig)
