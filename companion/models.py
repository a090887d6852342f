"""Typed models. Rows hold what the table entered; everything else is derived."""

from __future__ import annotations

import secrets
import string
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, event, func, select
from flask import abort
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm import Mapped, Session, mapped_column, relationship, validates

from .extensions import db
from .rules import black_spy as bs
from .rules import spy

PUBLIC_ID_ALPHABET = string.ascii_letters + string.digits
PUBLIC_ID_LENGTH = 10


def new_public_id() -> str:
    """An unguessable id for a game's urls (62^10, about 8e17 of them)."""
    return "".join(secrets.choice(PUBLIC_ID_ALPHABET) for _ in range(PUBLIC_ID_LENGTH))


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Player(db.Model):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(bs.MAX_NAME_LENGTH), unique=True)
    # the name in any case, as Python folds it: a database's lower() knows only ASCII, so
    # "Əli" and "əli" would be two players (and the second a UNIQUE error)
    key: Mapped[str] = mapped_column(String(4 * bs.MAX_NAME_LENGTH), index=True)
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


class PlayerDay(db.Model):
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


class RivalDay(db.Model):
    """Two players' finished Black Spy games together on one day, and who finished lower."""

    __tablename__ = "rival_days"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    games: Mapped[int]
    lower: Mapped[int]
    higher: Mapped[int]
    level: Mapped[int]


class Game(db.Model):
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
    # bumped on every write (see touch), which is refused if someone else bumped it first
    version: Mapped[int] = mapped_column(default=1)
    __mapper_args__ = {"version_id_col": version}
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

    seats: Mapped[list[Seat]] = relationship(
        order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin"
    )
    deals: Mapped[list[Deal]] = relationship(order_by="Deal.number", cascade="all, delete-orphan")
    turns: Mapped[list[SpyTurn]] = relationship(order_by="SpyTurn.number", cascade="all, delete-orphan")
    scores: Mapped[list[DealScore]] = relationship(cascade="all, delete-orphan")

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(seat.player.name for seat in self.seats)

    def rules(self) -> bs.RuleSet:
        return bs.rule_set(
            self.preset or bs.Preset.STANDARD,
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

    def touch(self) -> None:
        """Mark the game changed: its version goes up (or the write is refused as stale)
        and its derived figures are brought up to date."""
        self.updated_at = utcnow()
        # nothing is written before the commit, where a race with another phone is caught
        with db.session.no_autoflush:
            self.refresh_cache()
        # the statistics buckets of its day are recounted just before the commit
        db.session.info.setdefault("touched_games", set()).add(self)

    def refresh_cache(self) -> None:
        """Rewrite the derived figures kept beside the inputs from a fresh replay."""
        if self.kind == SPY:
            spy_state = self.spy_state()
            self.finished = spy_state.finished
            self.rounds = len(spy_state.turns)
            self.next_seat = spy_state.to_play
            for seat in self.seats:
                seat.total = None
                seat.won = spy_state.winner == seat.position
            return
        state = self.state()
        self.finished = state.finished
        self.rounds = len(state.deals)
        self.next_seat = None if state.next is None else state.next.dealer
        for seat in self.seats:
            seat.total = state.totals[seat.position]
            seat.won = seat.position in state.winners
        self.scores = [
            DealScore(number=deal.number, seat=seat, raw=deal.raw[seat], score=deal.scores[seat], shot=deal.shooter == seat)
            for deal in state.deals
            for seat in range(state.setup.size)
        ]

    def spy_setup(self) -> spy.Setup:
        places = None
        if self.spies is not None:
            places = tuple(spy.SpyPlace(place["slot"], spy.Facing(place["facing"])) for place in self.spies)
        return spy.Setup(
            players=self.player_names,
            colours=tuple(spy.Colour(seat.colour) for seat in self.seats),
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
class GameSummary:
    names: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    next_up: str | None  # black spy: the next dealer; spy: whose turn
    rounds: int  # deals or turns played
    next_number: int | None = None


class Seat(db.Model):
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


class Deal(db.Model):
    """One deal as the table entered it: raw points, or the cards each player took."""

    __tablename__ = "deals"
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


class DealScore(db.Model):
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


class SpyTurn(db.Model):
    """One turn of Spy as the table played it: a move, a spy, both or neither."""

    __tablename__ = "spy_turns"
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

    def turn(self) -> spy.Turn:
        return spy.Turn(
            player=self.player,
            move=None if self.move is None else spy.Move(**self.move),
            spy=None if self.spy is None else spy.SpyAction(
                target=self.spy["target"], card=self.spy["card"], answer=spy.Answer(self.spy["answer"])
            ),
        )

    def set_turn(self, turn: spy.Turn) -> None:
        self.player = turn.player
        self.move = None if turn.move is None else {
            "steps": turn.move.steps,
            "turn_before": turn.move.turn_before,
            "turn_after": turn.move.turn_after,
            "other_end": turn.move.other_end,
        }
        self.spy = None if turn.spy is None else {
            "target": turn.spy.target,
            "card": turn.spy.card,
            "answer": turn.spy.answer.value,
        }


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


def player_named(name: str, seen: datetime | None = None) -> Player:
    """The known player of that name (in any case), made if new: players persist across games.

    ``seen`` is when they sat down to the game, now unless an imported game says otherwise.
    """
    player = db.session.scalar(select(Player).where(Player.key == name_key(name)).order_by(Player.id).limit(1))
    if player is None:
        player = Player(name=name)
        db.session.add(player)
    seen = seen or utcnow()
    player.last_seen = seen if player.last_seen is None else max(player.last_seen, seen)
    return player


@event.listens_for(Session, "after_soft_rollback")
def _forget_touched(session: Session, _transaction: Any) -> None:
    session.info.pop("touched_games", None)


@event.listens_for(Session, "before_commit")
def _recount_statistics(session: Session) -> None:
    """Bring the day buckets of every game changed in this transaction up to date."""
    games = session.info.pop("touched_games", None)
    if not games:
        return
    from .stats import refresh_days

    session.flush()
    refresh_days((game.created_at.date(), seat.player_id) for game in games for seat in game.seats)
    session.flush()


def configure_sqlite(engine: Engine) -> None:
    """WAL, a busy timeout and foreign keys on every SQLite connection."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
