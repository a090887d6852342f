"""Undoing a Black Spy deal.

An undo removes the last deal, reopening a finished game, and puts its numbers back in the
form, by points or by cards, to mend and record again (recorded again unchanged, it is the same
deal); an undo sent from an out-of-date page changes nothing; the news of a deal just recorded
carries its undo.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import game_state, news_and_its_undo, post_cards, post_points, snapshot, start_game, text


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
