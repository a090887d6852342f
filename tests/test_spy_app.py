"""The Spy pages, driven through the app as a phone's browser would."""

from __future__ import annotations

import html as htmllib
import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.kinds.spy.rules import Answer, Facing, OutReason, SpyPlace, SpyState, Target
from companion.store.base import db
from tests.databases import Databases
from tests.helpers import exported, make_app, post_points, snapshot, start_game, start_spy

ANA, BEN, CY = 0, 1, 2


# --- helpers ----------------------------------------------------------------------------


def page(client: FlaskClient, game_id: str, **query: str) -> str:
    response = client.get(f"/spy/{game_id}", query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def text(html: str) -> str:
    """What the page says, tags dropped, entities read, spaces collapsed."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", html)).split())


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)
    assert match, f"no hidden {name} in the page"
    return match.group(1)


def take_turn(
    client: FlaskClient,
    game_id: str,
    look: str = "",
    answer: str | None = None,
    htmx: bool = False,
    **extra: str,
):
    """Send the turn form as the game page holds it: its turn number and one-time id."""
    html = page(client, game_id)
    form = {"number": hidden(html, "number"), "submission": hidden(html, "submission"), "look": look}
    if answer is not None:
        form["answer"] = answer
    form.update(extra)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/spy/{game_id}/turns", data=form, headers=headers)


def play(client: FlaskClient, game_id: str, *turns: tuple[str, str | None]) -> None:
    """Record ``turns`` (look, answer) in order; each must be accepted."""
    for number, (look, answer) in enumerate(turns, start=1):
        response = take_turn(client, game_id, look, answer)
        assert response.status_code == 303, (number, text(response.get_data(as_text=True)))


def spy_state(app: Flask, game_id: str) -> SpyState:
    from companion.store.games import Game

    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.id == game_id))
        return game.state()


def base_section(html: str, seat: int) -> str:
    match = re.search(rf'<section [^>]*aria-labelledby="base-{seat}">(.*?)</section>', html, re.S)
    assert match, f"no base {seat} on the page"
    return match.group(1)


def slots(html: str, seat: int) -> list[tuple[set[str], str]]:
    """Each place shown in a base: its classes and its words."""
    found = re.findall(r'<li class="([^"]*)">(.*?)</li>', base_section(html, seat), re.S)
    return [
        (set(classes.split()), " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", inner)).split())) for classes, inner in found
    ]


def answers_offered(html: str) -> list[str]:
    return re.findall(r'<input type="(?:radio|hidden)" name="answer" value="([^"]*)"', html)


def upload(client: FlaskClient, data: dict):
    file = {"file": (io.BytesIO(json.dumps(data).encode()), "games.json")}
    return client.post("/import", data=file, content_type="multipart/form-data")


# --- a whole game ------------------------------------------------------------------------


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


# --- only what is possible is asked ------------------------------------------------------


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


# --- refusals ----------------------------------------------------------------------------


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


# --- undo --------------------------------------------------------------------------------


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


# --- a new game --------------------------------------------------------------------------


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


# --- the Spies tracked: the mirror ----------------------------------------------------------


def play_a_tracked_opening(client: FlaskClient, app: Flask) -> str:
    """Three tracked Spies; after three turns Ana's Spy faces her own exposed Safe 1.

    Bases hold 7 slots. Ana's Spy stands in slot 1 facing right, Ben's in slot 7 facing
    left, Cy's in slot 4 facing right.
    """
    game_id = start_spy(client, spies=[(1, "right"), (7, "left"), (4, "right")])
    html = page(client, game_id)
    # Ana faces her slot 2; opposite is slot 6 of each base: Ben's card 6, Cy's card 5
    assert "Ana's Spy looks at: Ben's card 6, Cy's card 5." in text(html)
    assert re.findall(r'name="look" value="([^"]*)"', base_section(html, BEN)) == ["1:6"]
    assert re.findall(r'name="look" value="([^"]*)"', base_section(html, CY)) == ["2:5"]
    assert "Spy →" in text(base_section(html, ANA)) and "Spy ←" in text(base_section(html, BEN))

    before = snapshot(app)
    response = take_turn(client, game_id, "1:4", "safe")
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    assert "Ana's Spy looks at Ben's card 6, not card 4." in text(refused)
    assert 'id="card-error"' in refused
    assert snapshot(app) == before

    play(client, game_id, ("1:6", "safe"))
    # Ben faces his slot 6; opposite is slot 2: Ana's card 1, Cy's card 2
    assert "Ben's Spy looks at: Ana's card 1, Cy's card 2." in text(page(client, game_id))
    play(client, game_id, ("0:1", "target"), ("", None))
    return game_id


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


# --- export and import -------------------------------------------------------------------


def play_a_mixed_history(client: FlaskClient, app: Flask) -> dict[str, str]:
    """A Black Spy game, a finished two-player Spy game and a tracked three-player one."""
    black_spy = start_game(client, names=("Eve", "Fay", "Gus"))
    assert post_points(client, black_spy, [20, 15, 25]).status_code == 303
    finished = start_spy(client, (("Ana", "green"), ("Ben", "red")), first_player=1)
    play(client, finished, ("0:3", "bomb"), ("", None), ("0:1", "target"), ("1:2", "safe"), ("0:3", None))
    tracked = play_a_tracked_opening(client, app)
    assert take_turn(client, tracked, "2:spy", steps="2").status_code == 303
    return {"black-spy": black_spy, "finished": finished, "tracked": tracked}


def test_a_spy_game_exports_its_inputs_and_what_they_derive(client: FlaskClient, app: Flask) -> None:
    games = play_a_mixed_history(client, app)
    response = client.get(f"/spy/{games['finished']}/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    data = json.loads(response.get_data(as_text=True))
    assert data["format"] == "companion/1"
    (game,) = data["games"]
    assert game["id"] == games["finished"] and game["kind"] == "spy"
    assert game["players"] == ["Ana", "Ben"]
    assert game["colours"] == {"Ana": "green", "Ben": "red"}
    assert game["first_player"] == "Ben"
    assert "spies" not in game
    assert game["turns"] == [
        {"player": "Ben", "spy": {"target": "Ana", "slot": 3, "answer": "bomb"}},
        {"player": "Ana", "spy": None},
        {"player": "Ben", "spy": {"target": "Ana", "slot": 1, "answer": "target"}},
        {"player": "Ana", "spy": {"target": "Ben", "slot": 2, "answer": "safe"}},
        {"player": "Ben", "spy": {"target": "Ana", "slot": 3, "answer": "lit-bomb"}},
    ]
    assert game["derived"] == {
        "turn": None,
        "out": {"Ben": "blown-up"},
        "winner": "Ana",
        "bases": {
            "Ana": {"size": 8, "target": "safe-2", "exposed": {"1": "safe-1"}, "lit_bombs": [3], "unlit_bombs": 2},
            "Ben": {"size": 8, "target": "safe-1", "exposed": {}, "lit_bombs": [], "unlit_bombs": 3},
        },
    }

    (tracked,) = json.loads(client.get(f"/spy/{games['tracked']}/export.json").get_data(as_text=True))["games"]
    assert tracked["spies"] == {
        "Ana": {"slot": 1, "facing": "right"},
        "Ben": {"slot": 7, "facing": "left"},
        "Cy": {"slot": 4, "facing": "right"},
    }
    assert tracked["turns"][-1] == {
        "player": "Ana",
        "move": {"steps": 2, "turn_before": False, "turn_after": False, "other_end": False},
        "spy": {"target": "Cy", "slot": None, "answer": "spy"},
    }
    derived = tracked["derived"]
    assert derived["turn"] == "Ben" and derived["winner"] is None and derived["out"] == {}
    assert derived["bases"]["Ana"] == {
        "size": 7,
        "target": "safe-2",
        "exposed": {"1": "safe-1"},
        "lit_bombs": [],
        "unlit_bombs": 2,
        "spy": {"slot": 3, "facing": "right"},
    }


def test_spy_and_black_spy_games_export_then_import_then_export_the_same(
    client: FlaskClient, app: Flask, databases: Databases
) -> None:
    games = play_a_mixed_history(client, app)
    first = exported(client)
    assert [game["id"] for game in first["games"]] == [games["black-spy"], games["finished"], games["tracked"]]
    assert [game["kind"] for game in first["games"]] == ["black-spy", "spy", "spy"]
    other_app = make_app(databases.fresh())
    other = other_app.test_client()
    response = upload(other, first)
    assert response.status_code == 303
    second = exported(other)
    assert second["games"] == first["games"]
    # the imported games are played on where they stood
    tracked = games["tracked"]
    html = page(other, tracked)
    assert "Turn 5: Ben's turn" in text(html)
    # Ana's Spy now stands in slot 3, so the slot 2 opposite Ben's sight is her card 2
    assert "Ben's Spy looks at: Ana's card 2, Cy's card 2." in text(html)
    assert take_turn(other, tracked, "0:2", "top-secret").status_code == 303
    assert "Ben spied on Ana: a Top Secret." in text(page(other, tracked))


def test_a_file_with_an_impossible_turn_is_refused_whole_naming_the_game_and_turn(client: FlaskClient, app: Flask) -> None:
    play_a_mixed_history(client, app)
    data = exported(client)
    for game in data["games"]:
        game["id"] = game["id"][::-1]  # new ids, so only the bad turn is wrong
    # turn 2 was Ana's pass; say she looked at a lit bomb that nobody has lit
    data["games"][1]["turns"][1]["spy"] = {"target": "Ben", "slot": 2, "answer": "lit-bomb"}
    before = snapshot(app)
    response = upload(client, data)
    assert response.status_code == 422
    words = text(response.get_data(as_text=True))
    assert "Nothing was imported" in words
    assert f"Game 2 ({data['games'][1]['id']}): Turn 2: Ben's card 2 is not a lit bomb" in words
    assert snapshot(app) == before

    # a turn out of turn order is named the same way
    data["games"][1]["turns"][1] = {"player": "Ben", "spy": None}
    response = upload(client, data)
    assert response.status_code == 422
    assert f"Game 2 ({data['games'][1]['id']}): Turn 2: It is Ana's turn." in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_a_spy_game_with_bad_colours_or_a_tracked_move_in_an_untracked_game_is_refused(client: FlaskClient, app: Flask) -> None:
    base = {"kind": "spy", "players": ["Ana", "Ben"], "colours": {"Ana": "green", "Ben": "red"}, "first_player": "Ana"}
    before = snapshot(app)
    for game, message in [
        ({**base, "colours": {"Ana": "green", "Ben": "blue"}}, "Game 1: Two players play the green and red sets."),
        ({**base, "colours": {"Ana": "green"}}, "Game 1: colours must give a colour to each of the players"),
        ({**base, "first_player": "Cy"}, "Game 1: the first player 'Cy' is not one of the players"),
        (
            {**base, "turns": [{"player": "Ana", "move": {"steps": 2}, "spy": None}]},
            "Game 1: Turn 1: This table does not track the Spies: leave the move out.",
        ),
        (
            {**base, "turns": [{"player": "Ana", "spy": {"target": "Ben", "slot": 1, "answer": "maybe"}}]},
            "Game 1: turn 1: unknown answer 'maybe'",
        ),
    ]:
        response = upload(client, {"format": "companion/1", "games": [game]})
        assert response.status_code == 422
        assert message in text(response.get_data(as_text=True))
    assert snapshot(app) == before


# --- the list of games -------------------------------------------------------------------


def test_the_home_page_lists_spy_games_with_whose_turn_it_is_and_the_winner(client: FlaskClient, app: Flask) -> None:
    going = start_spy(client, first_player=0)
    play(client, going, ("1:1", "safe"))
    done = start_spy(client, (("Dee", "green"), ("Eve", "red")))
    play(client, done, ("1:3", "bomb"), ("0:1", "safe"), ("1:3", None))
    html = client.get("/").get_data(as_text=True)
    in_progress, finished = html.split('id="finished"')
    in_progress_words = text(in_progress)
    finished_words = text(finished)
    assert f'href="/spy/{going}"' in in_progress
    assert "Spy · Ana, Ben, Cy" in in_progress_words
    assert "Turn 2: Ben to play" in in_progress_words
    assert f'href="/spy/{done}"' in finished
    assert "Spy · Dee, Eve" in finished_words
    assert "Winner: Eve · 3 turns" in finished_words
    assert f"/spy/{done}" not in in_progress


def test_a_spy_page_is_not_a_black_spy_page_and_the_other_way_round(client: FlaskClient) -> None:
    spy_id = start_spy(client)
    black_spy_id = start_game(client)
    assert client.get(f"/black-spy/{spy_id}").status_code == 404
    assert client.get(f"/spy/{black_spy_id}").status_code == 404
    assert client.get("/spy/nosuchgame").status_code == 404


def test_after_a_turn_sent_by_htmx_the_next_spy_can_tap_the_card_it_looks_at(client: FlaskClient) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "left"), (3, "right")])
    fragment = take_turn(client, game_id, "1:1", "safe", htmx=True).get_data(as_text=True)
    # Ben faces slot 4; opposite is Ana's slot 5, card 4: that card is there to tap
    assert "Ben's Spy looks at: Ana's card 4." in text(fragment)
    assert re.findall(r'name="look" value="([^"]+)"', fragment) == ["0:4"]
    undone = client.post(f"/spy/{game_id}/undo", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.findall(r'name="look" value="([^"]+)"', undone) == ["1:1"]


# --- what a new scorer tripped over ----------------------------------------------------------


def test_exposing_the_last_target_says_so_once(client: FlaskClient) -> None:
    game_id = start_spy(client, players=(("Ana", "green"), ("Ben", "red")))
    # Ana exposes Ben's targets one by one; Ben does not spy in between
    exposures = [f"1:{card}" for card in (1, 2, 3, 4)]
    for number, look in enumerate(exposures, start=1):
        play(client, game_id, (look, "target"))
        if number < len(exposures):
            play(client, game_id, ("", None))
    html = page(client, game_id)
    # the news of the last turn, and the same words in the turns so far
    news = text(re.search(r'<div class="messages[^"]*"[^>]*>(.*?)</div>', html, re.S).group(1))
    assert news == "Ana exposed Ben's Top Secret 2: Ben is found out. Ana wins!"
    assert turn_log(html)[0] == ("7", news)


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


# --- the rematch ------------------------------------------------------------------------


def won_by_cy(client: FlaskClient) -> str:
    """A three-player game that Cy wins: Ana and Ben each spy on a bomb of Cy's twice."""
    game_id = start_spy(client, first_player=ANA)
    play(client, game_id, ("2:1", "bomb"), ("2:2", "bomb"), ("", None), ("2:1", None), ("2:2", None))
    return game_id


def rematch_of(client: FlaskClient, game_id: str, **form: str) -> str:
    response = client.post(f"/spy/{game_id}/rematch", data=form)
    assert response.status_code == 303, text(response.get_data(as_text=True))
    match = re.search(r"/spy/([A-Za-z0-9]+)$", response.location)
    assert match, response.location
    return match.group(1)


def test_a_won_spy_game_offers_a_rematch_with_the_next_first_player_named_or_a_draw(client: FlaskClient, app: Flask) -> None:
    game_id = won_by_cy(client)
    assert spy_state(app, game_id).winner == CY
    html = page(client, game_id)
    assert '<select id="rematch-first-player" name="first_player">' in html
    assert '<option value="" selected>Ben, next after Ana</option>' in html
    assert '<option value="0">Ana</option>' in html and '<option value="2">Cy</option>' in html
    assert '<option value="draw">Draw for me' in html
    assert "rematch" not in page(client, start_spy(client))


def test_a_spy_rematch_seats_the_same_players_and_colours_and_is_started_once(client: FlaskClient, app: Flask) -> None:
    game_id = won_by_cy(client)
    new = rematch_of(client, game_id, first_player="2")
    state = spy_state(app, new)
    old = spy_state(app, game_id).setup
    assert (state.setup.players, state.setup.colours, state.to_play, state.turns) == (old.players, old.colours, CY, ())
    assert "Rematch! Cy plays first." in text(page(client, new))
    assert f'href="/spy/{new}">Go to the rematch' in page(client, game_id)

    # a second tap, or another phone's, goes to the rematch already made
    before = snapshot(app)
    assert rematch_of(client, game_id) == new
    assert snapshot(app) == before
    assert "The rematch is already on: here it is." in text(page(client, new))


def test_a_spy_game_reopened_by_an_undo_after_its_rematch_began_still_leads_to_the_rematch(client: FlaskClient) -> None:
    game_id = won_by_cy(client)
    new = rematch_of(client, game_id)
    assert client.post(f"/spy/{game_id}/undo", data={"number": "5"}).status_code == 303
    html = page(client, game_id)
    assert "Record the turn" in html
    assert f'<a class="button" href="/spy/{new}">Go to the rematch</a>' in html
    assert "This game's rematch has started." in html


def test_a_spy_rematch_by_default_and_by_draw_says_who_plays_first(client: FlaskClient, app: Flask) -> None:
    new = rematch_of(client, won_by_cy(client), first_player="")
    assert spy_state(app, new).to_play == BEN
    drawn = rematch_of(client, won_by_cy(client), first_player="draw")
    first = spy_state(app, drawn)
    assert f"The draw is made: {first.setup.players[first.to_play]} plays first." in text(page(client, drawn))


def test_a_spy_rematch_first_player_not_at_the_table_is_refused_and_nothing_is_made(client: FlaskClient, app: Flask) -> None:
    game_id = won_by_cy(client)
    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch", data={"first_player": "3"})
    assert response.status_code == 422
    assert "The first player must be one of the players." in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_a_crafted_rematch_of_a_spy_game_still_being_played_is_refused_and_nothing_is_made(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_spy(client)
    play(client, game_id, ("1:3", "safe"))
    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch")
    assert response.status_code == 409
    assert "The game is not over yet" in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_a_tracked_spy_rematch_asks_where_the_spies_stand_then_starts_once(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "right"), (1, "right")])
    # Ana's Spy faces her slot 2, so she looks at Ben's card 6, twice: the second time it is lit
    play(client, game_id, ("1:6", "bomb"), ("", None), ("1:6", None))
    assert spy_state(app, game_id).winner == BEN

    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch", data={"first_player": ""})
    assert response.status_code == 200
    form = response.get_data(as_text=True)
    assert snapshot(app) == before  # nothing is started until the Spies are placed
    assert "Say where each Spy stands now, then start." in text(form)
    assert f'name="rematch_of" value="{game_id}"' in form
    assert 'name="spy-player-0" type="text"' in form and 'value="Ana"' in form and 'value="Ben"' in form
    assert re.search(r'name="track" value="1" checked', form)
    assert re.search(r'name="first_player" value="1" checked', form)

    placed = {
        "rematch_of": game_id,
        "track": "1",
        "first_player": "1",
        "spy-player-0": "Ana",
        "spy-colour-0": "green",
        "spy-player-1": "Ben",
        "spy-colour-1": "red",
        "spy-slot-0": "4",
        "spy-facing-0": "left",
        "spy-slot-1": "8",
        "spy-facing-1": "left",
    }
    response = client.post("/spy/new", data=placed)
    assert response.status_code == 303
    new = response.location.rsplit("/", 1)[1]
    state = spy_state(app, new)
    assert state.to_play == BEN and state.setup.spies == (SpyPlace(4, Facing.LEFT), SpyPlace(8, Facing.LEFT))
    assert "Rematch! Ben plays first." in text(page(client, new))
    assert f'href="/spy/{new}">Go to the rematch' in page(client, game_id)

    # the same form sent again (a double tap) finds the rematch made
    before = snapshot(app)
    again = client.post("/spy/new", data=placed)
    assert again.status_code == 303 and again.location.endswith(f"/spy/{new}")
    assert snapshot(app) == before


def test_a_tracked_rematch_form_that_seats_someone_else_starts_a_game_of_its_own(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "right"), (1, "right")])
    play(client, game_id, ("1:6", "bomb"), ("", None), ("1:6", None))
    form = {
        "rematch_of": game_id,
        "track": "1",
        "first_player": "0",
        "spy-player-0": "Ana",
        "spy-colour-0": "green",
        "spy-player-1": "Dee",
        "spy-colour-1": "red",
        "spy-slot-0": "1",
        "spy-facing-0": "right",
        "spy-slot-1": "1",
        "spy-facing-1": "right",
    }
    response = client.post("/spy/new", data=form)
    assert response.status_code == 303
    new = response.location.rsplit("/", 1)[1]
    assert spy_state(app, new).setup.players == ("Ana", "Dee")
    assert "Rematch!" not in text(page(client, new))
    assert "Go to the rematch" not in page(client, game_id)


# --- the turns so far --------------------------------------------------------------------


def turn_log(html: str) -> list[tuple[str, str]]:
    """The turn log's entries as the page lists them: (number, words)."""
    found = re.search(r'<details id="turns" class="card turn-log"[^>]*>(.*?)</details>', html, re.S)
    if found is None:
        return []
    return [(number, text(words)) for number, words in re.findall(r'<li value="(\d+)">(.*?)</li>', found.group(1), re.S)]


def test_the_turns_so_far_are_listed_latest_first_in_the_words_the_table_was_told(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client)
    assert turn_log(page(client, game_id)) == []
    play(client, game_id, ("1:3", "safe"), ("", None), ("0:2", "bomb"), ("1:1", "target"))
    html = page(client, game_id)
    assert "4 turns so far" in text(html)
    assert turn_log(html) == [
        ("4", "Ana exposed Ben's Safe 1."),
        ("3", "Cy found one of Ana's bombs: tssss! It is lit."),
        ("2", "Ben did not spy."),
        ("1", "Ana spied on Ben: a Safe."),
    ]

    # a follower reads the same log; an undo takes the last turn out of it
    from tests.helpers import watch_url

    assert turn_log(client.get(watch_url(app, game_id)).get_data(as_text=True)) == turn_log(html)
    assert client.post(f"/spy/{game_id}/undo", data={"number": "4"}).status_code == 303
    assert [number for number, _ in turn_log(page(client, game_id))] == ["3", "2", "1"]


def test_the_last_turn_in_the_log_names_the_winner(client: FlaskClient) -> None:
    game_id = won_by_cy(client)
    html = page(client, game_id)
    assert turn_log(html)[0] == ("5", "Ben found Cy's lit bomb and is blown up. Cy wins!")
    assert "5 turns played" in text(html) and "so far" not in text(html)


def test_once_the_game_is_won_the_winners_base_has_no_next_target(client: FlaskClient) -> None:
    game_id = start_spy(client)
    assert "Next target: Safe 1" in text(base_section(page(client, game_id), CY))
    # the card looked at may be the base's own Spy: said as the news of that turn says it
    assert "Ana looked at Cy's Spy: nothing revealed." in text(base_section(page(client, game_id), CY))
    play(client, game_id, ("2:1", "bomb"), ("2:2", "bomb"), ("", None), ("2:1", None), ("2:2", None))
    winner = text(base_section(page(client, game_id), CY))
    assert "Next target" not in winner and "0 of 2 bombs unlit" in winner


def test_a_rematch_that_loses_a_race_to_an_undo_says_so_and_starts_nothing(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # another phone undid the winning turn between this phone's look and its commit
    from companion import service

    game_id = won_by_cy(client)
    lost = lambda game, again: service.Written(service.Outcome.CONFLICT, game)  # noqa: E731
    monkeypatch.setattr(service, "rematch", lost)
    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch")
    assert response.status_code == 409
    assert "Another phone changed this game just now; no rematch was started." in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_the_spreadsheet_of_every_game_holds_spy_turns_and_pad_rounds_beside_black_spy_deals(client: FlaskClient) -> None:
    import csv
    import io

    from tests.helpers import TWO_SPIES, post_round, start_pad

    spy_game = start_spy(client, players=TWO_SPIES)
    play(client, spy_game, ("1:1", "target"), ("0:1", "target"))
    pad = start_pad(client, "Golf", ("Vic", "Wes"))
    post_round(client, pad, (4, -2))
    black_spy = start_game(client)
    post_points(client, black_spy, [20, 15, 25, 0])
    rows = list(csv.DictReader(io.StringIO(client.get("/export.csv").get_data(as_text=True))))
    by_kind = {kind: [row for row in rows if row["kind"] == kind] for kind in ("black-spy", "spy", "scorepad")}
    assert len(by_kind["black-spy"]) == 4 and {row["game_id"] for row in by_kind["black-spy"]} == {black_spy}
    assert [(row["deal"], row["player"]) for row in by_kind["spy"]] == [("1", "Ana"), ("2", "Ben")]
    assert [
        (row["rule_set"], row["deal"], row["player"], row["raw_points"], row["running_total"]) for row in by_kind["scorepad"]
    ] == [
        ("Golf", "1", "Vic", "4", "4"),
        ("Golf", "1", "Wes", "-2", "-2"),
    ]


def test_an_exposed_top_secret_keeps_its_number_with_its_name_on_the_narrow_card(client: FlaskClient) -> None:
    game_id = start_spy(client, players=(("Ana", "green"), ("Ben", "red")))
    play(client, game_id, ("1:1", "target"), ("", None), ("1:2", "target"), ("", None), ("1:3", "target"))
    html = page(client, game_id)
    # "Top Secret" over "1" was three lines in a card a seventh of a phone wide
    assert "<small>Top Secret\u00a01</small>" in html and "<small>Safe\u00a01</small>" in html


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
