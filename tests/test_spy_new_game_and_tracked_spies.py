"""A new Spy game is seated, its bases sized for the table, or refused with nothing saved;
with the Spies tracked, the page says where each Spy looks and checks the cards and moves.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.kinds.spy.rules import Answer, Facing, SpyPlace
from tests.helpers import snapshot, start_spy
from tests.spy_app_helpers import (
    ANA,
    answers_offered,
    base_section,
    page,
    play,
    play_a_tracked_opening,
    slots,
    spy_state,
    take_turn,
    text,
)

# --- a new game -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("form", "field", "message"),
    [
        ({"spy-player-0": "Ana", "spy-colour-0": "green"}, "players", "Spy is for 2 to 4 players; 1 is named."),
        (
            {
                "spy-player-0": "Ana",
                "spy-colour-0": "green",
                "spy-player-1": "Ben",
                "spy-colour-1": "green",
                "spy-player-2": "Cy",
                "spy-colour-2": "blue",
            },
            "colour-1",
            "Two players picked green.",
        ),
        (
            {
                "spy-player-0": "Ana",
                "spy-colour-0": "green",
                "spy-player-1": "Ben",
                "spy-colour-1": "red",
                "spy-player-2": "Cy",
                "spy-colour-2": "blue",
                "spy-player-3": "Dee",
                "spy-colour-3": "blue",
            },
            "colour-3",
            "Two players picked blue.",
        ),
        (
            {"spy-player-0": "Ana", "spy-colour-0": "green", "spy-player-1": "Ben", "spy-colour-1": "blue"},
            "colours",
            "Two players play the green and red sets.",
        ),
        (
            {"spy-player-0": "Ana", "spy-colour-0": "yellow", "spy-player-1": "Ben", "spy-colour-1": "blue"},
            "colours",
            "Two players play the green and red sets.",
        ),
        (
            {"spy-player-0": "Ana", "spy-colour-0": "green", "spy-player-1": "ana", "spy-colour-1": "red"},
            "player-1",
            "Two players are called ana.",
        ),
        (
            {"spy-player-0": "Ana", "spy-colour-0": "green", "spy-player-1": "Ben", "spy-colour-1": "purple"},
            "colour-1",
            "Pick a colour: green, red, blue, or yellow.",
        ),
        (
            {"spy-player-0": "Ana", "spy-colour-0": "green", "spy-player-1": "Ben", "spy-colour-1": "red", "first_player": "2"},
            "first_player",
            "The first player must be one of the named players.",
        ),
        (
            {
                "spy-player-0": "Ana",
                "spy-colour-0": "green",
                "spy-player-1": "Ben",
                "spy-colour-1": "red",
                "track": "1",
                "spy-slot-0": "9",
                "spy-facing-0": "left",
                "spy-slot-1": "1",
                "spy-facing-1": "right",
            },
            "spy-0",
            "A Spy stands before card 1 or after one of cards 1 to 7.",
        ),
    ],
)
def test_a_spy_game_that_cannot_be_seated_is_refused_and_nothing_is_saved(
    client: FlaskClient, app: Flask, form: dict[str, str], field: str, message: str
) -> None:
    before = snapshot(app)
    form.setdefault("first_player", "draw")
    response = client.post("/spy/new", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in text(html)
    assert f'id="{field}-error"' in html
    # the Spy form comes back with what was typed
    assert 'action="/spy/new"' in html and 'value="Ana"' in html
    assert snapshot(app) == before


def test_draw_for_me_picks_one_of_the_players_and_says_who(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, first_player="draw")
    state = spy_state(app, game_id)
    first = state.setup.players[state.to_play]
    html = page(client, game_id)
    assert f"The draw is made: {first} plays first." in text(html)
    assert f"Turn 1: {first}'s turn" in text(html)


def test_two_players_play_eight_card_bases_and_four_players_seven(client: FlaskClient, app: Flask) -> None:
    two = start_spy(client, (("Ana", "red"), ("Ben", "green")))
    html = page(client, two)
    assert len(slots(html, ANA)) == 7 and "3 of 3 bombs unlit" in text(base_section(html, ANA))
    four = start_spy(client, (("Ana", "green"), ("Ben", "red"), ("Cy", "blue"), ("Dee", "yellow")), first_player=3)
    html = page(client, four)
    assert "Turn 1: Dee's turn" in text(html)
    assert all(len(slots(html, seat)) == 6 for seat in range(4))
    assert all("2 of 2 bombs unlit" in text(base_section(html, seat)) for seat in range(4))


# --- the Spies tracked: the mirror ------------------------------------------------------


def test_a_tracked_table_is_told_where_each_spy_looks_and_moves_are_checked(client: FlaskClient, app: Flask) -> None:
    game_id = play_a_tracked_opening(client, app)
    html = page(client, game_id)
    assert "Turn 4: Ana's turn" in text(html)
    assert slots(html, ANA)[1] == ({"slot", "exposed"}, "1 Safe 1")

    # her Spy faces an exposed card: it moves 1 or 2, nothing else
    before = snapshot(app)
    for steps in ("3", "4"):
        response = take_turn(client, game_id, "", None, steps=steps)
        assert response.status_code == 422
        refused = response.get_data(as_text=True)
        assert "Ana's Spy faces an exposed card (Safe 1): it moves 1 or 2 places." in text(refused)
        assert 'id="steps-error"' in refused
    assert snapshot(app) == before

    # moved 2 it stands in slot 3 facing slot 4; opposite is slot 4: Ben's card 4 and Cy's Spy
    html = page(client, game_id, steps="2")
    assert "Ana's Spy looks at: Ben's card 4, Cy's Spy." in text(html)
    assert "Spy →" in slots(html, ANA)[2][1]
    before = snapshot(app)
    response = take_turn(client, game_id, "2:5", "safe", steps="2")
    assert response.status_code == 422
    assert "Ana's Spy looks at Cy's Spy, not card 5." in text(response.get_data(as_text=True))
    assert snapshot(app) == before

    response = take_turn(client, game_id, "2:spy", steps="2")
    assert response.status_code == 303
    assert "Ana looked at Cy's Spy: nothing revealed." in text(page(client, game_id))
    state = spy_state(app, game_id)
    assert state.bases[ANA].spy == SpyPlace(3, Facing.RIGHT)
    assert state.turns[-1].spy.answer is Answer.SPY and state.turns[-1].spy.card is None


def test_with_one_opponent_left_the_tracked_spy_has_one_card_to_look_at(client: FlaskClient, app: Flask) -> None:
    # Ana faces across the end, slot 8; opposite is Ben's slot 1, card 1
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "left"), (3, "right")])
    html = page(client, game_id)
    assert "Ana's Spy looks at: Ben's card 1." in text(html)
    # the one card is there to tap, not picked for her: she may choose not to spy
    assert re.findall(r'name="look" value="([^"]+)"', html) == ["1:1"]
    assert "Record the turn: no spy" in html
    html = client.get(f"/spy/{game_id}", query_string={"look": "1:1"}).get_data(as_text=True)
    assert "Ana looked at Ben's card 1. Ben answered:" in text(html)
    assert answers_offered(html) == ["safe", "top-secret", "target", "bomb"]
    play(client, game_id, ("1:1", "target"))
    # Ben faces slot 4; opposite is Ana's slot 5, card 4
    assert "Ben's Spy looks at: Ana's card 4." in text(page(client, game_id))
    # and Ben may pass without spying
    play(client, game_id, ("", None))
    assert "Turn 3: Ana's turn" in text(page(client, game_id))


def test_a_card_picked_before_the_spy_moved_is_dropped_when_it_no_longer_looks_there(client: FlaskClient) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "left"), (3, "right")])
    # Ana picks card 1 (where her Spy looks now), then moves her Spy 2 places
    html = client.get(f"/spy/{game_id}", query_string={"look": "1:1", "steps": "2"}).get_data(as_text=True)
    assert "Ana looked at Ben's card 1" not in text(html)
    assert 'value="1:1" checked' not in html
    assert "Record the turn: no spy" in html


def test_after_a_turn_sent_by_htmx_the_next_spy_can_tap_the_card_it_looks_at(client: FlaskClient) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "left"), (3, "right")])
    fragment = take_turn(client, game_id, "1:1", "safe", htmx=True).get_data(as_text=True)
    # Ben faces slot 4; opposite is Ana's slot 5, card 4: that card is there to tap
    assert "Ben's Spy looks at: Ana's card 4." in text(fragment)
    assert re.findall(r'name="look" value="([^"]+)"', fragment) == ["0:4"]
    undone = client.post(f"/spy/{game_id}/undo", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.findall(r'name="look" value="([^"]+)"', undone) == ["1:1"]


def test_the_mirror_helper_places_each_named_spy_between_cards_numbered_as_the_bases_are(client: FlaskClient) -> None:
    form = client.get("/new?game=spy").get_data(as_text=True)
    rows = re.findall(r'<div class="spy-start" data-row="(\d)"( hidden)?>', form)
    # the first two players' rows, and the others once a player is named there
    assert rows == [("0", ""), ("1", ""), ("2", " hidden"), ("3", " hidden")]
    slots = re.search(r'<select name="spy-slot-0".*?</select>', form, re.S).group(0)
    assert re.findall(r'<option value="(\d)"[^>]*>([^<]+)</option>', slots)[:3] == [
        ("1", "before card 1"),
        ("2", "after card 1"),
        ("3", "after card 2"),
    ]
    refused = client.post(
        "/spy/new",
        data={
            "spy-player-0": "Ana",
            "spy-colour-0": "green",
            "spy-player-1": "Ben",
            "spy-colour-1": "red",
            "first_player": "0",
            "track": "1",
            "spy-slot-0": "9",
            "spy-facing-0": "left",
            "spy-slot-1": "4",
            "spy-facing-1": "right",
        },
    ).get_data(as_text=True)
    ana = refused.split('<div class="spy-start" data-row="0">', 1)[1].split("</div>", 1)[0]
    # the Spy is named for its player, and a place refused is said beside its box
    assert ">Ana's Spy<" in ana and 'id="spy-0-error"' in ana and 'aria-invalid="true"' in ana
    ben = refused.split('<div class="spy-start" data-row="1">', 1)[1].split("</div>", 1)[0]
    assert '<option value="4" selected>after card 3</option>' in ben
