"""What every kind's statistics share: a period of whole days, and recounting day buckets.

A kind keeps its players' figures over its finished games per player per day (a table of
its own), recounted by aggregate queries over those days' games alone whenever one of
them changes; a player's page then sums at most one row per day played, so it costs the
same with a thousand games or ten thousand (benchmarks/history_scale.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import ColumnElement, and_, case, func, literal, true

from .games import Game


@dataclass(frozen=True)
class Period:
    start: date | None = None
    end: date | None = None  # inclusive

    def days(self, column: Any) -> ColumnElement[bool]:
        conditions = []
        if self.start is not None:
            conditions.append(column >= self.start)
        if self.end is not None:
            conditions.append(column <= self.end)
        return and_(true(), *conditions)


# every day there is
ALL_TIME = Period()


def count_where(condition: Any) -> Any:
    """How many rows of a group meet ``condition`` (0 when none do)."""
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


@dataclass(frozen=True)
class Span:
    """Some days' buckets of some players, to recount: every day and player when both are None."""

    first: date | None = None
    last: date | None = None
    players: frozenset[int] | None = None

    def games(self) -> ColumnElement[bool]:
        """The games played on these days."""
        if self.first is None:
            return true()
        start = datetime.combine(self.first, datetime.min.time())
        end = datetime.combine(self.last or self.first, datetime.min.time()) + timedelta(days=1)
        return and_(Game.created_at >= start, Game.created_at < end)

    def day(self) -> Any:
        """A game's day, as a bucket names it."""
        if self.first is not None and (self.last is None or self.last == self.first):
            return literal(self.first)
        return func.date(Game.created_at)

    def buckets(self, model: Any) -> ColumnElement[bool]:
        """The rows of a kind's bucket table (``player_id``, ``day``) this span recounts."""
        conditions: list[Any] = []
        if self.first is not None:
            conditions += [model.day >= self.first, model.day <= (self.last or self.first)]
        if self.players is not None:
            conditions.append(model.player_id.in_(self.players))
        return and_(true(), *conditions)

    def seated(self, column: Any) -> ColumnElement[bool]:
        """A seat's player is one of this span's."""
        return true() if self.players is None else column.in_(self.players)


def by_day(pairs: Iterable[tuple[date, int]]) -> Iterator[Span]:
    """One span per day of these (day, player) pairs, with that day's players."""
    days: dict[date, set[int]] = {}
    for day, player in pairs:
        days.setdefault(day, set()).add(player)
    for day, players in sorted(days.items()):
        yield Span(day, day, frozenset(players))
