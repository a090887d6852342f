"""The score pad's rows: what the table set up (the game's name, who wins, a target) and
each input as entered (a round of points by seat, or the end). Everything else is derived."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint, select
from sqlalchemy.orm import Mapped, mapped_column, relationship, selectinload

from companion.rules import N_, RulesError
from companion.store.base import Model, db, utcnow
from companion.store.games import Game, KeptFigures, Seat, new_public_id
from companion.store.players import player_named

from . import rules as sp

KEY = "scorepad"


class ScorepadEntry(Model):
    """One input: a round's points by seat, or the end (no points)."""

    __tablename__ = "scorepad_entries"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    # an input of its game: a change to it rewrites the game's kept figures (companion/store/figures.py)
    input_of_game = True

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("scorepads.game_id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    points: Mapped[list[int] | None] = mapped_column(JSON)
    submission_id: Mapped[str | None] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    def entry(self) -> sp.Entry:
        return sp.End() if self.points is None else sp.Round(tuple(self.points))

    def set_entry(self, entry: sp.Entry) -> None:
        self.points = None if isinstance(entry, sp.End) else list(entry.points)


class Scorepad(Model):
    """The setup of one score pad, beside its game's row in ``games``."""

    __tablename__ = "scorepads"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(sp.MAX_GAME_NAME_LENGTH), index=True)
    lowest_wins: Mapped[bool] = mapped_column(default=False)
    target: Mapped[int | None]

    # read when a pad's page or its kept figures need them, not with every list of games
    entries: Mapped[list[ScorepadEntry]] = relationship(order_by="ScorepadEntry.number", cascade="all, delete-orphan")


class ScorepadGame(Game):
    """A score pad: its setup row, and through it its inputs."""

    __mapper_args__ = {"polymorphic_identity": KEY}  # noqa: RUF012  (SQLAlchemy reads it off the class)
    input_model: ClassVar[Any] = ScorepadEntry

    # a list of games shows each pad's name: every pad of a page read in one query
    pad: Mapped[Scorepad] = relationship(lazy="selectin", cascade="all, delete-orphan", single_parent=True)

    def setup(self) -> sp.Setup:
        return sp.Setup(name=self.pad.name, players=self.player_names, lowest_wins=self.pad.lowest_wins, target=self.pad.target)

    def entries(self) -> list[sp.Entry]:
        return [row.entry() for row in self.pad.entries]

    def state(self) -> sp.ScorepadState:
        return sp.replay(self.setup(), self.entries())

    def inputs(self) -> list[ScorepadEntry]:
        return self.pad.entries

    def played(self, entry: sp.Entry) -> sp.ScorepadState:
        return sp.record(self.setup(), self.entries(), entry)

    def replaced(self, number: int, entry: sp.Entry) -> sp.ScorepadState:
        """The pad with input ``number`` as ``entry``: a round, whose number counts rounds only."""
        entries = self.entries()
        if not isinstance(entry, sp.Round) or not isinstance(entries[number - 1], sp.Round):
            raise RulesError(N_("Only a round's points can be changed."))
        round_number = sum(isinstance(earlier, sp.Round) for earlier in entries[:number])
        return sp.edit(self.setup(), entries, round_number, entry.points)

    def input_values(self, row: ScorepadEntry) -> dict[str, str]:
        # each player's points of the round; the end holds none
        return {name: str(points) for name, points in zip(self.player_names, row.points or [], strict=False)}

    def input_row(self, entry: sp.Entry) -> ScorepadEntry:
        row = ScorepadEntry()
        row.set_entry(entry)
        return row

    def input_number(self, round_number: int) -> int | None:
        """The input that is round ``round_number`` (inputs count the end too), if there is one."""
        rounds = [index for index, row in enumerate(self.pad.entries, start=1) if row.points is not None]
        return rounds[round_number - 1] if 1 <= round_number <= len(rounds) else None

    @classmethod
    def kept_figures(cls, state: sp.ScorepadState) -> KeptFigures:
        seats = range(state.setup.size)
        return KeptFigures(
            finished=state.finished,
            rounds=len(state.rounds),
            next_seat=None,
            totals=tuple(state.totals),
            won=tuple(seat in state.winners for seat in seats),
        )

    @classmethod
    def started(cls, setup: sp.Setup, entries: Sequence[sp.Entry] = (), seen: datetime | None = None) -> ScorepadGame:
        """A new pad's rows, seated as the setup says (and its inputs, for an imported one)."""
        # the id is known now, so the pad and its inputs can name their game before the flush
        game = cls(id=new_public_id(), first_seat=0)
        game.seats = [Seat(position=position, player=player_named(name, seen)) for position, name in enumerate(setup.players)]
        game.pad = Scorepad(game_id=game.id, name=setup.name, lowest_wins=setup.lowest_wins, target=setup.target)
        for number, entry in enumerate(entries, start=1):
            row = ScorepadEntry(game_id=game.id, number=number)
            row.set_entry(entry)
            game.pad.entries.append(row)
        return game


def preload(games: Sequence[Game]) -> None:
    """The pads of many games with their inputs, in two queries (an export)."""
    ids = [game.id for game in games]
    db.session.scalars(select(Scorepad).where(Scorepad.game_id.in_(ids)).options(selectinload(Scorepad.entries))).all()
