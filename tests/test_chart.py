"""The score chart: every player stays visible, and the end value's label clears every line."""

from __future__ import annotations

import re
from html import unescape
from itertools import pairwise

import pytest
from flask.testing import FlaskClient

from tests.helpers import post_points, start_game

# the chart's stroke width for a player's line (static/css/app.css) and its label font size
LINE_WIDTH = 2.5
LABEL_SIZE = 10


def chart_of(client: FlaskClient, game_id: str) -> str:
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    match = re.search(r'<svg class="chart"[^>]*>.*?</svg>', page, re.S)
    assert match, "no chart"
    return match.group(0)


def lines_of(chart: str) -> dict[int, list[tuple[float, float]]]:
    """Each seat's line, as the points it is drawn through on the chart: its deals by number,
    scaled and moved by the lines' group (``matrix(width of a deal 0 0 1 left 0)``)."""
    scale, left = map(float, re.search(r'<g class="lines" transform="matrix\(([\d.]+) 0 0 1 ([\d.]+) 0\)">', chart).groups())
    return {
        int(seat): [
            (left + scale * float(number), float(height)) for number, height in (point.split(",") for point in points.split())
        ]
        for seat, points in re.findall(r'<polyline class="line seat-(\d)" points="([^"]*)"', chart)
    }


def play(client: FlaskClient, names: tuple[str, ...], deals: list[list[int]], **rules: str) -> str:
    game_id = start_game(client, names=names, **rules)
    for points in deals:
        assert post_points(client, game_id, points, shoot="none").status_code == 303
    return game_id


TIED = {
    # Ana and Ben level after every deal, and so are Cy and Dee
    "two pairs": (("Ana", "Ben", "Cy", "Dee"), [[15, 15, 15, 15], [20, 20, 10, 10], [40, 40, -10, -10], [30, 30, 0, 0]], {}),
    # everyone level all game long
    "all three": (("Ana", "Ben", "Cy"), [[20, 20, 20], [25, 25, 10], [15, 15, 30]], {}),
    # a tie on the end value itself, at the chart's top edge
    "on the end": (("Ana", "Ben", "Cy", "Dee"), [[15, 15, 15, 15], [20, 20, 10, 10], [25, 25, 5, 5]], {"end_value": "60"}),
}


@pytest.mark.parametrize("case", list(TIED))
def test_players_with_equal_totals_each_keep_a_line_of_their_own(client: FlaskClient, case: str) -> None:
    names, deals, rules = TIED[case]
    lines = lines_of(chart_of(client, play(client, names, deals, **rules)))
    assert sorted(lines) == list(range(len(names)))
    # every line starts at one point, 0 before the first deal
    assert len({line[0] for line in lines.values()}) == 1
    for point in range(1, len(deals) + 1):
        heights = sorted(line[point][1] for line in lines.values())
        # side by side after each deal, so that no line covers another
        assert all(b - a >= LINE_WIDTH for a, b in pairwise(heights)), (point, heights)


def test_a_line_moves_aside_only_where_it_meets_another(client: FlaskClient) -> None:
    # Ana and Ben level after deal 1 only; Cy and Dee never level with anyone
    chart = chart_of(client, play(client, ("Ana", "Ben", "Cy", "Dee"), [[20, 20, 5, 15], [30, 0, 20, 10]]))
    lines = lines_of(chart)
    ana, ben = lines[0][1][1], lines[1][1][1]
    assert abs(ana - ben) >= LINE_WIDTH and abs(ana - ben) <= 3 * LINE_WIDTH
    # after deal 2 (50, 20, 25, 25 against 25, 25 for Cy and Dee: they meet, Ana and Ben do not)
    cy, dee = lines[2][2][1], lines[3][2][1]
    assert abs(cy - dee) >= LINE_WIDTH
    ticks = {
        int(value): float(y)
        for y, value in re.findall(r'<text class="tick" x="[^"]*" y="([^"]*)" text-anchor="end">(\d+)</text>', chart)
    }
    per_point = (ticks[0] - ticks[max(ticks)]) / max(ticks)
    assert lines[0][2][1] == pytest.approx(ticks[0] - 4 - 50 * per_point, abs=0.3)


def test_every_line_ends_in_a_dot_of_its_colour(client: FlaskClient) -> None:
    names, deals, rules = TIED["two pairs"]
    chart = chart_of(client, play(client, names, deals, **rules))
    lines = lines_of(chart)
    dots = {
        int(seat): (float(x), float(y))
        for seat, x, y in re.findall(r'<circle class="end-dot seat-(\d)" cx="([^"]*)" cy="([^"]*)"', chart)
    }
    assert dots.keys() == lines.keys()
    for seat, line in lines.items():
        assert dots[seat] == pytest.approx(line[-1], abs=0.1)


def label_box(chart: str) -> tuple[float, float, float, float]:
    """Where the end value's label is drawn: left, top, right, bottom, one pixel to spare."""
    x, y, anchor, words = re.search(
        r'<text class="end-label" x="([^"]*)" y="([^"]*)" text-anchor="(\w+)">([^<]*)</text>', chart
    ).groups()
    x, y = float(x), float(y)
    # a generous width for the font: wider than any of its digits or letters
    width = len(words) * LABEL_SIZE * 0.62
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return left - 1, y - LABEL_SIZE - 1, left + width + 1, y + 3


def crosses(box: tuple[float, float, float, float], line: list[tuple[float, float]]) -> bool:
    left, top, right, bottom = box
    for (x1, y1), (x2, y2) in pairwise(line):
        for step in range(101):
            x, y = x1 + (x2 - x1) * step / 100, y1 + (y2 - y1) * step / 100
            # the line's own width counts
            if left - LINE_WIDTH / 2 <= x <= right + LINE_WIDTH / 2 and top - LINE_WIDTH / 2 <= y <= bottom + LINE_WIDTH / 2:
                return True
    return False


ENDINGS = {
    **TIED,
    # a line that ends on the end value, at the right
    "one reaches the end": (("Ana", "Ben", "Cy", "Dee"), [[30, 10, 10, 10], [30, 10, 10, 10]], {"end_value": "60"}),
    # a line that starts by climbing to just under the end value, at the left
    "one starts high": (("Ana", "Ben", "Cy", "Dee"), [[55, 0, 0, 5], [0, 30, 30, 0]], {"end_value": "60"}),
    # a line past the end value
    "one passes the end": (("Ana", "Ben", "Cy", "Dee"), [[20, 20, 10, 10], [60, 0, 0, 0]], {"end_value": "50"}),
    "a long game": (("Ana", "Ben", "Cy"), [[20, 20, 20]] * 9, {}),
}


@pytest.mark.parametrize("case", list(ENDINGS))
def test_the_end_value_label_clears_every_line(client: FlaskClient, case: str) -> None:
    names, deals, rules = ENDINGS[case]
    chart = chart_of(client, play(client, names, deals, **rules))
    box = label_box(chart)
    width, height = map(float, re.search(r'viewBox="0 0 (\d+) (\d+)"', chart).groups())
    assert box[0] >= 0 and box[2] <= width and box[1] >= 0 and box[3] <= height, box
    for seat, line in lines_of(chart).items():
        assert not crosses(box, line), (seat, box)


def test_each_players_mark_is_written_clear_of_the_others_and_of_every_line(client: FlaskClient) -> None:
    # two close pairs at the end (Bob 110 and Dan 105, Cat 75 and Ann 70): spread, each pair
    # reached the other, and "C" was written under "D"
    deals = [[20, 15, -5, 30], [10, 25, 20, 5], [-10, 30, 15, 25], [35, 5, 10, 10], [0, 20, 20, 20], [15, 15, 15, 15]]
    chart = chart_of(client, play(client, ("Ann", "Bob", "Cat", "Dan"), deals, end_value="400"))
    marks = [
        (float(x), float(y), mark)
        for x, y, mark in re.findall(
            r'<text class="end-mark seat-\d" x="([^"]*)" y="([^"]*)" text-anchor="start">(\w+)</text>', chart
        )
    ]
    assert sorted(mark for _, _, mark in marks) == ["A", "B", "C", "D"]
    heights = sorted(y for _, y, _ in marks)
    assert all(b - a >= LABEL_SIZE for a, b in pairwise(heights)), heights
    # beside the lines' ends, where no line runs
    assert min(x for x, _, _ in marks) > max(line[-1][0] for line in lines_of(chart.replace("\n", "")).values())


def answer_chart(client: FlaskClient, game_id: str, points: list[int]) -> str:
    """The chart a new deal's answer brings to a page that showed the game just before it."""
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    html = post_points(client, game_id, points, htmx=True, version=version, shoot="none").get_data(as_text=True)
    # sent as text, parsed by the phone once it draws it
    return unescape(re.search(r'<template id="chart-next"[^>]*>(.*?)</template>', html, re.S).group(1))


def test_the_chart_an_answer_brings_is_text_the_phone_parses_back_to_the_chart_names_escaped(client: FlaskClient) -> None:
    names = ("Ana & Bo", "<b>Ben</b>", 'Cy "C"', "Dee")
    game_id = play(client, names, [[20, 15, 25, 0], [10, 10, 20, 20]], end_value="150")
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    html = post_points(client, game_id, [30, 0, 20, 10], htmx=True, version=version, shoot="none").get_data(as_text=True)
    text = re.search(r'<template id="chart-next"[^>]*>(.*?)</template>', html, re.S).group(1)
    # no tag until the phone parses it: nothing of it is swapped in as elements with the answer
    assert "<" not in text and "&lt;svg" in text
    # escaped only where a tag or a character reference could start: its quotes as they are
    assert '&lt;svg class="chart"' in text
    # parsed, it is the chart's markup, every name in it escaped as a page writes it
    chart = unescape(text)
    assert chart.lstrip().startswith("<svg") and "<polyline" in chart
    assert "Ana &amp; Bo 60" in chart and "&lt;b&gt;Ben&lt;/b&gt; 25" in chart and "Cy &#34;C&#34; 65" in chart
    assert "<b>" not in chart


def test_a_new_deals_answer_brings_each_lines_new_point_and_the_page_keeps_the_rest(client: FlaskClient) -> None:
    game_id = play(client, ("Ana", "Ben", "Cy", "Dee"), [[20, 15, 25, 0], [10, 10, 20, 20]], end_value="150")
    before = lines_of(chart_of(client, game_id))
    chart = answer_chart(client, game_id, [30, 0, 20, 10])
    # one point a line, after the 3 each line shows: the earlier points do not move
    appended = re.findall(r'<polyline class="line seat-(\d)" points="([^"]*)" data-append="3"/>', chart)
    assert [seat for seat, _ in appended] == ["0", "1", "2", "3"] and all(len(points.split()) == 1 for _, points in appended)
    whole = chart_of(client, game_id)
    for seat, points in appended:
        assert re.search(rf'<polyline class="line seat-{seat}" points="[^"]* {re.escape(points)}"/>', whole)
    after = lines_of(whole)
    for seat, line in before.items():
        # the same heights, each point further left as the chart takes a deal more in its width
        assert [height for _, height in after[seat][:3]] == [height for _, height in line]


def test_a_deal_that_stretches_the_chart_brings_every_point_again(client: FlaskClient) -> None:
    # a total past the end value: the chart's height spans more, and every point moves
    game_id = play(client, ("Ana", "Ben", "Cy", "Dee"), [[20, 15, 25, 0], [10, 10, 20, 20]], end_value="60")
    chart = answer_chart(client, game_id, [40, 0, 10, 10])
    assert "data-append" not in chart
    assert all(len(points.split()) == 4 for points in re.findall(r'<polyline [^>]*points="([^"]*)"', chart))


def test_each_mark_is_joined_to_its_own_dot_and_stays_on_the_chart(client: FlaskClient) -> None:
    # six players close together after one deal, at the chart's foot: their marks are moved
    # apart, and were read beside another player's dot (and ran off the chart's bottom)
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    chart = chart_of(client, play(client, names, [[10, 10, 10, 10, 10, 10]], end_value="250"))
    dots = {
        int(seat): (float(x), float(y))
        for seat, x, y in re.findall(r'<circle class="end-dot seat-(\d)" cx="([^"]*)" cy="([^"]*)"', chart)
    }
    marks = {
        int(seat): (float(x), float(y))
        for seat, x, y in re.findall(r'<text class="end-mark seat-(\d)" x="([^"]*)" y="([^"]*)" text-anchor="start">', chart)
    }
    leads = {
        int(seat): tuple(map(float, ends))
        for seat, *ends in re.findall(
            r'<line class="mark-lead seat-(\d)" x1="([^"]*)" y1="([^"]*)" x2="([^"]*)" y2="([^"]*)"/>', chart
        )
    }
    assert dots.keys() == marks.keys() == leads.keys() == set(range(6))
    height = float(re.search(r'viewBox="0 0 \d+ (\d+)"', chart).group(1))
    for seat in range(6):
        x1, y1, x2, y2 = leads[seat]
        # from the dot's edge to the mark's middle, a third of the text's height above its baseline
        assert (x1, y1) == pytest.approx((dots[seat][0] + 3, dots[seat][1]))
        assert x2 < marks[seat][0] and y2 == pytest.approx(marks[seat][1] - LABEL_SIZE / 3, abs=0.1)
        assert LABEL_SIZE <= marks[seat][1] <= height
    # the marks keep the dots' order, top to bottom
    assert sorted(range(6), key=lambda seat: marks[seat][1]) == sorted(range(6), key=lambda seat: dots[seat][1])


def test_the_last_deal_is_always_numbered_under_the_chart(client: FlaskClient) -> None:
    chart = chart_of(client, play(client, ("Ana", "Ben", "Cy"), [[20, 20, 20]] * 13, end_value="1000"))
    numbers = [
        int(number) for number in re.findall(r'<text class="tick" x="[^"]*" y="[^"]*" text-anchor="middle">(\d+)</text>', chart)
    ]
    assert numbers[0] == 0 and numbers[-1] == 13 and numbers == sorted(set(numbers))
