"""The score chart on a Black Spy game page: a line per player, the end line, a mark per shoot.

The expected totals are worked out by hand, in a comment, from the deals the test posts.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.helpers import post_points, start_game
from tests.history_helpers import get_html


def test_the_score_chart_has_a_line_per_player_the_end_line_and_a_mark_per_shoot(client: FlaskClient) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy", "Dee"))
    assert '<svg class="chart"' not in get_html(client, f"/black-spy/{game_id}")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [65, -5, 0, 0], shoot="0")
    post_points(client, game_id, [0, 0, 80, -20], shoot="2")
    page = get_html(client, f"/black-spy/{game_id}")
    chart = re.search(r'<svg class="chart"[^>]*>(.*?)</svg>', page, re.S)
    assert chart, "no chart"
    lines = re.findall(r'<polyline [^>]*points="([^"]*)"', chart.group(1))
    assert len(lines) == 4
    # each line starts at 0 and has a point after each of the 3 deals
    assert all(len(points.split()) == 4 for points in lines)
    # deal 3, Cy shot: totals 20, 75, 85, 60 then 80, 135, 85, 120: four different lines
    assert len(set(lines)) == 4
    end = re.findall(r'<line class="end-line"[^>]*>', chart.group(1))
    assert len(end) == 1
    assert "end 150" in chart.group(1)
    assert len(re.findall(r'<circle class="shoot"', chart.group(1))) == 2
    css = client.get(re.search(r'href="(/static/css/app\.css[^"]*)"', page).group(1)).get_data(as_text=True)
    assert re.search(r"\.end-line\s*\{[^}]*stroke-dasharray", css), "the end line is not dashed"
