"""Charts drawn by the server as inline SVG: no chart library in the browser."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import black_spy as bs


@dataclass(frozen=True)
class Series:
    name: str
    points: str  # "x,y x,y …" for an svg polyline
    last: tuple[float, float]
    total: int


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    bottom: int
    series: tuple[Series, ...]
    end_y: float
    end_value: int
    shoots: tuple[tuple[float, float, str], ...]  # where each shoot happened, and by whom
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]


def score_chart(state: bs.GameState, width: int = 360, height: int = 220) -> Chart:
    """Each player's running total after every deal, with the end value as a line."""
    left, right, top, bottom = 34, 8, 10, 22
    deals = len(state.deals)
    lowest = min([0, *(min(deal.totals) for deal in state.deals)])
    highest = max([state.end_value, *(max(deal.totals) for deal in state.deals)])
    span_x = max(deals, 1)
    span_y = max(highest - lowest, 1)

    def x(number: int) -> float:
        return round(left + (width - left - right) * number / span_x, 1)

    def y(total: int) -> float:
        return round(top + (height - top - bottom) * (highest - total) / span_y, 1)

    series = []
    for seat, name in enumerate(state.setup.players):
        coords = [(x(0), y(0))] + [(x(deal.number), y(deal.totals[seat])) for deal in state.deals]
        series.append(Series(name, " ".join(f"{px},{py}" for px, py in coords), coords[-1], state.totals[seat]))
    shoots = tuple(
        (x(deal.number), y(deal.totals[deal.shooter]), state.setup.players[deal.shooter])
        for deal in state.deals
        if deal.shooter is not None
    )
    step = max(1, -(-deals // 8))
    ticks = tuple((x(number), number) for number in range(0, deals + 1, step))
    value_step = _nice_step(span_y)
    first = -(-lowest // value_step) * value_step
    y_ticks = tuple((y(value), value) for value in range(first, highest + 1, value_step))
    return Chart(width, height, left, bottom, tuple(series), y(state.end_value), state.end_value, shoots, ticks, y_ticks)


def _nice_step(span: int) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 6:
            return step
    return 10_000
