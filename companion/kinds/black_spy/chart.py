"""Charts drawn by the server as inline SVG: no chart library in the browser."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from flask_babel import format_decimal, pgettext

from . import rules as bs

# a player's line is this wide (static/css/app.css): lines that meet are drawn this far
# apart, side by side, so that none covers another
LINE_SPACING = 3.0
LABEL_SIZE = 10  # the end value's label, in svg units (the stylesheet's font size)
# a player's mark at the end of their line is as high as the labels: marks this far apart
MARK_SPACING = LABEL_SIZE + 1
# wide enough for any letter or digit of the label's font, so a guess errs on the safe side
LABEL_CHAR_WIDTH = 0.62 * LABEL_SIZE
# from a line's end dot to its mark, beside it on the right: room for the lead that joins
# them, slanted where marks of lines ending close together were moved apart
MARK_GAP = 14


@dataclass(frozen=True)
class Series:
    name: str
    heights: tuple[float, ...]  # where the line is after each deal (0: before the first)
    last: tuple[float, float]  # its end, where its dot is drawn
    total: int
    mark: str  # the player's mark: their line ends in it, and the standings show it
    mark_x: float  # where the mark is written: beside the line's end dot, on its right
    mark_y: float  # and at its height, moved from the others' marks

    # a line is drawn through its deals by number, scaled to the chart's width by its group
    # (Chart.x_scale): a deal's point stays where it is as the game goes on, and a new deal's
    # answer brings that deal's point alone (black_spy/_changed.html, static/js/swaps.js)
    @property
    def points(self) -> str:
        """ "number,height …" for an svg polyline."""
        return " ".join(f"{number},{height}" for number, height in enumerate(self.heights))

    @property
    def last_point(self) -> str:
        return f"{len(self.heights) - 1},{self.heights[-1]}"

    @property
    def mark_middle(self) -> float:
        """The height of the mark's middle, where the lead from the line's dot reaches it."""
        return round(self.mark_y - LABEL_SIZE / 3, 1)


def player_marks(names: Sequence[str]) -> list[str]:
    """Each player's mark, told apart without colour: their initial, or as many first
    letters as tell them from the others ("An", "Al").

    >>> player_marks(["Ana", "Ben", "Al", "Bo"])
    ['An', 'Be', 'Al', 'Bo']
    >>> player_marks(["Ana", "Ben", "Cy"])
    ['A', 'B', 'C']
    """
    marks = []
    for seat, name in enumerate(names):
        others = [other for place, other in enumerate(names) if place != seat]
        length = 1
        while length < len(name) and any(other[:length].casefold() == name[:length].casefold() for other in others):
            length += 1
        marks.append(name[: min(length, 3)])
    return marks


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    anchor: str  # svg text-anchor
    text: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    bottom: int
    series: tuple[Series, ...]
    end_y: float
    end_value: int
    end_label: Label
    shoots: tuple[tuple[float, float, str], ...]  # where each shoot happened, and by whom
    x_ticks: tuple[tuple[float, int], ...]
    y_ticks: tuple[tuple[float, int], ...]
    x_scale: float  # the width of a deal: the lines' group is drawn this much wider
    deals: int


def score_chart(state: bs.GameState, width: int = 360, height: int = 220) -> Chart:
    """Each player's running total after every deal, with the end value as a line."""
    marks = player_marks(state.setup.players)
    # each line ends in its player's mark, written to the right of its end dot where no line
    # runs (written over the lines' ends, a mark was crossed out by a line ending near it)
    left, top, bottom = 34, 16, 22
    right = MARK_GAP + round(max(len(mark) for mark in marks) * LABEL_CHAR_WIDTH) + 2
    deals = len(state.deals)
    lowest, highest = _span(state.deals, state.end_value)
    span_x = max(deals, 1)
    span_y = max(highest - lowest, 1)

    def x(number: int) -> float:
        return round(left + (width - left - right) * number / span_x, 1)

    def y(total: float) -> float:
        return round(top + (height - top - bottom) * (highest - total) / span_y, 1)

    players = range(state.setup.size)
    totals = [(0,) * state.setup.size, *(tuple(deal.totals) for deal in state.deals)]
    # every line starts at one point, 0 before the first deal (spread apart there, a line
    # seemed to start below 0, or to stay flat through a first deal that scored)
    start = _heights(totals[0][:1], top, height - top - bottom, highest, span_y) * state.setup.size
    heights = [start, *(_heights(row, top, height - top - bottom, highest, span_y) for row in totals[1:])]
    xs = [x(number) for number in range(deals + 1)]
    lines = [[(xs[number], row[seat]) for number, row in enumerate(heights)] for seat in players]
    # the marks of lines that end close together are written a line of text apart, each
    # beside its dot (a baseline a third of the text's height below the dot's middle)
    mark_ys = within(
        side_by_side([lines[seat][-1][1] + LABEL_SIZE / 3 for seat in players], spacing=MARK_SPACING),
        LABEL_SIZE,
        height - bottom + LABEL_SIZE / 3,
    )
    series = [
        Series(
            name,
            tuple(row[seat] for row in heights),
            lines[seat][-1],
            state.totals[seat],
            marks[seat],
            lines[seat][-1][0] + MARK_GAP,
            mark_ys[seat],
        )
        for seat, name in enumerate(state.setup.players)
    ]
    shoots = tuple(
        (x(deal.number), heights[deal.number][deal.shooter], state.setup.players[deal.shooter])
        for deal in state.deals
        if deal.shooter is not None
    )
    step = max(1, -(-deals // 8))
    numbers = list(range(0, deals + 1, step))
    # the last deal is always numbered: it takes the place of a number too close before it
    if numbers[-1] != deals:
        if deals - numbers[-1] < step / 2:
            numbers.pop()
        numbers.append(deals)
    ticks = tuple((x(number), number) for number in numbers)
    value_step = _nice_step(span_y)
    first = -(-lowest // value_step) * value_step
    y_ticks = tuple((y(value), value) for value in range(first, highest + 1, value_step))
    end_y = y(state.end_value)
    text = pgettext("chart: the end value", "end %(value)s", value=format_decimal(state.end_value))
    label = _place_label(text, end_y, left, width - right, height, lines)
    x_scale = round((width - left - right) / span_x, 4)
    return Chart(
        width, height, left, bottom, tuple(series), end_y, state.end_value, label, shoots, ticks, y_ticks, x_scale, deals
    )


def _span(deals: Sequence[bs.PlayedDeal], end_value: int) -> tuple[int, int]:
    """The lowest and highest totals the chart's height spans: 0 and the end value at least."""
    return min([0, *(min(deal.totals) for deal in deals)]), max([end_value, *(max(deal.totals) for deal in deals)])


def adds_a_point(state: bs.GameState) -> bool:
    """Whether the chart after the last deal is the chart before it with a point more on each
    line: its height spans the same totals, so every earlier point stays where it was."""
    if len(state.deals) < 2:
        return False
    lowest, highest = _span(state.deals[:-1], state.end_value)
    return lowest <= min(state.deals[-1].totals) and max(state.deals[-1].totals) <= highest


@lru_cache(maxsize=4096)
def _heights(totals: tuple[int, ...], top: int, tall: int, highest: int, span: int) -> tuple[float, ...]:
    """One deal's points' heights, spread side by side. Kept: a game's scale holds from one
    deal to the next (until a total passes the end value), so a chart one deal longer than
    the last one drawn spreads its new deal's points alone."""
    return tuple(side_by_side([top + tall * (highest - total) / span for total in totals]))


def side_by_side(heights: Sequence[float], spacing: float = LINE_SPACING) -> list[float]:
    """Heights of one deal's points, those closer than ``spacing`` moved apart.

    Each bunch keeps its middle and its order, so a line moves only where it meets another;
    a bunch that, spread, reaches the next is one bunch with it (marks of four players ending
    in two close pairs were spread into each other).

    >>> side_by_side([100.0, 100.0, 50.0])
    [98.5, 101.5, 50.0]
    >>> side_by_side([10.0, 20.0])
    [10.0, 20.0]
    >>> side_by_side([0.0, 2.0, 14.0, 16.0], spacing=11)
    [-8.5, 2.5, 13.5, 24.5]
    """
    order = sorted(range(len(heights)), key=lambda seat: (heights[seat], seat))
    # each bunch as its members and the sum of their heights: its middle without a recount
    # (a chart spreads every deal's points, and a long game has hundreds of them)
    bunches: list[tuple[list[int], float]] = []
    for seat in order:
        members, total = [seat], heights[seat]
        # the last bunch spread meets the one before it: they are one bunch
        while bunches:
            before, before_total = bunches[-1]
            ends = before_total / len(before) + (len(before) - 1) / 2 * spacing
            starts = total / len(members) - (len(members) - 1) / 2 * spacing
            if starts - ends >= spacing:
                break
            bunches.pop()
            members, total = before + members, before_total + total
        bunches.append((members, total))
    placed = [0.0] * len(heights)
    for members, total in bunches:
        centre, half = total / len(members), (len(members) - 1) / 2
        for rank, member in enumerate(members):
            placed[member] = round(centre + (rank - half) * spacing, 1)
    return placed


def within(heights: Sequence[float], highest: float, lowest: float) -> list[float]:
    """Heights spread apart, moved together as little as keeps them between ``highest`` and
    ``lowest`` (the marks of lines ending at the chart's foot ran off it).

    >>> within([200.0, 211.0, 222.0], 10, 210)
    [188.0, 199.0, 210.0]
    >>> within([50.0, 60.0], 10, 210)
    [50.0, 60.0]
    """
    if not heights:
        return []
    shift = min(0.0, lowest - max(heights)) or max(0.0, highest - min(heights))
    return [round(height + shift, 1) for height in heights]


def _place_label(
    text: str, end_y: float, left: int, width: int, height: int, lines: Sequence[Sequence[tuple[float, float]]]
) -> Label:
    """The end value's label beside its line, where no player's line runs through it."""
    above, below = end_y - 4, end_y + LABEL_SIZE + 3
    candidates = [
        Label(left + 4, above, "start", text),
        Label(width - 4, above, "end", text),
        Label(left + 4, below, "start", text),
        Label(width - 4, below, "end", text),
    ]
    inside = [label for label in candidates if _box(label)[1] >= 0 and _box(label)[3] <= height] or candidates
    # the first place no line crosses (most games: the first), else the one fewest cross
    crossings = []
    for label in inside:
        crossed = sum(_crosses(_box(label), line) for line in lines)
        if not crossed:
            return label
        crossings.append(crossed)
    return inside[crossings.index(min(crossings))]


def _box(label: Label) -> tuple[float, float, float, float]:
    """Left, top, right and bottom of the label's text, with a pixel to spare."""
    wide = len(label.text) * LABEL_CHAR_WIDTH
    start = label.x - wide if label.anchor == "end" else label.x
    return start - 1, label.y - LABEL_SIZE - 1, start + wide + 1, label.y + 3


def _crosses(box: tuple[float, float, float, float], line: Sequence[tuple[float, float]]) -> bool:
    """Whether a line, its width included, runs through the box."""
    margin = LINE_SPACING / 2
    left, top, right, bottom = box[0] - margin, box[1] - margin, box[2] + margin, box[3] + margin
    # a line runs left to right: only the segments from the one that reaches the box's
    # columns on are looked at (a label sits at an edge, and a long game has many segments)
    first = max(bisect_left(line, left, key=lambda point: point[0]) - 1, 0)
    for (x1, y1), (x2, y2) in pairwise(line[first:]):
        if x1 > right:
            break
        # the part of the segment inside the box's columns, then whether it reaches its rows
        if x2 < left:
            continue
        if x2 == x1:
            near, far = y1, y2
        else:
            slope = (y2 - y1) / (x2 - x1)
            near, far = y1 + slope * (max(x1, left) - x1), y1 + slope * (min(x2, right) - x1)
        if min(near, far) <= bottom and max(near, far) >= top:
            return True
    return False


def _nice_step(span: int) -> int:
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000):
        if span / step <= 6:
            return step
    return 10_000
