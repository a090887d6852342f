"""Statistics over many games, computed by the database from the kept figures.

Each figure is one aggregate query over ``seats`` and ``deal_scores`` (see
Game.refresh_cache), so a player's page costs the same with ten games or ten thousand.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import aliased

from .extensions import db
from .models import BLACK_SPY, SPY, DealScore, Game, Player, Seat

# a deal in which a player took this many raw points or more counts as "heavy"
HEAVY_DEAL = 30


@dataclass(frozen=True)
class Period:
    start: date | None = None
    end: date | None = None  # inclusive

    def clause(self):  # noqa: ANN201
        conditions = []
        if self.start is not None:
            conditions.append(Game.created_at >= datetime.combine(self.start, datetime.min.time()))
        if self.end is not None:
            conditions.append(Game.created_at < datetime.combine(self.end + timedelta(days=1), datetime.min.time()))
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


def player_stats(player_id: int, period: Period = Period()) -> PlayerStats:
    winners = (
        select(Seat.game_id, func.count().label("winners"))
        .where(Seat.won.is_(True))
        .group_by(Seat.game_id)
        .subquery()
    )
    finished_black_spy = and_(Game.kind == BLACK_SPY, Game.finished.is_(True), period.clause())
    games = db.session.execute(
        select(
            func.count(),
            func.coalesce(func.sum(case((Seat.won.is_(True), 1), else_=0)), 0),
            func.coalesce(func.sum(case((and_(Seat.won.is_(True), winners.c.winners > 1), 1), else_=0)), 0),
            func.avg(Seat.total),
            func.min(Seat.total),
        )
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .outerjoin(winners, winners.c.game_id == Seat.game_id)
        .where(Seat.player_id == player_id, finished_black_spy)
    ).one()
    deals = db.session.execute(
        select(
            func.count(),
            func.avg(DealScore.score),
            func.coalesce(func.sum(case((DealScore.shot.is_(True), 1), else_=0)), 0),
            func.coalesce(func.sum(case((DealScore.raw >= HEAVY_DEAL, 1), else_=0)), 0),
        )
        .select_from(DealScore)
        .join(Seat, and_(Seat.game_id == DealScore.game_id, Seat.position == DealScore.seat))
        .join(Game, Game.id == DealScore.game_id)
        .where(Seat.player_id == player_id, finished_black_spy)
    ).one()
    spy_games = db.session.execute(
        select(func.count(), func.coalesce(func.sum(case((Seat.won.is_(True), 1), else_=0)), 0))
        .select_from(Seat)
        .join(Game, Game.id == Seat.game_id)
        .where(Seat.player_id == player_id, Game.kind == SPY, Game.finished.is_(True), period.clause())
    ).one()
    return PlayerStats(
        games=games[0],
        wins=int(games[1]),
        shared_wins=int(games[2]),
        average_total=None if games[3] is None else float(games[3]),
        best_total=games[4],
        deals=deals[0],
        average_per_deal=None if deals[1] is None else float(deals[1]),
        shoots=int(deals[2]),
        heavy_deals=int(deals[3]),
        spy_games=spy_games[0],
        spy_wins=int(spy_games[1]),
    )


def head_to_head(player_id: int, period: Period = Period()) -> list[HeadToHead]:
    """For each opponent: finished Black Spy games both played, and who finished lower."""
    mine, theirs = aliased(Seat), aliased(Seat)
    rows = db.session.execute(
        select(
            Player.name,
            func.count(),
            func.sum(case((mine.total < theirs.total, 1), else_=0)),
            func.sum(case((mine.total > theirs.total, 1), else_=0)),
            func.sum(case((mine.total == theirs.total, 1), else_=0)),
        )
        .select_from(mine)
        .join(theirs, and_(theirs.game_id == mine.game_id, theirs.player_id != mine.player_id))
        .join(Game, Game.id == mine.game_id)
        .join(Player, Player.id == theirs.player_id)
        .where(mine.player_id == player_id, Game.kind == BLACK_SPY, Game.finished.is_(True), period.clause())
        .group_by(Player.name)
        .order_by(func.count().desc(), Player.name)
    ).all()
    return [HeadToHead(name, count, int(lower), int(higher), int(level)) for name, count, lower, higher, level in rows]
