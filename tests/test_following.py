"""A follower's poll: the read-only fragment is the same for every phone, rendered once a version."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.store.base import db
from companion.store.players import Player
from companion.web import watch
from tests.helpers import TWO_SPIES, post_points, post_round, start_game, start_pad, start_spy, watch_url

POLL = {"HX-Request": "true"}


def test_a_followers_copy_of_every_kind_carries_no_form_and_nothing_of_the_phone(app: Flask, client: FlaskClient) -> None:
    for game_id in (start_game(client), start_spy(client, players=TWO_SPIES), start_pad(client)):
        html = client.get(watch_url(app, game_id), headers=POLL).get_data(as_text=True)
        assert "<form" not in html and "csrf_token" not in html and 'name="submission"' not in html, game_id


def test_the_second_follower_of_an_unchanged_game_gets_the_copy_made_for_the_first(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    url = watch_url(app, game_id)
    # followers are other phones than the scorer's (which holds the flash of its deal)
    first = app.test_client().get(url, headers=POLL).get_data(as_text=True)
    another_phone = app.test_client()
    monkeypatch.setattr(watch, "_context", lambda game: pytest.fail("the fragment was made again"))
    assert another_phone.get(url, headers=POLL).get_data(as_text=True) == first


def test_a_follower_sees_each_deal_round_and_rename_at_the_next_poll(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    url = watch_url(app, game_id)
    assert "Deal 1: " in client.get(url, headers=POLL).get_data(as_text=True)
    post_points(client, game_id, [20, 15, 25, 0])
    assert "Deal 2: " in client.get(url, headers=POLL).get_data(as_text=True)
    with app.app_context():
        ana = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
    client.post(f"/players/{ana}/rename", data={"name": "Anabel"})
    assert "Anabel" in client.get(url, headers=POLL).get_data(as_text=True)
    pad = start_pad(client)
    pad_url = watch_url(app, pad)
    before = client.get(pad_url, headers=POLL).get_data(as_text=True)
    post_round(client, pad, (10, 20, 30))
    assert client.get(pad_url, headers=POLL).get_data(as_text=True) != before


def test_the_follow_page_in_another_language_is_its_own_copy(app: Flask, client: FlaskClient) -> None:
    url = watch_url(app, start_game(client))
    english = client.get(url, headers=POLL).get_data(as_text=True)
    spanish = app.test_client().get(url, headers={**POLL, "Accept-Language": "es"}).get_data(as_text=True)
    assert english != spanish


def test_a_spy_follower_is_told_whose_turn_it_is_and_not_to_tap_what_it_cannot(app: Flask, client: FlaskClient) -> None:
    game_id = start_spy(client, players=TWO_SPIES)
    assert "Then tap the card" in client.get(f"/spy/{game_id}").get_data(as_text=True)
    followed = client.get(watch_url(app, game_id), headers=POLL).get_data(as_text=True)
    assert "Ana</span>'s turn" in followed and "Then tap the card" not in followed
