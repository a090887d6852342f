"""Starting a Black Spy game, and the first deal it shows.

The first deal at a glance, and who leads its first trick by the rule set; a house rule's end
value; the draw for the first dealer; a game that cannot be seated is refused with every box at
fault named, and nothing is saved; games are addressed by unguessable ids.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import game_state, snapshot, start_game


def test_a_new_game_shows_the_first_deal_at_a_glance(client: FlaskClient) -> None:
    game_id = start_game(client, first_dealer=1)
    html = page(client, game_id)
    assert 'Deal 1: <span class="who">Ben</span> deals' in html
    assert "15 cards each" in html
    assert "Pass 3 cards left" in html
    assert "Ana&nbsp;→&nbsp;Ben" in html and "Dee&nbsp;→&nbsp;Ana" in html
    assert "whoever holds the Red 1" in html
    assert "No black card may be led to the first trick" in html


def test_the_classic_rules_name_the_player_on_the_dealers_left_as_first_lead(client: FlaskClient) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy"), first_dealer=1, preset="classic")
    html = page(client, game_id)
    assert "Cy (the dealer&#39;s left)" in html
    assert "20 cards each" in html
    assert "game ends at 200" in html


def test_a_house_rule_end_value_replaces_the_presets(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="90")
    assert game_state(app, game_id).end_value == 90
    assert "game ends at 90" in page(client, game_id)


def test_draw_for_me_picks_one_of_the_players_and_says_who(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, first_dealer="draw")
    dealer = game_state(app, game_id).setup.players[game_state(app, game_id).next.dealer]
    assert f"The draw is made: {dealer} deals first." in page(client, game_id)


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"player-0": "Ana", "player-1": "Ben"}, "players", "for 3 to 6 players; 2 are named"),
        ({"player-0": "Ana", "player-1": "Ben", "player-2": "ana"}, "player-2", "Two players are called ana"),
        ({"player-0": "A" * 41, "player-1": "Ben", "player-2": "Cy"}, "player-0", "at most 40 characters"),
        ({"player-0": "Ana", "player-1": "Ben", "player-2": "Cy", "end_value": "lots"}, "end_value", "whole number"),
        ({"player-0": "Ana", "player-1": "Ben", "player-2": "Cy", "preset": "poker"}, "preset", "Unknown rule set"),
        (
            {"player-0": "Ana", "player-1": "Ben", "player-2": "Cy", "first_dealer": "4"},
            "first_dealer",
            "one of the named players",
        ),
    ],
)
def test_a_game_that_cannot_be_seated_is_refused_and_nothing_is_saved(
    client: FlaskClient, app: Flask, form: dict[str, str], field: str, message: str
) -> None:
    before = snapshot(app)
    form.setdefault("first_dealer", "draw")
    response = client.post("/black-spy/new", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in html
    assert f'id="{field}-error"' in html
    assert snapshot(app) == before


def test_a_new_game_names_every_box_at_fault_at_once(client: FlaskClient, app: Flask) -> None:
    before = snapshot(app)
    form = {"player-0": "Ana", "player-1": "ana", "player-2": "Cy", "first_dealer": "draw", "end_value": "ninety"}
    html = client.post("/black-spy/new", data=form).get_data(as_text=True)
    assert 'id="end_value-error"' in html and "The end value must be a whole number." in html
    assert "Two players are called" in html
    assert snapshot(app) == before


def test_too_few_players_are_named_with_every_other_fault_and_the_first_empty_seat_is_marked(
    client: FlaskClient, app: Flask
) -> None:
    before = snapshot(app)
    form = {"player-0": "Ana", "player-1": "ana", "first_dealer": "draw", "end_value": "-5"}
    response = client.post("/black-spy/new", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    # mending the twin name alone would be refused again: the count is said now
    for words in ("Two players are called ana.", "Black Spy is for 3 to 6 players; 2 are named.", "The end value must be"):
        assert words in html, words
    seat = re.search(r'<input id="player-2"[^>]*>', html)
    assert seat and 'aria-invalid="true"' in seat.group(0) and 'aria-describedby="players-error"' in seat.group(0)
    assert 'aria-invalid="true"' not in re.search(r'<input id="player-3"[^>]*>', html).group(0)
    assert snapshot(app) == before


def test_games_are_addressed_by_unguessable_ids(client: FlaskClient) -> None:
    ids = {start_game(client) for _ in range(3)}
    assert len(ids) == 3
    assert all(re.fullmatch(r"[A-Za-z0-9]{10}", game_id) for game_id in ids)
    assert client.get("/black-spy/1").status_code == 404


def test_the_coming_deal_says_who_leads_the_first_trick_by_the_rule_set(client: FlaskClient) -> None:
    standard = start_game(client)
    assert "First trick: <strong>whoever holds the Red 1</strong> leads." in client.get(f"/black-spy/{standard}").get_data(
        as_text=True
    )
    # classic: the dealer's left leads; a name goes into the translated sentence escaped
    classic = start_game(client, ("Ana", "Ben", "O'Neil", "Dee"), first_dealer=1, preset="classic")
    page = client.get(f"/black-spy/{classic}").get_data(as_text=True)
    assert "First trick: <strong>O&#39;Neil (the dealer&#39;s left)</strong> leads." in page
