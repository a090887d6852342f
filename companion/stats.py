"""Statistics over many games, computed by the database and kept per player per day.

Each write to a game refreshes the day buckets of its players (``player_days`` and
``rival_days``) with aggregate queries over that day's games alone; a player's page
then sums at most one row per day played. So it costs the same with a thousand games
or ten thousand (benchmarks/history_scale.py), and over any period of whole days.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, Connection, and_, case, delete, func, insert, literal, select, true
from sqlalchemy.orm import aliased

from .extensions import db
from .models import BLACK_SPY, SPY, DealScore, Game, Player, PlayerDay, RivalDay, Seat
from .rules import black_spy as bs

# a deal of this many raw points or more counts as "heavy" (a Black Spy figure, from its rules)
HEAVY_DEAL = bs.HEAVY_DEAL


@dataclass(frozen=True)
class Period:
    start: date | None = None
    end: date | None = None  # inclusive

    def days(self, column):
        conditions = []
        if self.start is not None:
            conditions.append(column >= self.start)
        if self.end is not None:
            conditions.append(column <= self.end)
        return and_(True, *conditions)


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
    spy_games: int
    spy_wins: int

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


def _count(condition):
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


# the first key of the PostgreSQL advisory locks that stand for a player's statistics
_STATISTICS_LOCK = 0x5354  # "ST"


def hold_players(player_ids: Iterable[int]) -> None:
    """Wait until no other transaction is recounting any of these players, and keep them
    until this one ends.

    PostgreSQL only (SQLite has one writer at a time already). Advisory locks, taken in id
    order so two tables never wait on each other in a circle, and apart from row locks, so
    a game that updates a player's row meanwhile does not wait on them either.
    """
    if db.session.get_bind().dialect.name != "postgresql":
        return
    for player_id in sorted(set(player_ids)):
        db.session.execute(select(func.pg_advisory_xact_lock(_STATISTICS_LOCK, player_id)))


def refresh_days(pairs: Iterable[tuple[date, int]]) -> None:
    """Recount the buckets of these (day, player) pairs from the games themselves."""
    by_day: dict[date, set[int]] = {}
    for day, player in pairs:
        by_day.setdefault(day, set()).add(player)
    for day, players in by_day.items():
        _rebuild(day, players)


def refresh_span(first: date, last: date, players: set[int]) -> None:
    """Recount these players' buckets of every day from ``first`` to ``last`` (an import's
    batch of games, written in order of their days)."""
    if players:
        _rebuild(first, players, last=last)


def rebuild_all(connection: Connection | None = None) -> None:
    """Recount every bucket (after a bulk load, or in a migration on its connection)."""
    _rebuild(None, None, (connection or db.session).execute)


def _rebuild(day: date | None, players: set[int] | None, run: Callable[..., Any] | None = None, last: date | None = None) -> None:
    """Delete and recount the buckets of one day's players (or of every day to ``last``), or all of them."""
    run = run or db.session.execute
    in_days: ColumnElement[bool]
    day_value: ColumnElement[Any]
    if day is None:
        in_days, day_value = true(), func.date(Game.created_at)
        run(delete(PlayerDay).where(true() if players is None else PlayerDay.player_id.in_(players)))
        run(delete(RivalDay).where(true() if players is None else RivalDay.player_id.in_(players)))
    elif last is not None and last != day:
        start, end = datetime.combine(day, datetime.min.time()), datetime.combine(last, datetime.min.time()) + timedelta(days=1)
        in_days, day_value = and_(Game.created_at >= start, Game.created_at < end), func.date(Game.created_at)
        run(delete(PlayerDay).where(PlayerDay.day >= day, PlayerDay.day <= last, PlayerDay.player_id.in_(players or ())))
        run(delete(RivalDay).where(RivalDay.day >= day, RivalDay.day <= last, RivalDay.player_id.in_(players or ())))
    else:
        start = datetime.combine(day, datetime.min.time())
        in_days, day_value = and_(Game.created_at >= start, Game.created_at < start + timedelta(days=1)), literal(day)
        run(delete(PlayerDay).where(PlayerDay.day == day, PlayerDay.player_id.in_(players or ())))
        run(delete(RivalDay).where(RivalDay.day == day, RivalDay.player_id.in_(players or ())))
    mine, theirs = aliased(Seat), aliased(Seat)
    for_players = true() if players is None else Seat.player_id.in_(players)
    mine_players = true() if players is None else mine.player_id.in_(players)
    winners = select(Seat.game_id, func.count().label("winners")).where(Seat.won.is_(True)).group_by(Seat.game_id).subquery()
    deal_figures = (
        select(
            DealScore.game_id,
            DealScore.seat,
            func.count().label("deals"),
            func.sum(DealScore.score).label("score_sum"),
            _count(DealScore.shot.is_(True)).label("shoots"),
            _count(DealScore.raw >= HEAVY_DEAL).label("heavy"),
        )
        .join(Game, Game.id == DealScore.game_id)
        .where(Game.finished.is_(True), in_days)
        .group_by(DealScore.game_id, DealScore.seat)
        .subquery()
    )
    black_spy = Game.kind == BLACK_SPY
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
                "spy_games",
                "spy_wins",
            ],
            select(
                Seat.player_id,
                day_value,
                _count(black_spy),
                _count(and_(black_spy, Seat.won.is_(True))),
                _count(and_(black_spy, Seat.won.is_(True), winners.c.winners > 1)),
                func.coalesce(func.sum(case((black_spy, Seat.total), else_=0)), 0),
                func.min(case((black_spy, Seat.total), else_=None)),
                func.coalesce(func.sum(deal_figures.c.deals), 0),
                func.coalesce(func.sum(deal_figures.c.score_sum), 0),
                func.coalesce(func.sum(deal_figures.c.shoots), 0),
                func.coalesce(func.sum(deal_figures.c.heavy), 0),
                _count(Game.kind == SPY),
                _count(and_(Game.kind == SPY, Seat.won.is_(True))),
            )
            .select_from(Seat)
            .join(Game, Game.id == Seat.game_id)
            .outerjoin(winners, winners.c.game_id == Seat.game_id)
            .outerjoin(deal_figures, and_(deal_figures.c.game_id == Seat.game_id, deal_figures.c.seat == Seat.position))
            .where(Game.finished.is_(True), in_days, for_players)
            .group_by(Seat.player_id, day_value),
        )
    )
    run(
        insert(RivalDay).from_select(
            ["player_id", "opponent_id", "day", "games", "lower", "higher", "level"],
            select(
                mine.player_id,
                theirs.player_id,
                day_value,
                func.count(),
                _count(mine.total < theirs.total),
                _count(mine.total > theirs.total),
                _count(mine.total == theirs.total),
            )
            .select_from(mine)
            .join(theirs, and_(theirs.game_id == mine.game_id, theirs.player_id != mine.player_id))
            .join(Game, Game.id == mine.game_id)
            .where(Game.finished.is_(True), black_spy, in_days, mine_players)
            .group_by(mine.player_id, theirs.player_id, day_value),
        )
    )


def player_stats(player_id: int, period: Period = Period()) -> PlayerStats:
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
            func.coalesce(func.sum(PlayerDay.spy_games), 0),
            func.coalesce(func.sum(PlayerDay.spy_wins), 0),
        ).where(PlayerDay.player_id == player_id, period.days(PlayerDay.day))
    ).one()
    games, wins, shared, total_sum, best, deals, score_sum, shoots, heavy, spy_games, spy_wins = row
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
        spy_games=int(spy_games),
        spy_wins=int(spy_wins),
    )


def head_to_head(player_id: int, period: Period = Period()) -> list[HeadToHead]:
    """For each opponent: finished Black Spy games both played, and who finished lower."""
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
