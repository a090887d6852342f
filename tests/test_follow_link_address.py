"""The follow link is one another phone at the table can open.

The device a server runs on opens it at 127.0.0.1 or localhost, which names each phone
itself: a link copied from there, or its QR code scanned, would lead a friend's phone to
itself. `companion serve` says what it listens on (COMPANION_LISTENS_ON); on the network,
the link names this machine's address there, and on loopback alone the panel says that no
other phone can follow.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from flask import Flask

from companion.store.base import db
from companion.web import sharing, watch
from tests.helpers import make_app, start_game
from tests.test_follow_link_privacy import said

ON_THIS_DEVICE = "http://127.0.0.1:8000"
ON_THE_NETWORK = "http://192.168.1.20:8000"


@pytest.fixture
def listening(database_url: str, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> Iterator[Flask]:
    """An app as `companion serve --host <param>` builds it, on a machine at 192.168.1.20."""
    monkeypatch.setattr(sharing, "_network_address", lambda: "192.168.1.20")
    app = make_app(database_url, LISTENS_ON=request.param)
    yield app
    with app.app_context():
        db.engine.dispose()


def follow_panel(app: Flask, opened_at: str) -> tuple[str, str | None]:
    """The follow link a game page opened at ``opened_at`` shows, and its note."""
    link, note, _ = follow_panel_with_qr(app, opened_at)
    return link, note


def follow_panel_with_qr(app: Flask, opened_at: str) -> tuple[str, str | None, bool]:
    """The same, and whether the panel shows the link's QR code."""
    client = app.test_client()
    game_id = start_game(client)
    html = client.get(f"/black-spy/{game_id}", base_url=opened_at).get_data(as_text=True)
    panel = html.split('<details class="card follow">', 1)[1].split("</details>", 1)[0]
    link = re.search(r'<p class="link"><a href="([^"]+)"', html).group(1)
    return link, said(html, "follow-address"), "/qr.svg" in panel


@pytest.mark.parametrize("listening", ["0.0.0.0"], indirect=True)
def test_opened_on_the_servers_own_device_the_link_names_its_address_on_the_network(
    listening: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    link, note = follow_panel(listening, ON_THIS_DEVICE)
    assert link.startswith(f"{ON_THE_NETWORK}/watch/")
    assert note == (
        "The link uses this machine's address on the network, 192.168.1.20, which the other phones can reach: the address this page is open at would lead each phone to itself."
    )
    # its QR code draws that same link
    drawn: list[str] = []
    monkeypatch.setattr(watch, "qr_svg_file", lambda text: drawn.append(text) or b"<svg/>")
    assert listening.test_client().get(link.removeprefix(ON_THE_NETWORK) + "/qr.svg", base_url=ON_THIS_DEVICE).status_code == 200
    assert drawn == [link]
    # a phone that opened the game at the network address gets that address, with nothing to explain
    link, note = follow_panel(listening, ON_THE_NETWORK)
    assert link.startswith(f"{ON_THE_NETWORK}/watch/") and note is None


@pytest.mark.parametrize("listening", ["127.0.0.1"], indirect=True)
def test_a_server_listening_on_its_own_device_alone_says_no_other_phone_can_follow(listening: Flask) -> None:
    link, note, qr = follow_panel_with_qr(listening, ON_THIS_DEVICE)
    assert link.startswith(f"{ON_THIS_DEVICE}/watch/")
    assert (
        note == "No other phone can open this link: it leads each phone to itself, and this server listens on this device alone."
    )
    # a QR code a friend's phone would scan only to be led to itself is not drawn
    assert not qr
    assert follow_panel_with_qr(listening, "http://phone.example:8000")[2]


@pytest.mark.parametrize("listening", [None], indirect=True)
def test_where_it_is_not_known_what_the_server_listens_on_the_link_is_the_pages_own(listening: Flask) -> None:
    link, note = follow_panel(listening, ON_THIS_DEVICE)
    assert link.startswith(f"{ON_THIS_DEVICE}/watch/") and note is None


@pytest.mark.parametrize("listening", ["0.0.0.0"], indirect=True)
def test_a_host_header_that_names_no_address_gets_the_link_as_asked(listening: Flask) -> None:
    # werkzeug lets "[::::]" through as a host, and urlsplit refuses it: the follow link (on
    # every game page, and its QR code) must not take the page down with it. (The test
    # client cannot send such a host: its own cookie handling splits the url first.)
    with listening.test_request_context("/", headers={"Host": "[::::]"}):
        link = sharing.follow_link("abc")
    assert (link.url, link.note) == ("http://[::::]/watch/abc", None)


def test_the_network_address_is_looked_up_again_once_it_is_old(monkeypatch: pytest.MonkeyPatch) -> None:
    # a laptop moved to another Wi-Fi: its follow link names the new address, without a restart
    answers = iter([["192.168.1.20"], ["10.0.0.7"]])
    monkeypatch.setattr(sharing.addresses, "lan_addresses", lambda: next(answers))
    monkeypatch.setattr(sharing, "_found", {})
    clock = iter([100.0, 110.0, 100.0 + sharing.NETWORK_ADDRESS_SECONDS + 1])
    monkeypatch.setattr(sharing.time, "monotonic", lambda: next(clock))
    assert sharing._network_address() == "192.168.1.20"
    assert sharing._network_address() == "192.168.1.20"
    assert sharing._network_address() == "10.0.0.7"


@pytest.fixture
def both_listeners(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """`companion serve`'s plain address on 8000 and its secure one on 8443, at 192.168.1.20."""
    monkeypatch.setattr(sharing, "_network_address", lambda: "192.168.1.20")
    app = make_app(database_url, LISTENS_ON="0.0.0.0", SECURE_PORT="8443", PLAIN_PORT="8000")
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.mark.parametrize("opened_at", ["https://192.168.1.20:8443", "https://table.local:8443"])
def test_at_the_secure_address_the_link_is_given_at_the_plain_one_which_needs_no_trust(
    both_listeners: Flask, opened_at: str
) -> None:
    link, note = follow_panel(both_listeners, opened_at)
    # by number, never by the name: a phone that opened the name securely asks it by https only
    assert link.startswith(f"{ON_THE_NETWORK}/watch/")
    assert note == "The link uses the plain address, which a phone opens without trusting this table's certificate first."
    # and so are the players' own links
    client = both_listeners.test_client()
    game_id = start_game(client)
    phones = client.get(f"/black-spy/{game_id}/phones", base_url=opened_at).get_data(as_text=True)
    assert re.findall(r'data-seat="0" href="(http://192\.168\.1\.20:8000/seat/)', phones)


@pytest.mark.parametrize("listening", ["0.0.0.0"], indirect=True)
def test_behind_a_proxy_on_https_the_link_stays_as_opened(listening: Flask) -> None:
    link, note = follow_panel(listening, "https://club.example.org")
    assert link.startswith("https://club.example.org/watch/") and note is None
