"""A tally's rows: its game class on the shared games table, and its rounds in a table of
its own (in metadata of its own: the real migrations do not make it)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, String
from sqlalchemy.orm import DeclarativeBase, Mapped, foreign, mapped_column, relationship

from companion.store.games import Game, KeptFigures, Seat
from companion.store.players import player_named

from . import rules

KEY = "tally"


class TallyBase(DeclarativeBase):
    pass


class TallyRound(TallyBase):
    __tablename__ = "tally_rounds"
    # an input of its game: the shared session hooks keep the game's figures
    input_of_game = True

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32), index=True)
    number: Mapped[int]
    points: Mapped[list[int]] = mapped_column(JSON)
    submission_id: Mapped[str | None] = mapped_column(String(64), unique=True)

    def set_entry(self, points: tuple[int, ...]) -> None:
        self.points = list(points)


class TallyGame(Game):
    __mapper_args__ = {"polymorphic_identity": KEY}  # noqa: RUF012  (SQLAlchemy reads it off the class)
    input_collections: ClassVar[tuple[str, ...]] = ("tally_rounds",)
    input_model: ClassVar[Any] = TallyRound

    tally_rounds: Mapped[list[TallyRound]] = relationship(
        TallyRound,
        primaryjoin=lambda: Game.id == foreign(TallyRound.game_id),
        order_by=TallyRound.number,
        cascade="all, delete-orphan",
    )

    def setup(self) -> rules.Setup:
        return rules.Setup(self.player_names)

    def state(self) -> rules.State:
        return rules.replay(self.setup(), [tuple(row.points) for row in self.tally_rounds])

    def inputs(self) -> list[TallyRound]:
        return self.tally_rounds

    def played(self, entry: tuple[int, ...]) -> rules.State:
        return rules.replay(self.setup(), [*self.state().rounds, entry])

    def input_row(self, entry: tuple[int, ...]) -> TallyRound:
        row = TallyRound()
        row.set_entry(entry)
        return row

    @classmethod
    def kept_figures(cls, state: rules.State) -> KeptFigures:
        return KeptFigures(
            finished=state.finished,
            rounds=len(state.rounds),
            next_seat=None,
            totals=state.totals,
            won=tuple(seat in state.winners for seat in range(len(state.totals))),
        )

    @classmethod
    def started(cls, setup: rules.Setup, seen: datetime | None = None, rounds: Sequence[tuple[int, ...]] = ()) -> TallyGame:
        game = cls(first_seat=0)
        game.seats = [Seat(position=seat, player=player_named(name, seen)) for seat, name in enumerate(setup.players)]
        for number, points in enumerate(rounds, start=1):
            row = TallyRound(number=number)
            row.set_entry(points)
            game.tally_rounds.append(row)
        return game
