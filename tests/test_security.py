"""Strangers on a public server: headers, the organiser's passcode, and its cookie."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import make_app, post_points, start_game


def get_routes(app: Flask, values: dict[str, str]) -> list[str]:
    """Every GET url of the app, its variables filled from ``values``."""
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        url = rule.rule
        for name in rule.arguments:
            url = re.sub(
                rf"<(?:[a-z]+:)?{name}>",
                values[f"{rule.endpoint.split('.')[0]}:{name}"]
                if f"{rule.endpoint.split('.')[0]}:{name}" in values
                else values[name],
                url,
            )
        urls.append(url)
    return urls


def a_game_of_each_kind(client: FlaskClient) -> dict[str, str]:
    black_spy = start_game(client)
    post_points(client, black_spy, [20, 15, 25, 0])
    response = client.post(
        "/spy/new",
        data={"spy-player-0": "Ana", "spy-player-1": "Ben", "spy-colour-0": "green", "spy-colour-1": "red", "first_player": "0"},
    )
    assert response.status_code == 303
    from companion.store.games import Game

    spy_game = response.location.rsplit("/", 1)[1]
    with client.application.app_context():
        from companion.store.base import db

        watch = db.session.get(Game, spy_game).watch_id
    pad = client.post("/scorepad/new", data={"pad-name": "Golf", "pad-player-0": "Ana", "pad-player-1": "Ben"})
    assert pad.status_code == 303
    return {
        "black_spy:game_id": black_spy,
        "spy:game_id": spy_game,
        "scorepad:game_id": pad.location.rsplit("/", 1)[1],
        # a game's page asking whether to delete it (the answer is a POST)
        "deleting:game_id": black_spy,
        # where the players' shares stand, asked by the scorer's page once seat links are out
        "seats:game_id": black_spy,
        "number": "1",
        "player_id": "1",
        "link": re.search(
            r'data-seat="0" href="[^"]*/seat/([^"]+)"', client.get(f"/black-spy/{black_spy}/phones").get_data(as_text=True)
        ).group(1),  # type: ignore[union-attr]
        "watch_id": watch,
        "filename": "css/app.css",
    }


def test_every_get_route_sends_the_security_headers(app: Flask, client: FlaskClient) -> None:
    values = a_game_of_each_kind(client)
    urls = [*get_routes(app, values), "/no/such/page", "/black-spy/nothing"]
    assert len(urls) >= 12
    for url in urls:
        response = client.get(url)
        assert response.status_code < 500, url
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
        if url.startswith("/static/"):
            continue  # a stylesheet is no document (test_a_stylesheet_or_script_goes_without…)
        policy = response.headers["Content-Security-Policy"]
        assert "default-src 'self'" in policy, url
        assert "frame-ancestors 'none'" in policy, url
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, url
        assert response.headers["X-Content-Type-Options"] == "nosniff", url
        assert response.headers["Referrer-Policy"] in ("same-origin", "no-referrer", "strict-origin-when-cross-origin"), url


def test_pages_carry_no_inline_script_or_style_that_the_policy_would_block(app: Flask, client: FlaskClient) -> None:
    values = a_game_of_each_kind(client)
    for url in get_routes(app, values):
        response = client.get(url)
        if response.mimetype != "text/html":
            continue
        html = response.get_data(as_text=True)
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert "<style" not in html and " style=" not in html, url
        assert not re.search(r"\son[a-z]+=", html), url


@pytest.fixture(autouse=True)
def instance_of_its_own(tmp_path, monkeypatch) -> None:
    # the count of wrong tries is kept in the instance folder: each test starts at none
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))


@pytest.fixture
def private(database_url: str) -> Flask:
    return make_app(database_url, PASSCODE="open sesame", RATELIMIT_ENABLED=True)


def test_with_a_passcode_every_page_asks_for_it_but_what_a_phone_needs_to_install(private: Flask) -> None:
    client = private.test_client()
    for url in ("/", "/new", "/export.json", "/black-spy/anything"):
        response = client.get(url)
        assert response.status_code == 303, url
        assert response.location.startswith("/passcode?next="), url
    for url in ("/manifest.webmanifest", "/sw.js", "/offline", "/static/css/app.css"):
        assert client.get(url).status_code == 200, url
    # a write is refused outright: the passcode's page, not a redirect to a page the write cannot be
    refused = client.post("/black-spy/new", data={"player-0": "Ana"})
    assert refused.status_code == 403 and 'name="passcode"' in refused.get_data(as_text=True)


def test_the_right_passcode_lets_this_device_in_and_the_wrong_one_does_not(private: Flask) -> None:
    client = private.test_client()
    wrong = client.post("/passcode", data={"passcode": "sesame", "next": "/new"})
    assert wrong.status_code == 401
    assert "That is not the passcode." in wrong.get_data(as_text=True)
    assert client.get("/new").status_code == 303
    right = client.post("/passcode", data={"passcode": "open sesame", "next": "/new"})
    assert right.status_code == 303 and right.location == "/new"
    cookie = right.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    assert client.get("/new").status_code == 200


def test_the_passcode_cookie_is_secure_behind_https(private: Flask) -> None:
    client = private.test_client()
    response = client.post("/passcode", data={"passcode": "open sesame"}, base_url="https://club.example")
    assert "Secure" in response.headers["Set-Cookie"]


def test_the_passcode_never_sends_anyone_to_another_site(private: Flask) -> None:
    client = private.test_client()
    response = client.post("/passcode", data={"passcode": "open sesame", "next": "//evil.example/"})
    assert response.location == "/"


def test_passcode_attempts_are_rate_limited(private: Flask) -> None:
    client = private.test_client()
    statuses = [client.post("/passcode", data={"passcode": f"guess {n}"}).status_code for n in range(7)]
    assert statuses[:5] == [401] * 5
    assert statuses[5:] == [429, 429]


def test_a_table_signing_in_together_from_one_network_is_never_paused(private: Flask) -> None:
    # eight phones behind one address type the passcode right, with a slip among them
    statuses = [private.test_client().post("/passcode", data={"passcode": "open sesame"}).status_code for _ in range(8)]
    statuses.append(private.test_client().post("/passcode", data={"passcode": "open sesam"}).status_code)
    statuses += [private.test_client().post("/passcode", data={"passcode": "open sesame"}).status_code for _ in range(4)]
    assert statuses == [303] * 8 + [401] + [303] * 4


def test_the_pause_after_too_many_wrong_tries_says_how_long_and_for_whom(private: Flask) -> None:
    client = private.test_client()
    for n in range(5):
        client.post("/passcode", data={"passcode": f"guess {n}"})
    paused = client.post("/passcode", data={"passcode": "open sesame", "next": "/new"})
    assert paused.status_code == 429
    seconds = int(paused.headers["Retry-After"])
    assert 1 <= seconds <= 60
    html = paused.get_data(as_text=True)
    assert f"the passcode is paused for {seconds} second" in html and "for every phone on this network" in html
    # the form is still there to try again once the pause is over
    assert 'name="passcode"' in html and 'value="/new"' in html


def test_changing_the_passcode_signs_every_device_out(database_url: str) -> None:
    before = make_app(database_url, PASSCODE="open sesame")
    phone = before.test_client()
    assert phone.post("/passcode", data={"passcode": "open sesame"}).status_code == 303
    cookie = phone.get_cookie("session")
    assert cookie is not None
    # the server restarted with the same passcode: still in; with a new one: out
    for passcode, status in (("open sesame", 200), ("a new passcode", 303)):
        restarted = make_app(database_url, PASSCODE=passcode).test_client()
        restarted.set_cookie("session", cookie.value)
        assert restarted.get("/new").status_code == status, passcode


def test_signing_in_renews_the_form_token(database_url: str) -> None:
    app = make_app(database_url, PASSCODE="open sesame", WTF_CSRF_ENABLED=True)
    phone = app.test_client()
    page = phone.get("/passcode").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    with phone.session_transaction() as session:
        before = session["csrf_token"]
    assert phone.post("/passcode", data={"passcode": "open sesame", "csrf_token": token}).status_code == 303
    phone.get("/new")
    with phone.session_transaction() as session:
        assert session.get("csrf_token") not in (None, before)
    # a form from before signing in is refused, one from after is taken
    assert phone.post("/black-spy/new", data={"csrf_token": token, "player-0": "Ana"}).status_code == 400


def test_only_a_hash_of_the_passcode_is_kept(private: Flask) -> None:
    kept = repr(dict(private.config))
    assert "open sesame" not in kept
    assert private.config["PASSCODE_HASH"].startswith(("scrypt:", "pbkdf2:"))


def test_the_secret_key_is_made_once_per_install_and_kept(tmp_path, monkeypatch) -> None:
    from companion import create_app

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path))
    monkeypatch.delenv("SECRET_KEY", raising=False)
    database = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    first = create_app({"SQLALCHEMY_DATABASE_URI": database}).config["SECRET_KEY"]
    second = create_app({"SQLALCHEMY_DATABASE_URI": database}).config["SECRET_KEY"]
    assert first == second and len(first) >= 32
    assert (tmp_path / "secret_key").stat().st_mode & 0o077 == 0


def test_sqlite_runs_with_wal_a_busy_timeout_and_foreign_keys(tmp_path) -> None:
    from companion.store.base import db

    # always on sqlite, whichever database this run of the suite uses
    app = make_app(f"sqlite:///{tmp_path / 'pragmas.sqlite3'}")
    with app.app_context(), db.engine.connect() as connection:
        pragma = lambda name: connection.exec_driver_sql(f"PRAGMA {name}").scalar()  # noqa: E731
        assert pragma("journal_mode") == "wal"
        assert pragma("busy_timeout") >= 1000
        assert pragma("foreign_keys") == 1


def test_wrong_tries_are_counted_across_the_worker_processes_of_one_server(database_url: str) -> None:
    # two apps on one instance folder stand for two worker processes of one server
    first = make_app(database_url, PASSCODE="open sesame", RATELIMIT_ENABLED=True).test_client()
    second = make_app(database_url, PASSCODE="open sesame", RATELIMIT_ENABLED=True).test_client()
    statuses = [(first if n % 2 else second).post("/passcode", data={"passcode": f"guess {n}"}).status_code for n in range(7)]
    assert statuses == [401] * 5 + [429, 429]


def test_a_stylesheet_or_script_goes_without_the_headers_only_a_document_reads(client: FlaskClient) -> None:
    for url in ("/static/css/app.css", "/static/js/app.js?v=1"):
        response = client.get(url, headers={"Accept-Encoding": "br"})
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"
        for needless in (
            "Content-Security-Policy",
            "Referrer-Policy",
            "X-Frame-Options",
            "Permissions-Policy",
            "Cross-Origin-Opener-Policy",
            "Content-Disposition",
            "Expires",
            "Last-Modified",
            "Accept-Ranges",
        ):
            assert needless not in response.headers, (url, needless)
        assert response.headers["Vary"] == "Accept-Encoding", url
    # kept a year; the url of a file that changes changes (asset_url), so it is never asked again
    assert "immutable" in client.get("/static/js/app.js?v=1").headers["Cache-Control"]
    assert "immutable" not in client.get("/static/js/app.js").headers["Cache-Control"]
    # an svg opened on its own is a document: nothing from elsewhere in it, and no frame
    icon = client.get("/static/icons/icon.svg").headers
    assert "default-src 'self'" in icon["Content-Security-Policy"] and icon["X-Frame-Options"] == "DENY"


def test_the_features_policy_names_only_features_chromium_knows(client: FlaskClient) -> None:
    # Chromium warns on every page about a feature it does not know: the console stays quiet
    policy = client.get("/new").headers["Permissions-Policy"]
    assert "bluetooth" not in policy and "web-share" not in policy
    assert "screen-wake-lock=(self)" in policy and "camera=()" in policy
