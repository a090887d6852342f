"""A phone that has a game's page already gets a 304 until something on it changes."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.store.base import db
from companion.store.games import Game
from tests.helpers import post_points, start_game


def validator(client: FlaskClient, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-cache"
    return response.headers["ETag"]


def asked_again(client: FlaskClient, url: str, tag: str, **headers: str) -> int:
    return client.get(url, headers={"If-None-Match": tag, **headers}).status_code


def watch_url(app: Flask, game_id: str) -> str:
    with app.app_context():
        return f"/watch/{db.session.scalar(select(Game.watch_id).where(Game.id == game_id))}"


def test_an_unchanged_game_answers_304_and_a_new_deal_changes_its_validator(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    for url in (f"/black-spy/{game_id}", watch_url(app, game_id)):
        for headers in ({}, {"HX-Request": "true"}):
            tag = validator(client, url, **headers)
            response = client.get(url, headers={"If-None-Match": tag, **headers})
            assert response.status_code == 304 and response.get_data() == b"", url
            assert response.headers["ETag"] == tag and "HX-Request" in response.headers["Vary"]
    tags = {url: validator(client, url) for url in (f"/black-spy/{game_id}", watch_url(app, game_id))}
    assert post_points(client, game_id, [20, 15, 25, 0]).status_code == 303
    client.get(f"/black-spy/{game_id}")  # the page that shows the flash of the deal just recorded
    for url, tag in tags.items():
        assert asked_again(client, url, tag) == 200, url


def test_the_page_and_the_fragment_and_each_language_have_their_own_validator(client: FlaskClient) -> None:
    game_id = start_game(client)
    url = f"/black-spy/{game_id}"
    page = validator(client, url)
    fragment = validator(client, url, **{"HX-Request": "true"})
    spanish = validator(client, url, **{"Accept-Language": "es"})
    assert len({page, fragment, spanish}) == 3
    assert asked_again(client, url, page, **{"HX-Request": "true"}) == 200
    assert asked_again(client, url, page, **{"Accept-Language": "es"}) == 200


def test_renaming_a_player_changes_the_validator_of_their_games(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    url = watch_url(app, game_id)
    tag = validator(client, url)
    from companion.store.players import Player

    with app.app_context():
        ana = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
    assert client.post(f"/players/{ana}/rename", data={"name": "Anabel"}).status_code in (200, 303)
    assert asked_again(client, url, tag) == 200
    assert "Anabel" in client.get(url).get_data(as_text=True)


def test_a_page_that_shows_a_one_time_message_is_never_answered_from_a_copy(client: FlaskClient) -> None:
    game_id = start_game(client)
    url = f"/black-spy/{game_id}"
    tag = validator(client, url)
    # a message waiting for the next page, as recording a deal leaves one
    with client.session_transaction() as session:
        session["_flashes"] = [("message", "Deal 1 recorded.")]
    response = client.get(url, headers={"If-None-Match": tag})
    assert response.status_code == 200 and "ETag" not in response.headers
    assert "Deal 1 recorded." in response.get_data(as_text=True)


def test_a_spy_page_and_its_looks_have_their_own_validators(client: FlaskClient) -> None:
    response = client.post(
        "/spy/new",
        data={"spy-player-0": "Ana", "spy-player-1": "Ben", "spy-colour-0": "green", "spy-colour-1": "red", "first_player": "0"},
    )
    url = response.location
    plain = validator(client, url)
    assert asked_again(client, url, plain) == 304
    assert asked_again(client, url + "?look=1:1", plain) != 304


def test_a_score_pad_answers_304_until_a_round_changes_it(client: FlaskClient) -> None:
    from tests.helpers import post_round, start_pad

    game_id = start_pad(client)
    url = f"/scorepad/{game_id}"
    tag = validator(client, url)
    assert asked_again(client, url, tag) == 304
    assert asked_again(client, url, tag, **{"HX-Request": "true"}) == 200
    assert post_round(client, game_id, (10, 20, 30)).status_code == 303
    client.get(url)  # the page that shows the flash of the round just recorded
    assert asked_again(client, url, tag) == 200


def test_a_phone_that_takes_compressed_pages_gets_its_304_without_the_game_replayed(
    client: FlaskClient, app: Flask, monkeypatch
) -> None:
    game_id = start_game(client)
    for url in (f"/black-spy/{game_id}", watch_url(app, game_id)):
        for encoding in ("br", "gzip"):
            response = client.get(url, headers={"Accept-Encoding": encoding})
            assert response.headers["Content-Encoding"] == encoding
            tag = response.headers["ETag"]
            with monkeypatch.context() as patched:
                patched.setattr(Game, "state", lambda game: pytest.fail("the game was replayed"))
                again = client.get(url, headers={"Accept-Encoding": encoding, "If-None-Match": tag})
            assert again.status_code == 304, (url, encoding)
            assert again.headers["ETag"] == tag and again.get_data() == b""
