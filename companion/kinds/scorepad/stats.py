"""The score pad's figures for a player's page and the list of players, counted from the
finished pads themselves: a pad keeps its totals and winners on its seats (its kept
figures), so no table of its own is needed."""

from __future__ import annotations

from sqlalchemy import func, select

from companion.registry import Column
from companion.rules import N_
from companion.store.base import db
from companion.store.games import Game, Seat
from companion.store.statistics import Period, count_where

from .models import Scorepad


def player_stats(player_id: int, period: Period) -> list[tuple[str, int, int]]:
    """For each game name a player has a finished pad of: games played and games won (a
    shared win counts), over the period; the most played first."""
    day = func.date(Game.created_at)
    rows = db.session.execute(
        select(Scorepad.name, func.count(), count_where(Seat.won.is_(True)))
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .join(Scorepad, Scorepad.game_id == Game.id)
        .where(Seat.player_id == player_id, Game.finished.is_(True), period.days(day))
        .group_by(Scorepad.name)
        .order_by(func.count().desc(), Scorepad.name)
    ).all()
    return [(name, int(games), int(wins)) for name, games, wins in rows]


def player_columns() -> list[Column]:
    """Every player's finished pads and pads won (a shared win counts), in one query."""
    rows = db.session.execute(
        select(Seat.player_id, func.count(), count_where(Seat.won.is_(True)))
        .join(Scorepad, Scorepad.game_id == Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Game.finished.is_(True))
        .group_by(Seat.player_id)
    ).all()
    return [
        Column(N_("Games"), {player: int(games) for player, games, _ in rows}),
        Column(N_("Wins"), {player: int(wins) for player, _, wins in rows}),
    ]
