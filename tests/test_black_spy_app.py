"""The Black Spy pages, driven through the app as a phone's browser would."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.helpers import game_state, make_app, news_and_its_undo, post_cards, post_points, snapshot, start_game, text


def page(client: FlaskClient, game_id: str) -> str:
    return client.get(f"/black-spy/{game_id}").get_data(as_text=True)


# --- starting a game --------------------------------------------------------------------


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


# --- recording deals by points ----------------------------------------------------------


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


# --- recording deals by cards -----------------------------------------------------------


def test_a_deal_by_cards_is_scored_and_the_rest_goes_to_the_chosen_player(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    # ana: 2 black spies, 3 low, black 8 and 11, 1 coloured spy = 20 + 3 + 2 + 5 - 5 = 25
    # ben: 1 black spy, black 9 = 13; cy: 2 coloured spies = -10; dee: the rest
    response = post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    assert response.status_code == 303
    # dee: 3 black spies, 3 low, black 10, 1 coloured spy = 30 + 3 + 4 - 5 = 32
    assert game_state(app, game_id).totals == (25, 13, -10, 32)


def test_taking_all_sixteen_black_cards_by_cards_is_a_shoot_without_asking(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_cards(client, game_id, {0: (6, 6, 1), 1: (0, 0, 1), 2: (0, 0, 2)}, {8: 0, 9: 0, 10: 0, 11: 0}, rest=3)
    state = game_state(app, game_id)
    assert state.totals == (0, 60, 60, 60)
    assert state.deals[0].raw == (75, -5, -10, 0)


def test_one_tap_on_the_untouched_cards_form_records_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    # as the page sends it: every box blank, no black 8-11 picked, the dealer marked for the rest
    form = {
        "mode": "cards",
        "rest": "0",
        **{f"{key}-{seat}": "" for key in ("black_spies", "low_blacks", "coloured_spies") for seat in range(4)},
    }
    response = client.post(f"/black-spy/{game_id}/deals", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert all(f"Enter the cards {name} took (0 if none)." in html for name in ("Ben", "Cy", "Dee"))
    assert snapshot(app) == before


def test_card_counts_that_do_not_fit_the_deck_are_refused_and_nothing_is_saved(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    response = post_cards(client, game_id, {0: (4, 0, 0), 1: (3, 0, 0), 2: (0, 0, 0)}, {8: 0, 9: 0, 10: 0, 11: 0}, rest=3)
    assert response.status_code == 422
    assert "The others took 7 Black Spies; the deck has only 6." in response.get_data(as_text=True)
    response = post_cards(client, game_id, {0: (6, 6, 4), 1: (0, 0, 0), 2: (0, 0, 0), 3: (0, 0, 0)}, {8: 0, 9: 1, 10: 2})
    assert response.status_code == 422
    assert "Who took the black 11?" in response.get_data(as_text=True)
    response = post_cards(client, game_id, {0: (5, 6, 4), 1: (0, 0, 0), 2: (0, 0, 0), 3: (0, 0, 0)}, {8: 0, 9: 1, 10: 2, 11: 3})
    assert response.status_code == 422
    assert "The deck has 6 Black Spies; these counts add up to 5." in response.get_data(as_text=True)
    assert snapshot(app) == before


# --- the end of the game ----------------------------------------------------------------


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


# --- fixing mistakes ----------------------------------------------------------------------


def test_undo_removes_the_last_deal_and_reopens_a_finished_game(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [40, 15, 5, 0])
    assert game_state(app, game_id).finished
    response = client.post(f"/black-spy/{game_id}/undo", data={"number": "2"})
    assert response.status_code == 303
    state = game_state(app, game_id)
    assert not state.finished and state.totals == (20, 15, 25, 0)
    assert "Deal 2 undone." in page(client, game_id)


def boxes(html: str, fields: list[str]) -> list[str]:
    """What each named box of a form holds."""
    return [re.search(rf'name="{field}"[^>]*value="([^"]*)"', html, re.S).group(1) for field in fields]


def test_an_undo_puts_the_undone_deals_numbers_back_in_the_form_to_mend_and_record_again(client: FlaskClient, app: Flask) -> None:
    # a deal is undone at once for a box mistyped in it: the table mends that box, not the deal
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [5, 30, 25, 0])
    answer = client.post(f"/black-spy/{game_id}/undo", data={"number": "2"}, headers={"HX-Request": "true"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "Deal 2 undone: its numbers are back in the form, to mend and record again." in html
    assert "Record deal 2" in html and boxes(html, [f"points-{seat}" for seat in range(4)]) == ["5", "30", "25", "0"]
    # an undo meant to drop the deal, not mend it, drops its numbers in one tap
    assert re.search(r'<a class="button discard" href="/black-spy/\w+\?mode=points"', html)
    assert len(game_state(app, game_id).deals) == 1
    # the numbers are the undoing phone's answer alone: the game's page, for any phone, has an empty form
    assert boxes(page(client, game_id), ["points-0"]) == [""]
    post_points(client, game_id, [15, 20, 25, 0])
    assert game_state(app, game_id).deals[1].raw == (15, 20, 25, 0)
    # without JavaScript the undo comes as a 303 to the page, whose form is empty
    assert client.post(f"/black-spy/{game_id}/undo", data={"number": "2"}).status_code == 303
    html = page(client, game_id)
    assert "Deal 2 undone." in html and "are back in the form" not in html and boxes(html, ["points-0"]) == [""]


def test_a_deal_counted_by_cards_comes_back_counted_after_its_undo(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    counted = game_state(app, game_id).deals[0].entry.cards
    html = client.post(f"/black-spy/{game_id}/undo", data={"number": "1"}, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert re.search(r'href="[^"]*\?mode=cards"[^>]*aria-current="page"', html)
    assert boxes(html, ["black_spies-0", "low_blacks-0", "coloured_spies-0", "coloured_spies-2"]) == ["2", "3", "1", "2"]
    assert re.search(r'name="high-10" value="3" checked', html) and re.search(r'name="high-8" value="0" checked', html)
    # the rest goes to the dealer, as the form gives it, and is worked out from the others' counts:
    # one count mended (Ben took no Black Spy after all) is a deck that still adds up
    assert re.search(r'name="rest" value="0"[^>]*checked', html)
    fields = dict(re.findall(r'name="((?:black_spies|low_blacks|coloured_spies)-[123])"[^>]*value="(\d*)"', html, re.S))
    fields.update(re.findall(r'name="(high-\d+)" value="(\d)" checked', html))
    fields["black_spies-1"] = "0"
    assert client.post(f"/black-spy/{game_id}/deals", data={"mode": "cards", "rest": "0", **fields}).status_code == 303
    mended = game_state(app, game_id).deals[0].entry.cards
    assert (mended[0].black_spies, mended[1].black_spies) == (counted[0].black_spies + 1, 0)
    assert [seat.low_blacks for seat in mended] == [seat.low_blacks for seat in counted]


def sent_as_shown(html: str) -> dict[str, str]:
    """What the deal form of a page or fragment sends as it stands: its boxes, its hidden
    fields and its checked choices."""
    form = html[html.index('class="card deal-form"') :].split("</form>", 1)[0]
    fields = dict(re.findall(r'<input[^>]*?name="([^"]+)"[^>]*?value="([^"]*)"(?![^>]*type="radio")', form))
    fields.update(re.findall(r'<input type="radio" name="([^"]+)" value="([^"]*)"[^>]*?checked', form))
    return fields


@pytest.mark.parametrize("counted", [False, True], ids=["by points", "by cards"])
def test_a_deal_undone_and_recorded_again_unchanged_is_the_same_deal(client: FlaskClient, app: Flask, counted: bool) -> None:
    game_id = start_game(client, first_dealer="3")
    if counted:
        post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    else:
        post_points(client, game_id, [20, 15, 25, 0])
    deal = game_state(app, game_id).deals[0]
    html = client.post(f"/black-spy/{game_id}/undo", data={"number": "1"}, headers={"HX-Request": "true"}).get_data(as_text=True)
    again = client.post(f"/black-spy/{game_id}/deals", data=sent_as_shown(html))
    assert again.status_code == 303, text(again.get_data(as_text=True))
    assert game_state(app, game_id).deals[0].entry == deal.entry


def test_an_undo_sent_from_an_out_of_date_page_changes_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [20, 15, 25, 0])
    before = snapshot(app)
    response = client.post(f"/black-spy/{game_id}/undo", data={"number": "1"})
    assert response.status_code == 409
    assert snapshot(app) == before


def test_editing_a_past_deal_recomputes_every_total_after_it(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [10, 10, 10, 30])
    edit_page = client.get(f"/black-spy/{game_id}/deals/1/edit").get_data(as_text=True)
    assert 'value="25"' in edit_page
    response = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "points-0": "0", "points-1": "15", "points-2": "25", "points-3": "20"},
    )
    assert response.status_code == 303
    state = game_state(app, game_id)
    assert state.deals[0].totals == (0, 15, 25, 20)
    assert state.totals == (10, 25, 35, 50)


def test_an_edit_that_would_end_the_game_before_its_last_deal_is_refused(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="70")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [20, 15, 25, 0])
    before = snapshot(app)
    response = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "points-0": "75", "points-1": "-5", "points-2": "-10", "points-3": "0", "shoot": "none"},
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "the game would end after deal 1, but 2 deals were played" in html
    # the form comes back as it was sent: the table's "no shoot" stays answered
    assert re.search(r'<input type="radio" name="shoot" value="none"[^>]* checked>', html)
    assert snapshot(app) == before


# --- phones, replays and races ----------------------------------------------------------


def test_the_same_submission_sent_twice_is_recorded_once(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], submission="abc123", number="1")
    response = post_points(client, game_id, [20, 15, 25, 0], submission="abc123", number="1")
    assert response.status_code == 303
    assert len(game_state(app, game_id).deals) == 1
    assert "already recorded" in page(client, game_id)


def test_a_deal_sent_from_a_page_that_missed_another_phones_deal_is_refused_in_words(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    before = snapshot(app)
    response = post_points(client, game_id, [10, 10, 10, 30], number="1")
    assert response.status_code == 409
    assert "Deal 1 was just recorded from another phone" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_post_without_a_csrf_token_is_refused(database_url: str) -> None:
    app = make_app(database_url, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    before = snapshot(app)
    response = client.post("/black-spy/new", data={"player-0": "Ana", "player-1": "Ben", "player-2": "Cy"})
    assert response.status_code == 400
    assert "Reload the page and try again" in response.get_data(as_text=True)
    assert snapshot(app) == before


# --- one url, page or fragment ----------------------------------------------------------


def test_htmx_gets_the_game_fragment_and_a_browser_the_whole_page(client: FlaskClient) -> None:
    game_id = start_game(client)
    fragment = client.get(f"/black-spy/{game_id}", headers={"HX-Request": "true"})
    # the next deal's card in its own place, the game's other regions out of band
    assert fragment.get_data(as_text=True).lstrip().startswith('<div id="game-now" hx-target="this" hx-swap="outerHTML" ')
    assert "HX-Request" in [value.strip() for value in fragment.headers["Vary"].split(",")]
    whole = client.get(f"/black-spy/{game_id}")
    assert whole.get_data(as_text=True).startswith("<!doctype html>")
    restore = client.get(f"/black-spy/{game_id}", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert restore.get_data(as_text=True).startswith("<!doctype html>")


def test_a_deal_recorded_through_htmx_answers_with_what_it_changed(client: FlaskClient) -> None:
    game_id = start_game(client)
    response = post_points(client, game_id, [20, 15, 25, 0], htmx=True)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="game-now"')
    assert "Deal 1 recorded." in html and "Record deal 2" in html
    # the standings, the deals, the chart and the undo button come out of band, each whole
    for region in ("standings", "deals", "chart", "game-actions"):
        assert re.search(rf'<section id="{region}"[^>]* hx-swap-oob="true"', html), region
    assert "Undo deal 1" in html
    # and nothing a deal does not change: the follow panel, the scripts
    assert "<script" not in html and "follow" not in html.lower().split("game-actions")[-1]


def deal_rows(html: str) -> list[str]:
    """The deal numbers of the deals table in a page, as shown, newest first."""
    table = html[html.index('<table class="deals">') : html.index("</table>")]
    return re.findall(r'<th scope="row"><(?:a|span)[^>]*>(\d+)<', table)


def test_a_long_game_shows_its_latest_deals_and_every_deal_is_a_tap_away(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="1000")
    for _ in range(11):
        post_points(client, game_id, [20, 15, 25, 0])
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert deal_rows(page) == [str(number) for number in range(11, 3, -1)]
    assert f'href="/black-spy/{game_id}/all">All 11 deals</a>' in page
    assert "3 earlier deals are not shown here." in page
    every = client.get(f"/black-spy/{game_id}/all").get_data(as_text=True)
    assert deal_rows(every) == [str(number) for number in range(11, 0, -1)]
    # each opens its edit page, as on the game page
    assert f'href="/black-spy/{game_id}/deals/1/edit"' in every
    # a short game shows them all, with no link
    short = start_game(client)
    post_points(client, short, [20, 15, 25, 0])
    assert "/all" not in client.get(f"/black-spy/{short}").get_data(as_text=True)


def test_every_deal_of_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    assert client.get("/black-spy/nosuchgame/all").status_code == 404


def test_the_cards_form_is_one_tap_away(client: FlaskClient) -> None:
    game_id = start_game(client)
    html = client.get(f"/black-spy/{game_id}?mode=cards").get_data(as_text=True)
    assert 'name="black_spies-0"' in html and 'name="high-11"' in html
    # the dealer gets the rest by default
    assert re.search(r'name="rest" value="0"[^>]* checked', html)


# --- the home page ----------------------------------------------------------------------


def test_the_home_page_lists_games_in_progress_first_with_the_next_dealer(client: FlaskClient) -> None:
    finished = start_game(client, names=("Eve", "Fay", "Gus"), end_value="10")
    post_points(client, finished, [60, 0, 0], shoot="none")
    start_game(client, names=("Ana", "Ben", "Cy"), first_dealer=2)
    html = client.get("/").get_data(as_text=True)
    assert html.index("In progress") < html.index("Ana, Ben, Cy") < html.index("Finished") < html.index("Eve, Fay, Gus")
    assert "Deal 1: Cy deals" in html
    assert "Winners: Fay and Gus" in html


# --- fast on a phone --------------------------------------------------------------------


def test_pages_are_compressed_and_static_files_cached_for_a_year_under_a_versioned_url(client: FlaskClient) -> None:
    home = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert home.headers["Content-Encoding"] == "gzip"
    css = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', client.get("/").get_data(as_text=True)).group(1)
    response = client.get(css)
    assert response.status_code == 200
    assert response.cache_control.max_age == 365 * 24 * 3600


# --- what a new scorer tripped over at the table (issue 15) and a prober found (issue 14) ----


def test_the_classic_rules_offer_no_minus_key_as_no_classic_score_is_negative(client: FlaskClient) -> None:
    standard = page(client, start_game(client))
    classic = page(client, start_game(client, preset="classic"))
    assert "Switch the sign of Ana's points" in standard
    assert "Switch the sign" not in classic and 'class="sign"' not in classic


def test_the_classic_cards_form_asks_for_no_coloured_spies_and_records_without_them(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, preset="classic")
    html = client.get(f"/black-spy/{game_id}?mode=cards").get_data(as_text=True)
    form = re.search(r'<form method="post" action="/black-spy/[^"]*/deals".*?</form>', html, re.S).group(0)
    assert 'name="black_spies-0"' in form and 'name="low_blacks-0"' in form
    assert "coloured_spies" not in form and "coloured Spies" not in form
    form = {"mode": "cards", "rest": "3", "black_spies-0": "2", "low_blacks-0": "1", "black_spies-1": "3", "black_spies-2": "0"}
    form.update({"high-8": "0", "high-9": "1"})
    response = client.post(f"/black-spy/{game_id}/deals", data=form)
    assert response.status_code == 303
    # 2x10 + 1 + 2, 3x10 + 3, nothing, and the rest: 10 + 5x1 + 4 + 5
    assert game_state(app, game_id).totals == (23, 33, 0, 24)


def test_the_cards_form_carries_the_rule_sets_card_values_for_the_running_points(client: FlaskClient) -> None:
    import html as markup
    import json

    found = re.search(
        r"data-card-values='([^']*)'", client.get(f"/black-spy/{start_game(client)}?mode=cards").get_data(as_text=True)
    )
    assert found
    values = json.loads(markup.unescape(found.group(1)))
    assert values == {
        "counts": {"black_spies": 10, "low_blacks": 1, "coloured_spies": -5},
        "high": {"8": 2, "9": 3, "10": 4, "11": 5},
        "black": ["black_spies", "low_blacks"],
        "shoot": [[0, 60, 60, 60], [60, 0, 60, 60], [60, 60, 0, 60], [60, 60, 60, 0]],
    }
    classic = client.get(f"/black-spy/{start_game(client, preset='classic')}?mode=cards").get_data(as_text=True)
    values = json.loads(markup.unescape(re.search(r"data-card-values='([^']*)'", classic).group(1)))
    assert values["counts"] == {"black_spies": 10, "low_blacks": 1}
    # with the shoot rule off, all the black cards score as counted
    off = client.get(f"/black-spy/{start_game(client, shoot_rule='off')}?mode=cards").get_data(as_text=True)
    assert json.loads(markup.unescape(re.search(r"data-card-values='([^']*)'", off).group(1)))["shoot"] == []


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


def test_an_edit_that_reopens_a_finished_game_says_it_is_open_again(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [40, 15, 5, 0])
    assert game_state(app, game_id).finished
    response = client.post(
        f"/black-spy/{game_id}/deals/2/edit",
        data={"mode": "points", "points-0": "0", "points-1": "15", "points-2": "5", "points-3": "40"},
    )
    assert response.status_code == 303
    assert not game_state(app, game_id).finished
    html = page(client, game_id)
    assert "Deal 2 changed; every total after it follows." in html
    assert "The game is open again: no total reaches 50 now, so deal 3 is to play." in html
    assert "Record deal 3" in html


def test_an_edit_that_ends_the_game_on_its_last_deal_says_so(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [20, 15, 25, 0])
    response = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "points-0": "55", "points-1": "5", "points-2": "0", "points-3": "0", "shoot": "none"},
    )
    assert response.status_code == 303
    html = page(client, game_id)
    assert "Deal 1 changed" in html and "The game is over." in html and "Game over" in html


def finish(client: FlaskClient, **rules: str) -> str:
    game_id = start_game(client, end_value="50", shoot_rule="off", **rules)
    assert post_points(client, game_id, [60, 0, 0, 0]).status_code == 303
    return game_id


def rematch_of(client: FlaskClient, app: Flask, game_id: str, **form: str):
    from companion.store.base import db
    from companion.store.games import Game

    response = client.post(f"/black-spy/{game_id}/rematch", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    new = response.location.rsplit("/", 1)[1]
    with app.app_context():
        return new, db.session.get(Game, new).first_seat


def test_a_finished_game_offers_a_rematch_with_the_default_first_dealer_named_or_a_draw(client: FlaskClient) -> None:
    html = page(client, finish(client, first_dealer="3"))
    assert '<select id="rematch-first-dealer" name="first_dealer">' in html
    assert re.search(r'<option value="" selected>Ana, next after Dee</option>', html)
    assert '<option value="1">Ben</option>' in html and '<option value="3">Dee</option>' in html
    assert '<option value="draw">Draw for me' in html


def test_a_rematch_is_dealt_first_by_whoever_the_table_picks(client: FlaskClient, app: Flask) -> None:
    new, seat = rematch_of(client, app, finish(client), first_dealer="2")
    assert seat == 2
    assert "Rematch! Cy deals first." in page(client, new)


def test_a_rematch_can_draw_for_the_first_deal_and_says_who_won_it(client: FlaskClient, app: Flask) -> None:
    old = finish(client)
    new, seat = rematch_of(client, app, old, first_dealer="draw")
    # the news says the rematch started, and who won the draw
    assert f"Rematch! The draw is made: {('Ana', 'Ben', 'Cy', 'Dee')[seat]} deals first." in page(client, new)
    # a reload of the address the rematch was asked at leads to the rematch, not back to the game
    reload = client.get(f"/black-spy/{old}/rematch")
    assert reload.status_code == 303 and reload.location.endswith(f"/black-spy/{new}")


def test_a_game_reopened_by_an_undo_after_its_rematch_began_still_leads_to_the_rematch(client: FlaskClient, app: Flask) -> None:
    old = finish(client)
    new, _ = rematch_of(client, app, old)
    assert client.post(f"/black-spy/{old}/undo", data={"number": "1"}).status_code == 303
    html = page(client, old)
    assert "Record deal 1" in html
    assert re.search(rf'<a class="button" href="/black-spy/{new}">Go to the rematch</a>', html)
    # said at the top, and on home, where both games of the same players are listed
    assert re.search(rf"This game's rematch has started. <a class=\"button\" href=\"/black-spy/{new}\">", html)
    home = client.get("/").get_data(as_text=True)
    assert len(re.findall(r"Rematch started · ", home)) == 1
    assert "Rematch started" not in page(client, new)


def test_a_rematch_first_dealer_not_at_the_table_is_refused_and_nothing_is_made(client: FlaskClient, app: Flask) -> None:
    game_id = finish(client)
    before = snapshot(app)
    response = client.post(f"/black-spy/{game_id}/rematch", data={"first_dealer": "7"})
    assert response.status_code == 422
    assert "The first dealer must be one of the named players." in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_crafted_rematch_of_a_game_still_being_played_is_refused_and_nothing_is_made(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    before = snapshot(app)
    response = client.post(f"/black-spy/{game_id}/rematch")
    assert response.status_code == 409
    assert "The game is not over yet" in response.get_data(as_text=True)
    assert snapshot(app) == before


def deal_one_sent_late(client: FlaskClient, game_id: str, points: list[int]) -> str:
    """Another phone, still on the page of deal 1, sends its own numbers for it: refused (409)."""
    late = post_points(client, game_id, points, number="1", htmx=True)
    assert late.status_code == 409
    return late.get_data(as_text=True)


def beaten_to_deal_one(client: FlaskClient, app: Flask, points: list[int]) -> tuple[str, Any, str]:
    """Deal 1 (20, 15, 25, 0) recorded, then ``points`` sent late for it: the game, the
    database as the late phone found it, and the refusal's page."""
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    before = snapshot(app)
    return game_id, before, deal_one_sent_late(client, game_id, points)


def test_the_same_deal_sent_from_a_second_phone_is_refused_as_counted_once_and_not_kept_for_the_next(
    client: FlaskClient, app: Flask
) -> None:
    _, before, html = beaten_to_deal_one(client, app, [20, 15, 25, 0])
    assert "Deal 1 was just recorded from another phone with the same points as yours: it counts once." in html
    # nothing kept under "Record deal 2", where one more tap would count the deal twice
    assert "record them as deal 2" not in html
    assert not re.search(r'id="points-0"[^>]*value="20"', html)
    assert 'data-repeats="1"' in html
    assert snapshot(app) == before


def test_numbers_beaten_by_another_phones_deal_stay_on_screen_to_record_as_the_next_deal_or_discard(
    client: FlaskClient, app: Flask
) -> None:
    game_id, before, html = beaten_to_deal_one(client, app, [10, 11, 12, 27])
    assert "Deal 1 was just recorded from another phone, so yours was not." in html
    assert "record them as deal 2 if they are a new deal, or discard them" in html
    for seat, points in enumerate((10, 11, 12, 27)):
        assert re.search(rf'id="points-{seat}"[^>]*value="{points}"', html)
    assert "Record deal 2" in html and 'name="number" value="2"' in html
    assert re.search(rf'<a class="button discard" href="/black-spy/{game_id}\?mode=points"', html)
    assert snapshot(app) == before
    # recorded as the next deal, they count once
    assert post_points(client, game_id, [10, 11, 12, 27], number="2").status_code == 303
    assert game_state(app, game_id).totals == (30, 26, 37, 27)


def left_behind_by_two_deals(client: FlaskClient, app: Flask, points: list[int]) -> tuple[Any, str]:
    """Deals 1 (20, 15, 25, 0) and 2 (10, 10, 10, 30) recorded, then ``points`` sent late
    from deal 1's page: the database as the late phone found it, and the refusal's page."""
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    post_points(client, game_id, [10, 10, 10, 30], number="2")
    before = snapshot(app)
    return before, deal_one_sent_late(client, game_id, points)


def test_a_phone_left_behind_by_two_deals_is_told_of_both(client: FlaskClient, app: Flask) -> None:
    before, html = left_behind_by_two_deals(client, app, [10, 11, 12, 27])
    assert "Deals 1 and 2 were just recorded from another phone, so yours was not." in html
    assert "record them as deal 3 if they are a new deal, or discard them" in html
    assert re.search(r'id="points-3"[^>]*value="27"', html)
    assert snapshot(app) == before


def test_a_phone_left_behind_that_sends_a_later_deal_again_is_told_it_counts_once(client: FlaskClient, app: Flask) -> None:
    # still on deal 1's page, it types what another phone recorded as deal 2
    before, html = left_behind_by_two_deals(client, app, [10, 10, 10, 30])
    assert "Deal 2 was just recorded from another phone with the same points as yours: it counts once." in html
    # not kept to record as deal 3, where one more tap would count it twice
    assert "record them as deal 3" not in html and 'data-repeats="2"' in html
    assert snapshot(app) == before


def test_a_phone_left_far_behind_is_told_the_run_of_deals_by_its_ends(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="5000")
    for number in range(1, 6):
        post_points(client, game_id, [20, 15, 25, 0], number=str(number))
    html = deal_one_sent_late(client, game_id, [10, 11, 12, 27])
    assert "Deals 1\u20135 were just recorded from another phone, so yours was not." in html


def test_counted_cards_beaten_by_another_phone_are_kept_too(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    response = post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1}, rest=3, number="1")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert re.search(r'id="low_blacks-0"[^>]*value="3"', html)
    assert re.search(r'name="high-9" value="1" checked', html)
    assert re.search(r'name="rest" value="3"[^>]* checked', html)


def test_a_deal_that_loses_to_another_phones_edit_says_the_game_changed_not_that_an_old_deal_was_recorded(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.service as views
    from companion.kinds.black_spy.models import Deal
    from companion.store.base import db
    from companion.store.games import Game

    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    commit = views.commit_or_conflict

    def another_phone_edits_first() -> bool:
        # the other phone's edit of deal 1 commits between this phone's read and its write
        db.session.rollback()
        game = db.session.get(Game, game_id)
        game.deals[0].raw = [25, 15, 20, 0]
        assert commit()
        return False

    # a deal is written by statements (store/appending.py), or by the flush where it cannot be
    monkeypatch.setattr(views.appending, "append", lambda *_written: another_phone_edits_first())
    monkeypatch.setattr(views, "commit_or_conflict", another_phone_edits_first)
    response = post_points(client, game_id, [10, 11, 12, 27], number="2")
    monkeypatch.undo()
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "was just recorded from another phone" not in html
    assert "Another phone changed this game just now (a deal edited or undone), so nothing was recorded." in html
    # said as a refusal, not in the green of a deal recorded
    assert '<div class="messages refused" role="alert">' in html
    assert re.search(r'id="points-3"[^>]*value="27"', html)
    state = game_state(app, game_id)
    assert len(state.deals) == 1 and state.totals == (25, 15, 20, 0)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Deal)) == 1


def test_a_deal_sent_after_another_phone_undid_one_says_the_game_changed(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    client.post(f"/black-spy/{game_id}/undo", data={"number": "1"})
    response = post_points(client, game_id, [10, 11, 12, 27], number="2")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Another phone changed this game just now" in html and "record them as deal 1" in html


def test_the_points_form_shows_each_players_total_beside_their_box(client: FlaskClient) -> None:
    game_id = start_game(client)
    assert "so far" not in page(client, game_id)
    post_points(client, game_id, [20, 15, 25, 0])
    html = page(client, game_id)
    assert re.search(r'<label for="points-0">Ana</label><span class="meta so-far">20 so far</span>', html)
    assert re.search(r'<label for="points-3">Dee</label><span class="meta so-far">0 so far</span>', html)


def test_the_deal_form_sits_in_the_deals_card_right_under_whose_deal_and_the_pass(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    html = page(client, game_id)
    card = re.search(r'<section class="card next-deal deal-card".*?</section>', html, re.S).group(0)
    assert (
        card.index("Deal 2:") < card.index("Pass 3 cards right") < card.index('<form method="post"') < card.index('id="points-0"')
    )
    assert html.index('id="points-0"') < html.index("Standings") < html.index("Standard rules")


def test_each_row_of_the_deals_table_opens_its_own_deal_for_a_change(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [10, 10, 20, 20])
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    links = re.findall(r'<a href="([^"]+)" data-needs-connection="edit" aria-label="([^"]+)">(\d+)</a>', page)
    assert links == [
        (f"/black-spy/{game_id}/deals/2/edit", "Edit deal 2", "2"),
        (f"/black-spy/{game_id}/deals/1/edit", "Edit deal 1", "1"),
    ]
    assert 'value="10"' in client.get(links[0][0]).get_data(as_text=True)


def test_the_coming_deal_says_who_leads_the_first_trick_by_the_rule_set(client: FlaskClient) -> None:
    standard = start_game(client)
    assert "First trick: <strong>whoever holds the Red 1</strong> leads." in client.get(f"/black-spy/{standard}").get_data(
        as_text=True
    )
    # classic: the dealer's left leads; a name goes into the translated sentence escaped
    classic = start_game(client, ("Ana", "Ben", "O'Neil", "Dee"), first_dealer=1, preset="classic")
    page = client.get(f"/black-spy/{classic}").get_data(as_text=True)
    assert "First trick: <strong>O&#39;Neil (the dealer&#39;s left)</strong> leads." in page


def test_numbers_refused_because_the_game_ended_meanwhile_are_said_so_the_table_can_check_them(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_game(client, end_value="70")
    assert post_points(client, game_id, [80, -5, -15, 0], shoot="none", number="1").status_code == 303  # the game is over
    before = snapshot(app)
    html = deal_one_sent_late(client, game_id, [10, 20, 30, 0])
    assert "Deal 1 was just recorded from another phone, and the game is over; yours was not recorded." in html
    assert "The numbers typed: Ana\u00a010, Ben\u00a020, Cy\u00a030, and Dee\u00a00." in html
    assert snapshot(app) == before


def test_a_reload_at_the_address_a_refused_deal_was_posted_to_shows_its_game(client: FlaskClient) -> None:
    # without JavaScript a refused deal is shown at /black-spy/<id>/deals; a reload asks for it
    game_id = start_game(client)
    reloaded = client.get(f"/black-spy/{game_id}/deals")
    assert reloaded.status_code == 303 and reloaded.location == f"/black-spy/{game_id}"
    # and so does a refused undo's; a post to a page that is not one still says so in words
    assert client.get(f"/black-spy/{game_id}/undo").location == f"/black-spy/{game_id}"
    refused = client.put(f"/black-spy/{game_id}/deals")
    assert refused.status_code == 405 and "That address does not take this kind of request." in refused.get_data(as_text=True)


def test_a_deal_sent_as_deal_0_is_refused_as_out_of_date_and_nothing_is_written(client: FlaskClient, app: Flask) -> None:
    # no page shows a deal 0: a crafted form, or a page broken on the way
    game_id = start_game(client)
    assert post_points(client, game_id, [20, 15, 25, 0]).status_code == 303
    before = snapshot(app)
    response = post_points(client, game_id, [20, 15, 25, 0], number="0")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Another phone changed this game just now" in html and "Deal 0" not in html
    assert snapshot(app) == before


def test_a_table_that_counts_cards_finds_the_cards_form_after_a_reload_an_edit_or_an_undo(client: FlaskClient) -> None:
    game_id = start_game(client)
    tab = lambda page: re.search(r'href="[^"]*\?mode=(\w+)"[^>]*aria-current="page"', page).group(1)  # noqa: E731
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "points"
    post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "cards"
    # the page may still ask for the other way, for this deal
    assert tab(client.get(f"/black-spy/{game_id}?mode=points").get_data(as_text=True)) == "points"
    client.post(f"/black-spy/{game_id}/undo", data={"number": "2"})
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "cards"
    post_points(client, game_id, [20, 15, 25, 0])
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "points"
    # a deal by points undone leaves the table typing points, though the deal before was counted
    client.post(f"/black-spy/{game_id}/undo", data={"number": "2"})
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "points"


def test_an_edit_of_a_deal_counted_by_cards_switched_to_points_starts_from_the_points_the_cards_gave(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_game(client)
    post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    raw = game_state(app, game_id).deals[0].raw
    page = client.get(f"/black-spy/{game_id}/deals/1/edit?mode=points").get_data(as_text=True)
    shown = [int(re.search(rf'id="points-{seat}"[^>]*value="(-?\d+)"', page, re.S).group(1)) for seat in range(4)]
    assert shown == list(raw) and sum(shown) == 60
    # saved as it stands, the deal is the same deal, now by points
    fields = dict(re.findall(r'name="(csrf_token|version|submission)" value="([^"]*)"', page))
    points = {f"points-{seat}": str(value) for seat, value in enumerate(shown)}
    assert client.post(f"/black-spy/{game_id}/deals/1/edit", data={**fields, "mode": "points", **points}).status_code == 303
    assert game_state(app, game_id).deals[0].raw == raw


def test_the_news_of_a_deal_just_recorded_carries_its_undo(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    answer = post_points(client, game_id, [10, 10, 10, 30], htmx=True).get_data(as_text=True)
    news, undo, number = news_and_its_undo(answer)
    assert "Deal 2 recorded." in news and "Undo it" in news
    assert number == "2"
    assert client.post(undo, data={"number": "2"}).status_code == 303
    assert len(game_state(app, game_id).deals) == 1
    # a refusal's news carries none
    refused = post_points(client, game_id, [1, 1, 1, 1], htmx=True).get_data(as_text=True)
    assert "undo-here" not in refused


def test_an_edit_refused_because_another_phone_was_first_is_styled_as_a_refusal(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    edit = {"mode": "points", "points-0": "15", "points-1": "20", "points-2": "25", "points-3": "0", "shoot": "none"}
    # the page showed version 1; another phone's deal made it 3
    post_points(client, game_id, [10, 10, 10, 30])
    refused = client.post(f"/black-spy/{game_id}/deals/1/edit", data={**edit, "version": "1"})
    assert refused.status_code == 409
    assert '<div class="messages refused" role="alert"><p>Another phone changed this game' in refused.get_data(as_text=True)


def test_an_edit_another_phone_beat_keeps_the_numbers_typed_and_says_how_the_deal_reads_now(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    page = client.get(f"/black-spy/{game_id}/deals/1/edit").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    # another phone changes deal 1 first
    other = {"mode": "points", "points-0": "0", "points-1": "15", "points-2": "25", "points-3": "20", "shoot": "none"}
    assert client.post(f"/black-spy/{game_id}/deals/1/edit", data={**other, "version": version}).status_code == 303
    mine = {"mode": "points", "points-0": "30", "points-1": "10", "points-2": "10", "points-3": "10", "shoot": "none"}
    refused = client.post(f"/black-spy/{game_id}/deals/1/edit", data={**mine, "version": version})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "Deal 1 now reads Ana 0, Ben 15, Cy 25, and Dee 20; your numbers are kept below" in html
    assert [re.search(rf'id="points-{seat}"[^>]*value="(\d+)"', html, re.S).group(1) for seat in range(4)] == [
        "30",
        "10",
        "10",
        "10",
    ]
    assert game_state(app, game_id).deals[0].raw == (0, 15, 25, 20)
    # saved again from that page, they take its place
    again = re.search(r'name="version" value="(\d+)"', html).group(1)
    assert client.post(f"/black-spy/{game_id}/deals/1/edit", data={**mine, "version": again}).status_code == 303
    assert game_state(app, game_id).deals[0].raw == (30, 10, 10, 10)


def test_an_edit_is_saved_when_only_another_deal_was_recorded_meanwhile(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    page = client.get(f"/black-spy/{game_id}/deals/1/edit").get_data(as_text=True)
    sent = {name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1) for name in ("version", "shown")}
    # another phone records deal 2: deal 1 still reads as this page shows it
    post_points(client, game_id, [10, 10, 10, 30])
    mine = {"mode": "points", "points-0": "30", "points-1": "10", "points-2": "10", "points-3": "10", "shoot": "none"}
    assert client.post(f"/black-spy/{game_id}/deals/1/edit", data={**mine, **sent}).status_code == 303
    assert [deal.raw for deal in game_state(app, game_id).deals] == [(30, 10, 10, 10), (10, 10, 10, 30)]
    # a page that showed deal 1 as it read before that edit is out of date
    stale = client.post(f"/black-spy/{game_id}/deals/1/edit", data={**mine, "points-0": "40", "points-3": "0", **sent})
    assert stale.status_code == 409 and game_state(app, game_id).deals[0].raw == (30, 10, 10, 10)


def test_an_edit_of_a_deal_another_phone_undid_goes_to_the_game_and_says_what_was_typed(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [10, 10, 10, 30])
    page = client.get(f"/black-spy/{game_id}/deals/2/edit").get_data(as_text=True)
    version = re.search(r'name="version" value="(\d+)"', page).group(1)
    assert client.post(f"/black-spy/{game_id}/undo", data={"number": "2"}).status_code == 303
    mine = {"mode": "points", "points-0": "30", "points-1": "10", "points-2": "10", "points-3": "10", "version": version}
    gone = client.post(f"/black-spy/{game_id}/deals/2/edit", data=mine)
    assert gone.status_code == 303 and gone.location.endswith(f"/black-spy/{game_id}")
    html = client.get(gone.location).get_data(as_text=True)
    assert "Deal 2 was undone on another phone just now, so your change was not saved." in html
    assert "You had typed Ana 30, Ben 10, Cy 10, and Dee 10." in html


def test_a_table_all_level_has_no_leader_marked_and_the_first_one_ahead_is(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [15, 15, 15, 15])
    level = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert 'class="badge"' not in level and 'class="leader"' not in level
    post_points(client, game_id, [20, 15, 25, 0])
    ahead = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert re.search(r'<li class="leader" data-seat="3"', ahead) and ahead.count('class="badge"') == 1
