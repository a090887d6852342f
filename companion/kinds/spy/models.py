"""Spy's rows: where each tracked Spy starts, and each turn as the table played it. The
public state is derived from them; no hidden card is ever stored."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from companion.store.base import Model, utcnow
from companion.store.games import Game, KeptFigures, Seat
from companion.store.players import player_named

from . import rules

KEY = "spy"


class SpyTurn(Model):
    """One turn of Spy as the table played it: a move, a spy, both or neither."""

    __tablename__ = "spy_turns"
    # an input of its game: a change to it rewrites the game's kept figures (companion/store/figures.py)
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

    # what an entry is read from, in a row or in this object (Game.input_log reads rows)
    entry_columns: ClassVar[tuple[str, ...]] = ("player", "move", "spy")

    @staticmethod
    def entry_of(values: Any) -> rules.Turn:
        move, spy = values.move, values.spy
        return rules.Turn(
            player=values.player,
            move=None if move is None else rules.Move(**move),
            spy=None
            if spy is None
            else rules.SpyAction(target=spy["target"], card=spy["card"], answer=rules.Answer(spy["answer"])),
        )

    def entry(self) -> rules.Turn:
        return self.entry_of(self)

    def set_entry(self, turn: rules.Turn) -> None:
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
            None if turn.spy is None else {"target": turn.spy.target, "card": turn.spy.card, "answer": turn.spy.answer.value}
        )


class SpyGame(Game):
    """A game of Spy: its players' colours (on their seats), their Spies if tracked, its turns."""

    __mapper_args__ = {"polymorphic_identity": KEY}  # noqa: RUF012  (SQLAlchemy reads it off the class)
    input_collections: ClassVar[tuple[str, ...]] = ("turns",)
    input_model: ClassVar[Any] = SpyTurn

    # where each tracked Spy starts, [{"slot", "facing"}] by seat; None when untracked
    spies: Mapped[list[dict[str, Any]] | None] = mapped_column(JSON)

    turns: Mapped[list[SpyTurn]] = relationship(order_by="SpyTurn.number", cascade="all, delete-orphan")

    def setup(self) -> rules.Setup:
        places = None
        if self.spies is not None:
            places = tuple(rules.SpyPlace(place["slot"], rules.Facing(place["facing"])) for place in self.spies)
        return rules.Setup(
            players=self.player_names,
            colours=tuple(rules.Colour(str(seat.colour)) for seat in self.seats),
            first_player=self.first_seat,
            spies=places,
        )

    def entries(self) -> list[rules.Turn]:
        return self.logged_entries()

    def state(self) -> rules.SpyState:
        return rules.replay(self.setup(), self.entries())

    def inputs(self) -> list[SpyTurn]:
        return self.turns

    def played(self, entry: rules.Turn) -> rules.SpyState:
        return rules.take(self.state(), entry)

    def input_row(self, entry: rules.Turn) -> SpyTurn:
        row = SpyTurn()
        row.set_entry(entry)
        return row

    @classmethod
    def kept_figures(cls, state: rules.SpyState) -> KeptFigures:
        seats = range(len(state.setup.players))
        return KeptFigures(
            finished=state.finished,
            rounds=len(state.turns),
            next_seat=state.to_play,
            totals=tuple(None for _ in seats),
            won=tuple(state.winner == seat for seat in seats),
        )

    @classmethod
    def started(cls, setup: rules.Setup, turns: Sequence[rules.Turn] = (), seen: datetime | None = None) -> SpyGame:
        """A new game's rows, seated as the setup says (and its turns, for an imported one)."""
        game = cls(
            first_seat=setup.first_player,
            spies=None if setup.spies is None else [{"slot": place.slot, "facing": place.facing.value} for place in setup.spies],
        )
        game.seats = [
            Seat(position=seat, player=player_named(name, seen), colour=colour.value)
            for seat, (name, colour) in enumerate(zip(setup.players, setup.colours, strict=True))
        ]
        for number, turn in enumerate(turns, start=1):
            row = SpyTurn(number=number)
            row.set_entry(turn)
            game.turns.append(row)
        return game
