"""A whole Spy game is played through the pages to its winner; only the answers still
possible are asked, beside the card tapped; and each base shows what the game has made of it.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from companion.kinds.spy.rules import Answer, OutReason
from tests.helpers import snapshot, start_spy
from tests.spy_app_helpers import (
    ANA,
    BEN,
    CY,
    answers_offered,
    base_section,
    page,
    play,
    slots,
    spy_state,
    take_turn,
    text,
)

# --- a whole game -----------------------------------------------------------------------


def test_a_three_player_game_is_played_through_the_pages_to_the_last_player_standing(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, first_player=0)
    html = page(client, game_id)
    assert "Turn 1: Ana's turn" in text(html)
    for seat in (ANA, BEN, CY):
        base = text(base_section(html, seat))
        # three players: the Bomb 2 cards leave, so 7-card bases, 6 cards besides the Spy
        assert "Next target: Safe 1" in base and "2 of 2 bombs unlit" in base
        assert len(slots(html, seat)) == 6
    assert "to play" in text(base_section(html, ANA))

    play(client, game_id, ("1:1", "target"))
    html = page(client, game_id)
    assert "Ana exposed Ben's Safe 1." in text(html)
    assert "Turn 2: Ben's turn" in text(html)
    assert "Next target: Safe 2" in text(base_section(html, BEN))
    assert slots(html, BEN)[0] == ({"slot", "exposed"}, "1 Safe 1")

    # a bomb found for the first time is lit, answered over htmx with the fragment only
    response = take_turn(client, game_id, "2:6", "bomb", htmx=True)
    assert response.status_code == 200
    fragment = response.get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="spy-now"')
    assert "<html" not in fragment
    # with the turn log and the undo button out of band, each whole
    assert re.search(r'<details id="turns"[^>]* hx-swap-oob="true"', fragment)
    assert re.search(r'<section id="spy-actions"[^>]* hx-swap-oob="true"', fragment) and "Undo turn 2" in fragment
    assert "Ben found one of Cy's bombs: tssss! It is lit." in text(fragment)
    assert "Turn 3: Cy's turn" in text(fragment)
    assert "1 of 2 bombs unlit" in text(base_section(fragment, CY))
    assert slots(fragment, CY)[5] == ({"slot", "lit"}, "6 lit bomb")

    play(
        client,
        game_id,
        ("0:2", "safe"),  # 3 Cy
        ("1:2", "target"),  # 4 Ana: Ben's Safe 2
        ("", None),  # 5 Ben does not spy
        ("0:3", "bomb"),  # 6 Cy
        ("1:3", "target"),  # 7 Ana: Ben's Top Secret 1
        ("2:1", "top-secret"),  # 8 Ben
        ("1:5", "bomb"),  # 9 Cy
    )
    html = page(client, game_id)
    assert "Cy found one of Ben's bombs: tssss! It is lit." in text(html)
    assert "Turn 10: Ana's turn" in text(html)
    assert "Next target: Top Secret 2" in text(base_section(html, BEN))

    play(client, game_id, ("1:4", "target"))
    html = page(client, game_id)
    assert "Ana exposed Ben's Top Secret 2: Ben is found out." in text(html)
    ben = base_section(html, BEN)
    # found out with every target exposed; out, the base has no next target any more
    assert "found out" in text(ben) and "Ben is out: their base is no longer spied on." in text(ben)
    assert "target" not in text(ben).lower()
    assert 'class="tap"' not in ben  # a player who is out is no longer spied on
    # Ben is out, so his turn is skipped: Ana, then Cy
    assert "Turn 11: Cy's turn" in text(html)
    assert not spy_state(app, game_id).finished

    play(client, game_id, ("0:1", "top-secret"))
    html = page(client, game_id)
    assert "Turn 12: Ana's turn" in text(html)
    assert slots(html, CY)[5] == ({"slot", "lit"}, "6 lit bomb of Cy's base")

    # Ana looks at the bomb Ben lit: no question asked, she is blown up
    response = take_turn(client, game_id, "2:6")
    assert response.status_code == 303
    html = page(client, game_id)
    words = text(html)
    assert "Ana found Cy's lit bomb and is blown up. Cy wins!" in words
    assert "Game over" in words and "Cy wins: the last player standing." in words
    assert "After 12 turns." in words
    assert "blown up" in text(base_section(html, ANA))
    # blown up with targets left: none is shown as her next
    assert "Next target" not in text(base_section(html, ANA))
    assert "Ana is out: their base is no longer spied on." in text(base_section(html, ANA))
    assert "found out" in text(base_section(html, BEN))
    assert '<span class="badge">won</span>' in base_section(html, CY)
    assert "Record the turn" not in html
    state = spy_state(app, game_id)
    assert state.winner == CY and state.to_play is None
    assert dict(state.out) == {BEN: OutReason.FOUND_OUT, ANA: OutReason.BLOWN_UP}

    before = snapshot(app)
    response = take_turn(client, game_id, "0:1", "safe")
    assert response.status_code == 409
    assert "The game is over" in text(response.get_data(as_text=True))
    assert snapshot(app) == before


# --- only what is possible is asked, by the card tapped ---------------------------------


def test_only_the_answers_still_possible_are_offered_and_others_are_refused(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")))
    # at the start Safe 2 is hidden and is not the target, so "a Safe" is a possible answer
    assert answers_offered(page(client, game_id, look="1:3")) == ["safe", "top-secret", "target", "bomb"]
    play(
        client,
        game_id,
        ("1:1", "target"),  # Ana: Ben's Safe 1
        ("0:1", "bomb"),  # Ben lights Ana's card 1
        ("1:2", "target"),  # Ana: Ben's Safe 2
        ("", None),  # Ben
    )
    html = page(client, game_id, look="1:3")
    assert "Ana looked at Ben's card 3. Ben answered:" in text(html)
    assert answers_offered(html) == ["top-secret", "target", "bomb"]
    assert "A Safe that is not the target" not in html
    assert "The target: it is exposed now (Top Secret 1)" in text(html)

    before = snapshot(app)
    response = take_turn(client, game_id, "1:3", "safe")
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    assert "Both of Ben's Safes are exposed." in text(refused)
    assert 'id="answer-error"' in refused
    assert snapshot(app) == before

    # an exposed card: the only answer is given without asking
    html = page(client, game_id, look="1:1")
    assert answers_offered(html) == ["exposed"]
    assert "An exposed card: nothing new. No question to ask." in text(html)
    response = take_turn(client, game_id, "1:1")
    assert response.status_code == 303
    assert "Ana looked at Ben's exposed card: nothing new." in text(page(client, game_id))
    last = spy_state(app, game_id).turns[-1]
    assert (last.player, last.spy.target, last.spy.card, last.spy.answer) == (ANA, BEN, 1, Answer.EXPOSED)

    # a lit bomb: the spying player is out, without being asked
    html = page(client, game_id, look="0:1")
    assert answers_offered(html) == ["lit-bomb"]
    assert "A lit bomb: the spy is blown up. No question to ask." in text(html)
    response = take_turn(client, game_id, "0:1")
    assert response.status_code == 303
    state = spy_state(app, game_id)
    assert state.turns[-1].spy.answer is Answer.LIT_BOMB
    assert dict(state.out) == {BEN: OutReason.BLOWN_UP}
    assert state.winner == ANA
    assert "Ana wins: the last player standing." in text(page(client, game_id))


def test_the_answers_to_a_tapped_card_are_by_that_card_with_the_button_that_records_them(client: FlaskClient) -> None:
    game_id = start_spy(client, players=(("Ana", "green"), ("Ben", "red"), ("Cy", "blue"), ("Dee", "yellow")))
    html = page(client, game_id, look="1:3")
    ben = base_section(html, BEN)
    assert 'id="spy-answers"' in ben and "Ana looked at Ben's card 3. Ben answered:" in text(ben)
    assert re.search(r'<button type="submit" class="button primary big">Record the turn</button>', ben)
    # nowhere else: not below the last base, and one button records the turn
    assert html.count('id="spy-answers"') == 1
    assert len(re.findall(r">Record the turn", html)) == 1
    for seat in (ANA, CY, 3):
        assert "answered:" not in base_section(html, seat)
    # a look at another base moves them there
    html = page(client, game_id, look="3:2")
    assert 'id="spy-answers"' in base_section(html, 3) and 'id="spy-answers"' not in base_section(html, BEN)


def test_without_javascript_the_answers_button_opens_the_page_at_the_answers(client: FlaskClient) -> None:
    game_id = start_spy(client)
    html = page(client, game_id)
    assert re.search(rf'<noscript><button[^>]*formmethod="get" formaction="/spy/{game_id}#spy-answers"', html)


# --- what the bases show ----------------------------------------------------------------


def test_once_the_game_is_won_the_winners_base_has_no_next_target(client: FlaskClient) -> None:
    game_id = start_spy(client)
    assert "Next target: Safe 1" in text(base_section(page(client, game_id), CY))
    # the card looked at may be the base's own Spy: said as the news of that turn says it
    assert "Ana looked at Cy's Spy: nothing revealed." in text(base_section(page(client, game_id), CY))
    play(client, game_id, ("2:1", "bomb"), ("2:2", "bomb"), ("", None), ("2:1", None), ("2:2", None))
    winner = text(base_section(page(client, game_id), CY))
    assert "Next target" not in winner and "0 of 2 bombs unlit" in winner


def test_an_exposed_top_secret_keeps_its_number_with_its_name_on_the_narrow_card(client: FlaskClient) -> None:
    game_id = start_spy(client, players=(("Ana", "green"), ("Ben", "red")))
    play(client, game_id, ("1:1", "target"), ("", None), ("1:2", "target"), ("", None), ("1:3", "target"))
    html = page(client, game_id)
    # "Top Secret" over "1" was three lines in a card a seventh of a phone wide
    assert "<small>Top Secret\u00a01</small>" in html and "<small>Safe\u00a01</small>" in html
