"""The end of a Black Spy game: the lowest total wins, and no more deals are taken.

The game ends after the deal that reaches the end value, not before; players tied for the
lowest total share the win; a finished game refuses a further deal, and nothing is saved.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import game_state, post_points, snapshot, start_game, text


def test_the_game_ends_after_the_deal_that_reaches_the_end_value_and_the_lowest_wins(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy"))
    for _ in range(3):
        post_points(client, game_id, [40, 20, 0])
    assert not game_state(app, game_id).finished
    post_points(client, game_id, [50, 10, 0])
    state = game_state(app, game_id)
    assert not state.finished and state.totals == (170, 70, 0)
    post_points(client, game_id, [40, 20, 0])
    state = game_state(app, game_id)
    assert state.finished and state.totals == (210, 90, 0)
    html = page(client, game_id)
    assert "Game over" in html
    assert "<strong>Cy</strong> wins with 0 points." in html
    # nothing offers another deal (the page's offline sentences, hidden, hold the words)
    assert "Record deal" not in text(html)
    assert 'name="points-0"' not in html


def test_a_finished_game_refuses_further_deals(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [60, 0, 0, 0], shoot="none")
    before = snapshot(app)
    response = post_points(client, game_id, [20, 15, 25, 0])
    assert response.status_code == 409
    assert "The game is over" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_players_tied_for_the_lowest_total_share_the_win(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [60, 0, 0, 0], shoot="none")
    assert game_state(app, game_id).winners == (1, 2, 3)
    assert "<strong>Ben, Cy, and Dee</strong> share the win with 0 points each." in page(client, game_id)
