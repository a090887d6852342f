"""A rematch of a finished Black Spy game, dealt first by whoever the table picks.

The finished game offers it with the default first dealer named, or a draw, and says who won
the draw; a first dealer not at the table, or a game still being played, is refused and nothing
is made; a game reopened by an undo after its rematch began still leads to the rematch.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import post_points, snapshot, start_game


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
