"""A Spy turn the rules do not allow, or sent for a stale turn, is refused and nothing is
saved; one sent twice is stored once; an undo takes the last turn back, into the form to mend.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.kinds.spy.rules import Answer, Target
from tests.helpers import snapshot, start_spy
from tests.spy_app_helpers import ANA, BEN, base_section, hidden, page, play, spy_state, take_turn, text

# --- refusals ---------------------------------------------------------------------------


def a_game_with_cy_out(client: FlaskClient) -> str:
    """Three players; Cy was blown up on turn 3, so it is Ana's turn 4."""
    game_id = start_spy(client)
    play(client, game_id, ("1:1", "bomb"), ("0:1", "safe"), ("1:1", None))
    return game_id


@pytest.mark.parametrize(
    ("look", "answer", "field", "message"),
    [
        ("0:2", "safe", "target", "A player cannot spy on their own base."),
        ("2:1", "safe", "target", "Cy is out: their base is no longer spied on."),
        ("1:7", "safe", "card", "Ben's base has cards 1 to 6, not counting the Spy."),
        ("1:0", "safe", "card", "Ben's base has cards 1 to 6, not counting the Spy."),
        ("1:2", "maybe", "answer", "Choose what the spied-on player answered."),
        ("1:2", "", "answer", "Choose what the spied-on player answered."),
        ("1:2", "lit-bomb", "answer", "Ben's card 2 is not a lit bomb"),
        ("1:1", "bomb", "answer", "Ben's card 1 is a lit bomb: the only answer is “lit bomb”."),
        ("7:1", "safe", "target", "Spy on one of the players."),
        ("1:two", "safe", "look", "Tap a card on the base you spy on."),
    ],
)
def test_a_turn_the_rules_do_not_allow_is_refused_by_its_field_and_nothing_is_saved(
    client: FlaskClient, app: Flask, look: str, answer: str, field: str, message: str
) -> None:
    game_id = a_game_with_cy_out(client)
    before = snapshot(app)
    response = take_turn(client, game_id, look, answer)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert message in text(html)
    assert f'id="{field}-error"' in html
    assert "Turn 4: Ana's turn" in text(html)
    assert snapshot(app) == before


@pytest.mark.parametrize("number", ["3", "5", "1"])
def test_a_turn_sent_for_a_stale_turn_number_is_refused_and_nothing_is_saved(
    client: FlaskClient, app: Flask, number: str
) -> None:
    game_id = a_game_with_cy_out(client)
    before = snapshot(app)
    response = take_turn(client, game_id, "1:2", "safe", number=number)
    assert response.status_code == 409
    html = text(response.get_data(as_text=True))
    assert "Turn 3 was just recorded from another phone" in html
    assert "Nothing you entered was saved." in html
    assert snapshot(app) == before


def test_a_card_tapped_on_a_page_another_phone_overtook_is_not_carried_to_the_next_turn(client: FlaskClient, app: Flask) -> None:
    game_id = a_game_with_cy_out(client)
    stale = page(client, game_id)  # a second phone's page: Ana's turn 4
    assert take_turn(client, game_id, "1:2", "safe").status_code == 303  # the first phone records it
    # the second phone taps Ben's card 4, meaning Ana's look: it is Ben's turn now
    response = client.get(
        f"/spy/{game_id}",
        query_string={"number": hidden(stale, "number"), "submission": hidden(stale, "submission"), "look": "0:4"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Turn 4 was just recorded from another phone" in text(html)
    assert "Turn 5: Ben's turn" in text(html)
    # no answer offered for a look nobody made on this turn, no card shown as tapped
    assert 'id="spy-answers"' not in html
    assert 'value="0:4" checked' not in html


def test_a_card_tapped_on_the_current_turn_offers_its_answers(client: FlaskClient) -> None:
    game_id = a_game_with_cy_out(client)
    current = page(client, game_id)
    html = page(client, game_id, number=hidden(current, "number"), look="1:2")
    assert 'id="spy-answers"' in html
    assert "Ana looked at Ben's card 2. Ben answered:" in text(html)


def test_the_same_submission_sent_twice_is_stored_once(client: FlaskClient, app: Flask) -> None:
    game_id = a_game_with_cy_out(client)
    form = {"number": "4", "submission": "one-time-id-1", "look": "1:2", "answer": "safe"}
    assert client.post(f"/spy/{game_id}/turns", data=form).status_code == 303
    after_first = snapshot(app)
    again = client.post(f"/spy/{game_id}/turns", data=form)
    assert again.status_code == 303
    assert "This turn was already recorded; it is counted once." in text(page(client, game_id))
    over_htmx = client.post(f"/spy/{game_id}/turns", data=form, headers={"HX-Request": "true"})
    assert over_htmx.status_code == 200
    assert "This turn was already recorded; it is counted once." in text(over_htmx.get_data(as_text=True))
    assert snapshot(app) == after_first
    assert len(spy_state(app, game_id).turns) == 4


# --- undo -------------------------------------------------------------------------------


def test_undo_removes_the_last_turn_even_the_one_that_ended_the_game(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")))
    play(client, game_id, ("1:3", "bomb"), ("0:1", "safe"), ("1:3", None))
    assert spy_state(app, game_id).winner == BEN
    assert "Undo turn 3" in page(client, game_id)

    response = client.post(f"/spy/{game_id}/undo", data={"number": "3"})
    assert response.status_code == 303
    html = page(client, game_id)
    assert "Turn 3 undone." in text(html)
    assert "Game over" not in html
    assert "Turn 3: Ana's turn" in text(html)
    assert "Record the turn" in html
    state = spy_state(app, game_id)
    assert (len(state.turns), state.winner, dict(state.out), state.to_play) == (2, None, {}, ANA)
    assert state.bases[BEN].lit_bombs == (3,)

    # an undo for a turn that is no longer the last changes nothing
    before = snapshot(app)
    stale = client.post(f"/spy/{game_id}/undo", data={"number": "3"})
    assert stale.status_code == 409
    assert "The last turn is now turn 2; nothing was undone." in text(stale.get_data(as_text=True))
    assert snapshot(app) == before

    # the reopened game goes on
    play(client, game_id, ("1:1", "target"))
    assert spy_state(app, game_id).bases[BEN].target is Target.SAFE_2

    for number in ("3", "2", "1"):
        assert client.post(f"/spy/{game_id}/undo", data={"number": number}).status_code == 303
    assert spy_state(app, game_id).turns == ()
    before = snapshot(app)
    nothing = client.post(f"/spy/{game_id}/undo", data={"number": "1"})
    assert nothing.status_code == 409
    assert "There is no turn to undo." in text(nothing.get_data(as_text=True))
    assert snapshot(app) == before


def test_an_undo_puts_the_undone_turns_look_and_answer_back_in_the_form(client: FlaskClient, app: Flask) -> None:
    # a turn undone at once had a wrong tap in it: the table mends that tap, not the turn
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")))
    play(client, game_id, ("1:3", "bomb"), ("0:1", "top-secret"))
    answer = client.post(f"/spy/{game_id}/undo", data={"number": "2"}, headers={"HX-Request": "true"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200
    assert "Turn 2 undone: what was entered for it is back in the form, to mend and record again." in text(html)
    assert re.search(r'name="look" value="0:1" checked', html) and re.search(r'name="answer" value="top-secret" checked', html)
    # and a way to start the turn again (a "no spy" after all), which the game's own page has not
    assert "Start this turn again" in html and "Start this turn again" not in page(client, game_id)
    assert len(spy_state(app, game_id).turns) == 1
    # another card tapped asks its answer anew: the one chosen went with the card it was chosen for
    retapped = page(client, game_id, look="0:3", answer="top-secret", answer_for="0:1", number="2")
    assert re.search(r'name="look" value="0:3" checked', retapped) and not re.search(
        r'name="answer" value="[^"]+" checked', retapped
    )
    assert re.search(
        r'name="answer" value="top-secret" checked', page(client, game_id, look="0:1", answer="top-secret", answer_for="0:1")
    )
    # a card with one answer says which card its answer goes with too
    assert '<input type="hidden" name="answer_for" value="0:spy">' in page(client, game_id, look="0:spy")
    # the game's page, for any phone, has nothing chosen; mended, the turn is recorded again
    assert " checked" not in base_section(page(client, game_id), ANA)
    play_on = take_turn(client, game_id, "0:1", "safe")
    assert play_on.status_code == 303 and spy_state(app, game_id).turns[1].spy.answer is Answer.SAFE
    # without JavaScript the undo comes as a 303 to the page, nothing chosen in it
    assert client.post(f"/spy/{game_id}/undo", data={"number": "2"}).status_code == 303
    html = page(client, game_id)
    assert "Turn 2 undone." in text(html) and "is back in the form" not in html and " checked" not in base_section(html, ANA)


def test_a_tracked_spys_move_comes_back_with_its_undo(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "right"), (1, "right")])
    assert take_turn(client, game_id, steps="2", turn_after="1").status_code == 303
    html = client.post(f"/spy/{game_id}/undo", data={"number": "1"}, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.search(r'id="steps"[^>]*value="2"', html) and re.search(r'name="turn_after" value="1" checked', html)
    assert not re.search(r'name="turn_before" value="1" checked', html)
