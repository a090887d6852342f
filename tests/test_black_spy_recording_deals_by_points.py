"""Recording a Black Spy deal by points.

The points add to the totals and move the deal on, with a minus sign however it is typed; a
deal that cannot be right is refused by its box, in words, and nothing is saved; a score that
could be a shoot asks the table first (never under the classic rules, which offer no minus key
either); and the points form shows each player's total so far.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import game_state, post_points, snapshot, start_game


def test_a_deal_by_points_adds_to_the_totals_and_moves_the_deal_on(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, first_dealer=0)
    response = post_points(client, game_id, [20, 15, 25, 0])
    assert response.status_code == 303
    state = game_state(app, game_id)
    assert state.totals == (20, 15, 25, 0)
    html = page(client, game_id)
    assert "Deal 1 recorded." in html
    assert 'Deal 2: <span class="who">Ben</span> deals' in html
    assert "Pass 3 cards right" in html and "Ben&nbsp;→&nbsp;Ana" in html


def test_negative_points_are_normal_and_a_typographic_minus_counts(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    assert post_points(client, game_id, [35, "\u22125", 30, 0]).status_code == 303
    assert game_state(app, game_id).totals == (35, -5, 30, 0)


@pytest.mark.parametrize(
    ("points", "field", "message"),
    [
        ([20, 15, 25, 1], "total", "The points add up to 61, not 60"),
        ([20, 15, 25, ""], "points-3", "Enter Dee&#39;s points"),
        ([20, "fifteen", 25, 0], "points-1", "is not a whole number"),
        ([81, -21, 0, 0], "points-0", "is not possible"),
        ([20, 15, 25, 0.5], "points-3", "is not a whole number"),
    ],
)
def test_a_deal_that_cannot_be_right_is_refused_by_its_field_and_nothing_is_saved(
    client: FlaskClient, app: Flask, points: list, field: str, message: str
) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    response = post_points(client, game_id, points)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in html
    assert f'id="{field}-error"' in html
    assert snapshot(app) == before


def test_a_raw_score_of_sixty_or_more_asks_the_table_about_a_shoot_before_saving(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    response = post_points(client, game_id, [65, -5, 0, 0])
    assert response.status_code == 200
    assert "Did Ana take all 16 black cards?" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_high_score_no_shoot_could_leave_is_recorded_without_the_question(client: FlaskClient, app: Flask) -> None:
    """After a shoot the others hold only coloured Spies: with a 0 and a -3 among them, Ana's
    68 cannot be one, and the table is not asked what the rules would refuse anyway."""
    game_id = start_game(client)
    response = post_points(client, game_id, [68, 0, -5, -3])
    assert response.status_code == 303
    assert game_state(app, game_id).totals == (68, 0, -5, -3)


def test_a_confirmed_shoot_scores_zero_for_the_shooter_and_the_deal_total_for_the_rest(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [65, -5, 0, 0], shoot="0")
    state = game_state(app, game_id)
    assert state.totals == (0, 60, 60, 60)
    assert state.deals[0].shooter == 0
    assert "shot" in page(client, game_id)


def test_the_table_is_told_the_shooters_name_not_a_pronoun(client: FlaskClient) -> None:
    game_id = start_game(client)
    answer = post_points(client, game_id, [65, -5, 0, 0], shoot="0", htmx=True).get_data(as_text=True)
    assert "Ana took all 16 black cards: 0 for Ana, 60 for everyone else." in answer


def test_a_high_score_that_was_not_a_shoot_counts_as_typed(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [75, -5, -10, 0], shoot="none")
    assert game_state(app, game_id).totals == (75, -5, -10, 0)


def test_an_impossible_shoot_is_refused_with_the_reason(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    response = post_points(client, game_id, [65, -5, -5, 5], shoot="0")
    assert response.status_code == 422
    assert "everyone else holds only coloured Spies" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_the_classic_rules_never_ask_about_a_shoot(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, preset="classic")
    response = post_points(client, game_id, [80, 0, 0, 0])
    assert response.status_code == 303
    assert game_state(app, game_id).totals == (80, 0, 0, 0)


def test_the_classic_rules_offer_no_minus_key_as_no_classic_score_is_negative(client: FlaskClient) -> None:
    standard = page(client, start_game(client))
    classic = page(client, start_game(client, preset="classic"))
    assert "Switch the sign of Ana's points" in standard
    assert "Switch the sign" not in classic and 'class="sign"' not in classic


def test_a_shoot_typed_as_final_scores_is_told_how_a_shoot_is_entered_and_nothing_is_saved(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    response = post_points(client, game_id, [0, 60, 60, 60])
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "These look like a shoot&#39;s final scores: Ana 0, everyone else 60." in html
    assert "Ana between 60 and 80" in html
    assert snapshot(app) == before


@pytest.mark.parametrize("digits", [26, 40, 400])
def test_deal_points_of_very_many_digits_are_refused_in_words_and_change_nothing(
    client: FlaskClient, app: Flask, digits: int
) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    before = snapshot(app)
    response = post_points(client, game_id, ["1" * digits, 15, 25, 0])
    assert response.status_code == 422
    assert "too long to be a deal&#39;s points" in response.get_data(as_text=True)
    response = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "points-0": "-" + "9" * digits, "points-1": "15", "points-2": "25", "points-3": "0"},
    )
    assert response.status_code == 422
    assert "too long to be a deal&#39;s points" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_the_points_form_shows_each_players_total_beside_their_box(client: FlaskClient) -> None:
    game_id = start_game(client)
    assert "so far" not in page(client, game_id)
    post_points(client, game_id, [20, 15, 25, 0])
    html = page(client, game_id)
    assert re.search(r'<label for="points-0">Ana</label><span class="meta so-far">20 so far</span>', html)
    assert re.search(r'<label for="points-3">Dee</label><span class="meta so-far">0 so far</span>', html)
