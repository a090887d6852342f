"""Black Spy's statistics: each player's figures over their finished games, kept per day.

Each change to a finished game recounts its players' buckets of that day
(``black_spy_player_days``, and ``black_spy_rival_days`` for head-to-head) with aggregate
queries over that day's games alone (companion/store/statistics.py); a player's page
sums at most one row per day played.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlalchemy import Connection, ForeignKey, and_, delete, func, insert, select
from sqlalchemy.orm import Mapped, aliased, mapped_column

from companion.registry import Column
from companion.rules import N_
from companion.store.base import Model, db
from companion.store.figures import recount_with
from companion.store.games import Game, Seat
from companion.store.players import Player
from companion.store.statistics import ALL_TIME, Period, Span, count_where

from . import rules as bs
from .models import KEY, BlackSpyGame, DealScore


class PlayerDay(Model):
    """One player's figures over one day's finished games of Black Spy."""

    __tablename__ = "black_spy_player_days"

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


class RivalDay(Model):
    """Two players' finished games together on one day, and who finished lower."""

    __tablename__ = "black_spy_rival_days"

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    opponent_id: Mapped[int] = mapped_column(ForeignKey("players.id", ondelete="CASCADE"), primary_key=True)
    day: Mapped[date] = mapped_column(primary_key=True)
    games: Mapped[int]
    lower: Mapped[int]
    higher: Mapped[int]
    level: Mapped[int]


def rebuild_all(connection: Connection | None = None) -> None:
    """Recount every bucket (after a bulk load, or in a migration on its connection)."""
    _rebuild(Span(), (connection or db.session).execute)


def _rebuild(span: Span, run: Callable[..., Any] | None = None) -> None:
    """Delete and recount the buckets of a span of days and players."""
    run = run or db.session.execute
    in_days, day = span.games(), span.day()
    run(delete(PlayerDay).where(span.buckets(PlayerDay)))
    run(delete(RivalDay).where(span.buckets(RivalDay)))
    mine, theirs = aliased(Seat), aliased(Seat)
    black_spy = Game.kind == KEY
    winners = select(Seat.game_id, func.count().label("winners")).where(Seat.won.is_(True)).group_by(Seat.game_id).subquery()
    deal_figures = (
        select(
            DealScore.game_id,
            DealScore.seat,
            func.count().label("deals"),
            func.sum(DealScore.score).label("score_sum"),
            count_where(DealScore.shot.is_(True)).label("shoots"),
            count_where(DealScore.raw >= bs.HEAVY_DEAL).label("heavy"),
        )
        .join(Game, Game.id == DealScore.game_id)
        .where(Game.finished.is_(True), in_days)
        .group_by(DealScore.game_id, DealScore.seat)
        .subquery()
    )
    run(
        insert(PlayerDay).from_select(
            [
                "player_id",
                "day",
                "games",
                "wins",
                "shared_wins",
                "total_sum",
                "best_total",
                "deals",
                "score_sum",
                "shoots",
                "heavy",
            ],
            select(
                Seat.player_id,
                day,
                func.count(),
                count_where(Seat.won.is_(True)),
                count_where(and_(Seat.won.is_(True), winners.c.winners > 1)),
                func.coalesce(func.sum(Seat.total), 0),
                func.min(Seat.total),
                func.coalesce(func.sum(deal_figures.c.deals), 0),
                func.coalesce(func.sum(deal_figures.c.score_sum), 0),
                func.coalesce(func.sum(deal_figures.c.shoots), 0),
                func.coalesce(func.sum(deal_figures.c.heavy), 0),
            )
            .select_from(Seat)
            .join(Game, Game.id == Seat.game_id)
            .outerjoin(winners, winners.c.game_id == Seat.game_id)
            .outerjoin(deal_figures, and_(deal_figures.c.game_id == Seat.game_id, deal_figures.c.seat == Seat.position))
            .where(Game.finished.is_(True), black_spy, in_days, span.seated(Seat.player_id))
            .group_by(Seat.player_id, day),
        )
    )
    run(
        insert(RivalDay).from_select(
            ["player_id", "opponent_id", "day", "games", "lower", "higher", "level"],
            select(
                mine.player_id,
                theirs.player_id,
                day,
                func.count(),
                count_where(mine.total < theirs.total),
                count_where(mine.total > theirs.total),
                count_where(mine.total == theirs.total),
            )
            .select_from(mine)
            .join(theirs, and_(theirs.game_id == mine.game_id, theirs.player_id != mine.player_id))
            .join(Game, Game.id == mine.game_id)
            .where(Game.finished.is_(True), black_spy, in_days, span.seated(mine.player_id))
            .group_by(mine.player_id, theirs.player_id, day),
        )
    )


recount_with(BlackSpyGame, _rebuild)


@dataclass(frozen=True)
class PlayerStats:
    games: int
    wins: int
    shared_wins: int
    average_total: float | None
    best_total: int | None
    average_per_deal: float | None
    deals: int
    shoots: int
    heavy_deals: int
    rivals: tuple[HeadToHead, ...] = ()

    @property
    def win_rate(self) -> float | None:
        return None if not self.games else self.wins / self.games


@dataclass(frozen=True)
class HeadToHead:
    opponent: str
    games: int
    lower: int  # games the player finished lower (better) than the opponent
    higher: int
    level: int


def player_stats(player_id: int, period: Period = ALL_TIME) -> PlayerStats:
    row = db.session.execute(
        select(
            func.coalesce(func.sum(PlayerDay.games), 0),
            func.coalesce(func.sum(PlayerDay.wins), 0),
            func.coalesce(func.sum(PlayerDay.shared_wins), 0),
            func.sum(PlayerDay.total_sum),
            func.min(PlayerDay.best_total),
            func.coalesce(func.sum(PlayerDay.deals), 0),
            func.sum(PlayerDay.score_sum),
            func.coalesce(func.sum(PlayerDay.shoots), 0),
            func.coalesce(func.sum(PlayerDay.heavy), 0),
        ).where(PlayerDay.player_id == player_id, period.days(PlayerDay.day))
    ).one()
    games, wins, shared, total_sum, best, deals, score_sum, shoots, heavy = row
    return PlayerStats(
        games=int(games),
        wins=int(wins),
        shared_wins=int(shared),
        average_total=float(total_sum) / int(games) if games else None,
        best_total=best,
        deals=int(deals),
        average_per_deal=float(score_sum) / int(deals) if deals else None,
        shoots=int(shoots),
        heavy_deals=int(heavy),
        rivals=tuple(head_to_head(player_id, period)),
    )


def head_to_head(player_id: int, period: Period = ALL_TIME) -> list[HeadToHead]:
    """For each opponent: finished games both played, and who finished lower."""
    rows = db.session.execute(
        select(
            Player.name,
            func.sum(RivalDay.games),
            func.sum(RivalDay.lower),
            func.sum(RivalDay.higher),
            func.sum(RivalDay.level),
        )
        .join(Player, Player.id == RivalDay.opponent_id)
        .where(RivalDay.player_id == player_id, period.days(RivalDay.day))
        .group_by(Player.name)
        .order_by(func.sum(RivalDay.games).desc(), Player.name)
    ).all()
    return [HeadToHead(name, int(count), int(lower), int(higher), int(level)) for name, count, lower, higher, level in rows]


def player_columns() -> list[Column]:
    """Games, wins and best total of every player, in one query, for the list of players."""
    rows = db.session.execute(
        select(
            PlayerDay.player_id,
            func.sum(PlayerDay.games),
            func.sum(PlayerDay.wins),
            func.min(PlayerDay.best_total),
        ).group_by(PlayerDay.player_id)
    ).all()
    return [
        Column(N_("Games"), {player: int(games) for player, games, _, _ in rows}),
        Column(N_("Wins"), {player: int(wins) for player, _, wins, _ in rows}),
        Column(
            N_("Best"),
            {player: best for player, _, _, best in rows},
            missing=None,
            note=N_("Best: the lowest final total, as points are bad."),
        ),
    ]
