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


# pad games named in the list of players, the most played first; the others share a column
NAMED_PAD_GAMES = 4


def player_columns() -> list[Column]:
    """Every player's finished pads and pads won (a shared win counts), by the game the pad
    was for (Golf, Hearts: one game's figures are not another's), in one query."""
    rows = db.session.execute(
        select(Scorepad.name, Seat.player_id, func.count(), count_where(Seat.won.is_(True)))
        .join(Scorepad, Scorepad.game_id == Seat.game_id)
        .join(Game, Game.id == Seat.game_id)
        .where(Game.finished.is_(True))
        .group_by(Scorepad.name, Seat.player_id)
    ).all()
    played: dict[str, int] = {}
    for name, _, count, _ in rows:
        played[name] = played.get(name, 0) + int(count)
    named = sorted(played, key=lambda name: (-played[name], name.casefold()))[:NAMED_PAD_GAMES]
    columns: list[Column] = []
    for game in [*named, None] if len(played) > len(named) else named:
        played_by: dict[int, int] = {}
        won_by: dict[int, int] = {}
        for name, player, count, won in rows:
            if (name == game) if game is not None else name not in named:
                played_by[player] = played_by.get(player, 0) + int(count)
                won_by[player] = won_by.get(player, 0) + int(won)
        title = game if game is not None else N_("other games")
        columns.append(Column(N_("%(game)s: games", game=title), played_by))
        columns.append(Column(N_("%(game)s: wins", game=title), won_by))
    return columns or [Column(N_("Games"), {}), Column(N_("Wins"), {})]
