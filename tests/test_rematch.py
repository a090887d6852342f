"""A rematch: the same players with the same rules, the next dealer dealing first.

A second tap on rematch goes to the rematch already made, and the followers of the finished
game are shown the way to it.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.store.base import db
from companion.store.games import Game
from companion.store.players import Player
from tests.helpers import post_points, start_game
from tests.history_helpers import get_html


def test_a_rematch_seats_the_same_players_with_the_same_rules_and_the_next_dealer(client: FlaskClient, app: Flask) -> None:
    old = start_game(
        client, names=("Ana", "Ben", "Cy", "Dee"), first_dealer=3, end_value="50", shoot_rule="off", first_lead="dealer-right"
    )
    # shoot rule off: 60 is simply 60, and reaches 50
    assert post_points(client, old, [60, 0, 0, 0]).status_code == 303
    with app.app_context():
        players_before = db.session.scalar(select(func.count()).select_from(Player))
    response = client.post(f"/black-spy/{old}/rematch")
    assert response.status_code == 303
    match = re.search(r"/black-spy/([A-Za-z0-9]+)$", response.location)
    assert match
    new = match.group(1)
    assert new != old
    with app.app_context():
        before, after = db.session.get(Game, old), db.session.get(Game, new)
        assert [(s.position, s.player_id) for s in after.seats] == [(s.position, s.player_id) for s in before.seats]
        assert (after.kind, after.preset, after.end_value, after.shoot_rule, after.first_lead) == (
            "black-spy",
            "standard",
            50,
            False,
            "dealer-right",
        )
        # Dee (seat 3) dealt first; the seat after hers is Ana's (seat 0)
        assert after.first_seat == 0
        assert after.deals == [] and not after.finished
        assert db.session.scalar(select(func.count()).select_from(Player)) == players_before
    page = get_html(client, f"/black-spy/{new}")
    assert 'Deal 1: <span class="who">Ana</span> deals' in page
    assert "game ends at 50" in page


def test_a_second_tap_on_rematch_goes_to_the_rematch_already_made(client: FlaskClient, app: Flask) -> None:
    old = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50", shoot_rule="off")
    assert post_points(client, old, [60, 0, 0]).status_code == 303
    first = client.post(f"/black-spy/{old}/rematch")
    second = client.post(f"/black-spy/{old}/rematch", follow_redirects=True)
    assert second.request.path == first.location
    assert "The rematch is already on: here it is." in second.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2
    # the finished game now leads to its rematch instead of offering another
    page = get_html(client, f"/black-spy/{old}")
    assert f'href="{first.location}"' in page and f"/black-spy/{old}/rematch" not in page


def test_followers_of_a_finished_game_are_shown_the_way_to_its_rematch(client: FlaskClient, app: Flask) -> None:
    from tests.helpers import post_points, start_game

    game_id = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    post_points(client, game_id, [60, 0, 0], shoot="none")
    with app.app_context():
        watch = db.session.scalar(select(Game.watch_id).where(Game.id == game_id))
    assert "follow it" not in client.get(f"/watch/{watch}").get_data(as_text=True)
    again = client.post(f"/black-spy/{game_id}/rematch").location.rsplit("/", 1)[1]
    with app.app_context():
        again_watch = db.session.scalar(select(Game.watch_id).where(Game.id == again))
    html = client.get(f"/watch/{watch}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f'href="/watch/{again_watch}"' in html and "The table started a rematch: follow it" in html
