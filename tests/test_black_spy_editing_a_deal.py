"""Editing a past Black Spy deal.

Each row of the deals table opens its deal; an edit recomputes every total after it, says when
it reopens or ends the game, and is refused if it would end the game before its last deal; a
deal counted by cards is edited by points from the points the cards gave. An edit another
phone beat is refused as such, keeping the numbers typed; one that only another deal overtook
is saved; one of a deal another phone undid goes to the game and says what was typed.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import game_state, post_cards, post_points, snapshot, start_game


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
