"""Spy's statistics: each player's finished games and wins, kept per day
(``spy_player_days``), recounted as Black Spy's are (companion/store/statistics.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, ForeignKey, delete, func, insert, select
from sqlalchemy.orm import Mapped, mapped_column

from companion.registry import Column
from companion.rules import N_
from companion.store.base import Model, db
from companion.store.figures import recount_with
from companion.store.games import Game, Seat
from companion.store.statistics import ALL_TIME, Period, Span, count_where

from .models import KEY, SpyGame


class PlayerDay(Model):
    """One player's finished games of Spy on one day, and how many they won."""

    __tablename__ = "spy_player_days"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    games: Mapped[int]
    wins: Mapped[int]


def rebuild_all(connection: Connection | None = None) -> None:
    """Recount every bucket (after a bulk load, or in a migration on its connection)."""
    _rebuild(Span(), (connection or db.session).execute)


def _rebuild(span: Span, run: Callable[..., Any] | None = None) -> None:
    run = run or db.session.execute
    day = span.day()
    run(delete(PlayerDay).where(span.buckets(PlayerDay)))
    run(
        insert(PlayerDay).from_select(
            ["player_id", "day", "games", "wins"],
            select(Seat.player_id, day, func.count(), count_where(Seat.won.is_(True)))
            .select_from(Seat)
            .join(Game, Game.id == Seat.game_id)
            .where(Game.finished.is_(True), Game.kind == KEY, span.games(), span.seated(Seat.player_id))
            .group_by(Seat.player_id, day),
        )
    )


recount_with(SpyGame, _rebuild)


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int


def player_stats(player_id: int, period: Period = ALL_TIME) -> PlayerStats:
    games, wins = db.session.execute(
        select(func.coalesce(func.sum(PlayerDay.games), 0), func.coalesce(func.sum(PlayerDay.wins), 0)).where(
            PlayerDay.player_id == player_id, period.days(PlayerDay.day)
        )
    ).one()
    return PlayerStats(int(games), int(wins))


def player_columns() -> list[Column]:
    """Every player's finished games and wins, in one query, for the list of players."""
    rows = db.session.execute(
        select(PlayerDay.player_id, func.sum(PlayerDay.games), func.sum(PlayerDay.wins)).group_by(PlayerDay.player_id)
    ).all()
    return [
        Column(N_("Games"), {player: int(games) for player, games, _ in rows}),
        Column(N_("Wins"), {player: int(wins) for player, _, wins in rows}),
    ]
