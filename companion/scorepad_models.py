"""Scorepad's rows: what the table set up (the game's name, who wins, a target) and each
input as entered (a round of points by seat, or the end). Everything else is derived."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from .extensions import Model, db
from .models import Game, utcnow
from .rules import scorepad as sp

SCOREPAD = "scorepad"


class Scorepad(Model):
    """The setup of one score pad game, beside its row in ``games``."""

    __tablename__ = "scorepads"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    name: Mapped[str] = mapped_column(String(sp.MAX_GAME_NAME_LENGTH), index=True)
    lowest_wins: Mapped[bool] = mapped_column(default=False)
    target: Mapped[int | None]

    entries: Mapped[list[ScorepadEntry]] = relationship(
        order_by="ScorepadEntry.number", cascade="all, delete-orphan", lazy="selectin"
    )


class ScorepadEntry(Model):
    """One input: a round's points by seat, or the end (no points)."""

    __tablename__ = "scorepad_entries"
    __table_args__ = (UniqueConstraint("game_id", "number"),)
    # an input of its game: a change to it rewrites the game's kept figures (models._keep_figures)
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


def pad_of(game: Game) -> Scorepad:
    """A score pad game's setup row: kept on the game object once found, and known to a
    new game before it is written (its kept figures are worked out at the flush)."""
    pad = game.__dict__.get("_scorepad")
    if pad is None:
        pad = db.session.get(Scorepad, game.id)
        if pad is None:
            raise LookupError(game.id)
        game.__dict__["_scorepad"] = pad
    return pad


def setup_of(game: Game) -> sp.Setup:
    pad = pad_of(game)
    return sp.Setup(name=pad.name, players=game.player_names, lowest_wins=pad.lowest_wins, target=pad.target)


def state_of(game: Game) -> sp.ScorepadState:
    return sp.replay(setup_of(game), [row.entry() for row in pad_of(game).entries])


def new_scorepad_game(
    setup: sp.Setup, entries: list[sp.Entry] | tuple[sp.Entry, ...] = (), seen: datetime | None = None
) -> tuple[Game, Scorepad]:
    """A score pad game's rows, seated as the setup says."""
    from .models import Seat, new_public_id, player_named

    # the id is known now, so the pad and its inputs can name their game before the flush
    game = Game(id=new_public_id(), kind=SCOREPAD, first_seat=0)
    game.seats = [Seat(position=position, player=player_named(name, seen)) for position, name in enumerate(setup.players)]
    pad = Scorepad(game_id=game.id, name=setup.name, lowest_wins=setup.lowest_wins, target=setup.target)
    for number, entry in enumerate(entries, start=1):
        row = ScorepadEntry(game_id=game.id, number=number)
        row.set_entry(entry)
        pad.entries.append(row)
    game.__dict__["_scorepad"] = pad
    return game, pad


def player_stats(player_id: int, period: Any) -> list[tuple[str, int, int]]:
    """For each game name a player has a finished pad of: games played and games won (a
    shared win counts), over the period; the most played first."""
    from sqlalchemy import case, func, select

    from .models import Seat

    day = func.date(Game.created_at)
    rows = db.session.execute(
        select(Scorepad.name, func.count(), func.coalesce(func.sum(case((Seat.won.is_(True), 1), else_=0)), 0))
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .join(Scorepad, Scorepad.game_id == Game.id)
        .where(Seat.player_id == player_id, Game.finished.is_(True), period.days(day))
        .group_by(Scorepad.name)
        .order_by(func.count().desc(), Scorepad.name)
    ).all()
    return [(name, int(games), int(wins)) for name, games, wins in rows]


def player_counts() -> dict[int, tuple[int, int]]:
    """Every player's finished pads and pads won (a shared win counts), by player id: one
    query for the list of players."""
    from sqlalchemy import case, func, select

    from .models import Seat

    rows = db.session.execute(
        select(Seat.player_id, func.count(), func.coalesce(func.sum(case((Seat.won.is_(True), 1), else_=0)), 0))
        .join(Scorepad, Scorepad.game_id == Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Game.finished.is_(True))
        .group_by(Seat.player_id)
    ).all()
    return {player_id: (int(games), int(wins)) for player_id, games, wins in rows}


def preload(games: Sequence[Game]) -> None:
    """The pads of many games, with their rounds, in two queries (an export)."""
    from sqlalchemy import select

    pads = db.session.scalars(select(Scorepad).where(Scorepad.game_id.in_([game.id for game in games]))).all()
    by_game = {pad.game_id: pad for pad in pads}
    for game in games:
        if game.id in by_game:
            game.__dict__["_scorepad"] = by_game[game.id]
