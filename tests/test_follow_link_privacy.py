"""What the follow link protects: the follow panel and the new-game page say it plainly."""

from __future__ import annotations

import html as htmllib
import re
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.store.base import db
from tests.helpers import TWO_SPIES, make_app, start_game, start_spy


def said(html: str, element_id: str) -> str | None:
    match = re.search(rf'<p [^>]*id="{element_id}">(.*?)</p>', html, re.S)
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).split()) if match else None


@pytest.fixture
def private(database_url: str) -> Iterator[Flask]:
    app = make_app(database_url, PASSCODE="table-7")
    yield app
    with app.app_context():
        db.engine.dispose()


def signed_in(app: Flask) -> FlaskClient:
    client = app.test_client()
    assert client.post("/passcode", data={"passcode": "table-7", "next": "/"}).status_code == 303
    return client


def test_without_a_passcode_the_follow_panel_says_the_link_keeps_nothing_private(client: FlaskClient) -> None:
    for game_page in (f"/black-spy/{start_game(client)}", f"/spy/{start_spy(client, players=TWO_SPIES)}"):
        panel = said(client.get(game_page).get_data(as_text=True), "follow-privacy")
        assert panel is not None, game_page
        assert "private only on a server with a passcode" in panel and "This one has none" in panel
        assert "find every game" in panel


def test_with_a_passcode_the_follow_panel_says_the_link_opens_that_game_alone(private: Flask) -> None:
    client = signed_in(private)
    for game_page in (f"/black-spy/{start_game(client)}", f"/spy/{start_spy(client, players=TWO_SPIES)}"):
        panel = said(client.get(game_page).get_data(as_text=True), "follow-privacy")
        assert panel is not None, game_page
        assert "This server asks for a passcode; this link does not." in panel
        assert "This one has none" not in panel


def test_the_new_game_page_of_an_open_server_says_who_can_set_a_passcode(client: FlaskClient) -> None:
    for path in ("/new", "/new?game=spy"):
        notice = said(client.get(path).get_data(as_text=True), "no-passcode")
        assert notice is not None, path
        assert "This server has no passcode" in notice
        # a player cannot act on a setting's name: they are told who can
        assert "Whoever runs the server can set a passcode" in notice and "COMPANION_PASSCODE" not in notice


def test_the_new_game_page_of_a_server_with_a_passcode_says_nothing_of_it(private: Flask) -> None:
    html = signed_in(private).get("/new").get_data(as_text=True)
    assert 'id="no-passcode"' not in html and "COMPANION_PASSCODE" not in html
