"""The game every kind extends, and its seats.

A game's row holds what every kind has (who sits where, who starts, when, its version and
links) and the figures it keeps of its replay for lists and statistics. Each kind maps a
subclass on the same table (single-table inheritance, ``kind`` telling them apart) with
its own columns, its inputs and its fold: a query for ``Game`` returns each game as its
kind's class.
"""

from __future__ import annotations

import secrets
import string
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from flask import abort, has_request_context, request
from sqlalchemy import ForeignKey, Index, Select, String, bindparam, event, select
from sqlalchemy.orm import (
    Mapped,
    Session,
    SessionTransaction,
    contains_eager,
    joinedload,
    mapped_column,
    relationship,
    selectinload,
)

from .base import Model, db, utcnow
from .kept_logs import KEPT_LOGS

if TYPE_CHECKING:
    from .changes import InputChange
    from .players import Player

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


@dataclass(frozen=True)
class InputLog:
    """A game's inputs as its rules take them, in order, with the submissions they came
    with: what a write checks a new input against (a repeat, a page out of date) and plays it
    after. ``version``: the game's, when they were read."""

    version: int
    count: int
    submissions: frozenset[str]
    # as the rules take them: None for a kind whose input rows read no entry of their own
    # (it folds its inputs as it likes, Game.state)
    entries: tuple[Any, ...] | None


# where a game keeps the log read of its inputs, beside its mapped attributes (Game.input_log)
_LOG = "_input_log"


@dataclass(frozen=True)
class KeptFigures:
    """What a game keeps of its replay for lists and statistics (see Game.refresh_cache)."""

    finished: bool
    rounds: int  # inputs played: deals, turns, rounds
    next_seat: int | None  # who deals or plays next, where the kind has one
    totals: tuple[int | None, ...]  # by seat; None where the kind keeps no score
    won: tuple[bool, ...]  # by seat: a share of the win


@dataclass(frozen=True)
class GameSummary:
    names: tuple[str, ...]
    finished: bool
    winners: tuple[str, ...]
    next_up: str | None  # who deals or plays next
    rounds: int  # inputs played
    next_number: int | None = None


class Game(Model):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True, default=new_public_id)
    # which kind of game, and so which class a row is read as
    kind: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)
    # the seat that deals or plays first
    first_seat: Mapped[int]
    # bumped on every write (the flush that writes it), which is refused if someone else bumped it first
    version: Mapped[int] = mapped_column(default=1)
    # the read-only link's id: it can be shared, and no write route accepts it
    watch_id: Mapped[str | None] = mapped_column(String(32), unique=True, default=new_public_id)
    # the rematch started from this game, so a second tap on "Rematch" finds it, not a twin
    rematch_id: Mapped[str | None] = mapped_column(String(32), ForeignKey("games.id", ondelete="SET NULL"))

    # derived from the inputs, kept so that lists and statistics over thousands of games
    # need no replay (benchmarks/history_scale.py); refresh_cache() rewrites them on every
    # write and tests/test_kept_figures.py checks them against the fold
    finished: Mapped[bool] = mapped_column(default=False, index=True)
    rounds: Mapped[int] = mapped_column(default=0)
    next_seat: Mapped[int | None]

    # SQLAlchemy reads these off the class: every kind's columns are read with the game, so
    # a list of games of mixed kinds is one query
    __mapper_args__ = {  # noqa: RUF012  (SQLAlchemy reads it off the class)
        "polymorphic_on": "kind",
        "version_id_col": version,
        "with_polymorphic": "*",
    }
    __table_args__ = (Index("ix_games_finished_created_at", "finished", "created_at"),)

    seats: Mapped[list[Seat]] = relationship(order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin")
    # its history of edits and undos (store/changes.py), read for an export
    changes: Mapped[list[InputChange]] = relationship(order_by="InputChange.id", cascade="all, delete-orphan", viewonly=False)

    # the relationships that hold a kind's inputs, in order: a change to them is a change of
    # the game (its version goes up, its figures are kept anew)
    input_collections: ClassVar[tuple[str, ...]] = ()
    # the class of its input rows (each with a number, a submission id and set_entry())
    input_model: ClassVar[Any]

    @property
    def player_names(self) -> tuple[str, ...]:
        return tuple(seat.player.name for seat in self.seats)

    def inputs(self) -> list[Any]:
        """The game's input rows (deals, turns, rounds), in order."""
        raise NotImplementedError

    def input_log(self) -> InputLog:
        """The game's inputs as its rules take them, and their submissions.

        Read as plain rows, once for each version of the game, where the session holds no
        input objects of it: a write that adds an input after the last needs no object of the
        others (60 deals as objects took 0.65 ms, as rows 0.3). Where it holds them (an edit,
        an undo, a page that showed them), from them: they may hold changes not yet written.
        A kind whose inputs are not one collection of input rows (the score pad's are its
        pad's) reads its objects.
        """
        model = self.input_model
        if len(self.input_collections) != 1 or not hasattr(model, "entry_of"):
            objects = self.inputs()
            return InputLog(self.version, len(objects), _submissions(objects), None)
        if self.input_collections[0] in self.__dict__:
            objects = self.inputs()
            return InputLog(self.version, len(objects), _submissions(objects), tuple(row.entry() for row in objects))
        log: InputLog | None = self.__dict__.get(_LOG)
        if log is None or log.version != self.version:
            # the log this worker's last write of the game left, if the game is as it left it
            log = KEPT_LOGS.find(self.id, self.version, self.updated_at)
            if log is None:
                rows = db.session.execute(_log_of(model), {"game": self.id}).all()
                log = InputLog(self.version, len(rows), _submissions(rows), tuple(model.entry_of(row) for row in rows))
            self.__dict__[_LOG] = log
        return log

    def logged_entries(self) -> list[Any]:
        """The game's inputs as its rules take them (a kind whose input rows read their entry)."""
        entries = self.input_log().entries
        if entries is None:
            raise TypeError(f"{type(self).input_model.__name__} reads no entry: its kind folds its inputs itself")
        return list(entries)

    def log_appended(self, row: Any) -> None:
        """Say ``row`` was written after the game's last input, its version now one higher:
        the log read for the write goes on with it (store/appending.py)."""
        log: InputLog | None = self.__dict__.get(_LOG)
        if log is not None and log.entries is not None and log.version == self.version - 1:
            submissions = log.submissions | {row.submission_id} if row.submission_id else log.submissions
            self.__dict__[_LOG] = InputLog(self.version, log.count + 1, submissions, (*log.entries, row.entry()))

    def keep_log(self) -> None:
        """Keep the log of a write just committed for this worker's next write of the game
        (store/kept_logs.py)."""
        log: InputLog | None = self.__dict__.get(_LOG)
        if log is not None and log.entries is not None and log.version == self.version:
            KEPT_LOGS.keep(self.id, self.updated_at, log)

    def state(self) -> Any:
        """The game's inputs folded by its kind's rules."""
        raise NotImplementedError

    def played(self, entry: Any) -> Any:
        """The state after one more input; a ``RulesError`` when the rules refuse it."""
        raise NotImplementedError

    def replaced(self, number: int, entry: Any) -> Any:
        """The state with input ``number`` (from 1) as ``entry``; a ``RulesError`` when refused."""
        raise NotImplementedError

    def input_values(self, row: Any) -> dict[str, str]:
        """An input row's values as its history of changes shows them, by what each is of
        (a player's name): none where the kind shows no values (store/changes.py)."""
        return {}

    def input_row(self, entry: Any) -> Any:
        """A new row holding ``entry``, for the service to number and append."""
        raise NotImplementedError

    @classmethod
    def kept_figures(cls, state: Any) -> KeptFigures:
        """What lists and statistics keep of a replay (the same for a write and an import)."""
        raise NotImplementedError

    def keep_more(self, state: Any) -> None:
        """Keep what else a kind keeps of a replay beside the game and its seats."""

    def keep_appended(self, state: Any, row: Any) -> None:
        """Keep what else a kind keeps of ``row``, an input written after the last by
        statements (store/appending.py), before the row is in the game's collection."""
        self.keep_more(state)

    def mark_changed(self) -> None:
        """Say the game changed though its own row did not (an input was edited in place):
        its version goes up at the flush, and its kept figures are rewritten."""
        self.updated_at = utcnow()

    def refresh_cache(self) -> None:
        """Rewrite the derived figures kept beside the inputs from a fresh replay."""
        state = self.state()
        figures = self.kept_figures(state)
        self.finished, self.rounds, self.next_seat = figures.finished, figures.rounds, figures.next_seat
        for seat in self.seats:
            seat.total = figures.totals[seat.position]
            seat.won = figures.won[seat.position]
        self.keep_more(state)

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


def _submissions(rows: Sequence[Any]) -> frozenset[str]:
    return frozenset(row.submission_id for row in rows if row.submission_id)


@lru_cache(maxsize=8)
def _log_of(model: Any) -> Select[Any]:
    """The statement reading a game's inputs of this model as plain rows: the columns its
    ``entry_of`` reads and the submission, in order (made once: a statement's making and its
    cache key cost more than its rows)."""
    table = model.__table__
    columns = [table.c.submission_id, *(table.c[name] for name in model.entry_columns)]
    return select(*columns).where(table.c.game_id == bindparam("game")).order_by(table.c.number)


KindGame = TypeVar("KindGame", bound=Game)


class Seat(Model):
    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    position: Mapped[int] = mapped_column(primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    __table_args__ = (Index("ix_seats_player_game", "player_id", "game_id"),)
    # the colour a player plays (a set of cards, a token), where the kind gives one
    colour: Mapped[str | None] = mapped_column(String(16))
    # kept from the replay (see Game.refresh_cache): the running total, and a share of the win
    total: Mapped[int | None]
    won: Mapped[bool] = mapped_column(default=False)
    # this seat's own link (companion/store/shares.py): whoever holds it enters this player's
    # share of each deal from their own phone; renewed, the old one opens nothing
    link: Mapped[str | None] = mapped_column(String(32), unique=True)

    player: Mapped[Player] = relationship(lazy="joined")


# the session's info key for the ids of the games whose rows this transaction has locked
HELD = "held_games"


def game_or_404(model: type[KindGame], game_id: str) -> KindGame:
    """The game of this kind at this public id, or 404: one loader for every kind's pages.

    A request that may write (any but GET and HEAD) reads the game's row locked, as its
    write takes it (service._hold), with its seats' rows (_locked_with_seats): on PostgreSQL
    the read takes the lock, with no statement of its own before the write; its inputs are read
    after it."""
    writing = has_request_context() and request.method not in ("GET", "HEAD")
    if writing:
        game = db.session.scalars(_locked_with_seats(model), {"game_id": game_id[:64]}).unique().one_or_none()
    else:
        # a page's seats read in the game's statement, not a second one (on PostgreSQL a
        # round trip fewer)
        game = db.session.get(model, game_id[:64], options=(joinedload(Game.seats),))
    if writing and game is not None:
        db.session.info.setdefault(HELD, set()).add(game.id)
    if not isinstance(game, model):
        from .deleted import deleted

        # a game deleted is gone, not unknown: a phone that kept a deal for it is told so
        abort(410 if game is None and deleted(game_id) is not None else 404)
    return game


@lru_cache(maxsize=8)
def _locked_with_seats(model: type[Game]) -> Select[Any]:
    """A write's read of its game: the game's row and its seats' rows, locked, in one statement.

    Both are locked (``FOR UPDATE OF games, seats``): PostgreSQL, once another phone's write
    that this one waited on for the lock is in, gives each locked row as that write left it.
    With the game's row alone locked, the seats came as they were before it, and a total that
    write changed was kept wrong (tests/test_writes_under_contention.py). The seats' table is
    joined by its own name, not an alias, for the lock to name it; their players are not
    locked (a player sits at other tables' games too). SQLite takes no row locks: its write
    lock is the transaction's (store/sqlite.py)."""
    return (
        select(model)
        .join(model.seats)
        .options(contains_eager(model.seats))
        .where(model.id == bindparam("game_id"))
        .order_by(Seat.position)
        .with_for_update(of=[Game.__table__, Seat.__table__])
        # a game the session already holds is read again, as the lock found it
        .execution_options(populate_existing=True)
    )


def load_inputs(games: Sequence[Game], *collections: Any) -> None:
    """Load these collections of many games in a query each, not one per game (an export)."""
    if games:
        db.session.scalars(select(Game).where(Game.id.in_([game.id for game in games])).options(selectinload(*collections))).all()


@event.listens_for(Session, "after_transaction_end")
def _release_held(session: Session, transaction: SessionTransaction) -> None:
    """A transaction's row locks end with it."""
    if transaction.parent is None:
        session.info.pop(HELD, None)
