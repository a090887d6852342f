"""The secure address: the trust page, the headers of a secure origin, and a proxy in front."""

from __future__ import annotations

import plistlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from cryptography import x509
from flask import Flask
from flask.testing import FlaskClient

from companion.serving import addresses, tls
from companion.store.base import db
from tests.helpers import make_app, post_points, running_app, start_game, watch_url

PLAIN_LAN = "http://table.lan:8000"
SECURE_LAN = "https://table.lan:8443"
PAGES = ["/", "/new", "/new?game=spy", "/history", "/players", "/rules/black-spy", "/rules/spy", "/offline"]


@pytest.fixture
def lan_app(sqlite_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """The app on a SQLite file in every pass: what a phone is told of its address does not
    vary by the database engine."""
    with running_app(sqlite_database_url, tmp_path / "instance", monkeypatch) as app:
        yield app


@pytest.fixture
def served(lan_app: Flask) -> Flask:
    """The app as `companion serve` runs it: an authority made, a secure listener on 8443."""
    tls.ensure(Path(lan_app.instance_path) / "tls", addresses.wanted_names(["table.lan"]))
    lan_app.config["SECURE_PORT"] = 8443
    return lan_app


def full_app_line(html: str) -> re.Match | None:
    return re.search(r'<p class="secure-missing" data-secure-missing( hidden)?>', html)


@pytest.mark.parametrize("page", PAGES)
def test_every_page_at_the_plain_lan_address_says_what_the_phone_is_missing(served: Flask, page: str) -> None:
    html = served.test_client().get(page, base_url=PLAIN_LAN).get_data(as_text=True)
    line = full_app_line(html)
    assert line and line.group(1) is None, "the full-app line is missing or hidden"
    assert 'href="/phone"' in html


@pytest.mark.parametrize("base", [SECURE_LAN, "http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000"])
def test_at_the_secure_address_or_on_the_server_itself_the_line_is_hidden(served: Flask, base: str) -> None:
    html = served.test_client().get("/", base_url=base).get_data(as_text=True)
    line = full_app_line(html)
    assert line and line.group(1) == " hidden"


def test_the_trust_page_offers_the_certificate_the_fingerprint_and_the_secure_address(served: Flask) -> None:
    html = served.test_client().get("/phone", base_url=PLAIN_LAN).get_data(as_text=True)
    material = tls.load(Path(served.instance_path) / "tls")
    assert material.ca_fingerprint in re.sub(r"<[^>]+>", "", html)  # pairs are spans, so none splits
    assert 'href="/phone/companion.mobileconfig"' in html
    assert 'href="/phone/companion-ca.crt"' in html
    assert 'href="https://table.lan:8443/phone"' in html  # the certificate names table.lan (the fixture's extra name)
    assert "<svg" in html  # the QR code of the secure address
    for steps in ("On Android (Chrome)", "On iPhone or iPad (Safari)", "On a computer"):
        assert steps in html


def test_at_the_secure_address_the_trust_page_says_the_phone_is_set(served: Flask) -> None:
    html = served.test_client().get("/phone", base_url=SECURE_LAN).get_data(as_text=True)
    assert 'data-phone-state="set"' in html
    assert "companion.mobileconfig" not in html


def test_the_iphone_profile_installs_the_authority_as_a_root(served: Flask) -> None:
    response = served.test_client().get("/phone/companion.mobileconfig", base_url=PLAIN_LAN)
    assert response.status_code == 200
    assert response.mimetype == "application/x-apple-aspen-config"
    assert "attachment" in response.headers["Content-Disposition"]
    profile = plistlib.loads(response.data)
    (payload,) = profile["PayloadContent"]
    assert payload["PayloadType"] == "com.apple.security.root"
    authority = x509.load_der_x509_certificate(payload["PayloadContent"])
    assert authority.extensions.get_extension_for_class(x509.NameConstraints).critical


def test_android_and_desktops_get_the_authority_as_a_crt(served: Flask) -> None:
    response = served.test_client().get("/phone/companion-ca.crt", base_url=PLAIN_LAN)
    assert response.status_code == 200
    assert response.mimetype == "application/x-x509-ca-cert"
    authority = x509.load_der_x509_certificate(response.data)
    assert authority.extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def test_the_trust_page_is_open_before_the_passcode(
    sqlite_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(sqlite_database_url, PASSCODE="table-7")
    tls.ensure(Path(app.instance_path) / "tls", addresses.wanted_names())
    app.config["SECURE_PORT"] = 8443
    client = app.test_client()
    assert client.get("/", base_url=PLAIN_LAN).status_code in (302, 303, 401)
    assert client.get("/phone", base_url=PLAIN_LAN).status_code == 200
    assert client.get("/phone/companion-ca.crt", base_url=PLAIN_LAN).status_code == 200
    with app.app_context():
        db.engine.dispose()


def test_without_a_secure_listener_the_trust_page_says_so_and_offers_no_certificate(lan_app: Flask) -> None:
    html = lan_app.test_client().get("/phone", base_url=PLAIN_LAN).get_data(as_text=True)
    assert "This server has no secure address" in html
    assert lan_app.test_client().get("/phone/companion-ca.crt", base_url=PLAIN_LAN).status_code == 404


def test_a_missing_wake_lock_says_why_instead_of_hiding(served: Flask) -> None:
    client = served.test_client()
    game = start_game(client)
    html = client.get(f"/black-spy/{game}", base_url=PLAIN_LAN).get_data(as_text=True)
    assert 'class="wake-lock-missing"' in html
    assert "Screen kept on: needs the secure address" in html


def test_a_follower_at_the_plain_address_is_not_told_the_phone_lacks_the_full_app(served: Flask) -> None:
    client = served.test_client()
    game = start_game(client)
    for _ in range(9):
        post_points(client, game, [20, 15, 25, 0])
    lacks = "This phone lacks the full app at this address"
    assert lacks in client.get(f"/black-spy/{game}", base_url=PLAIN_LAN).get_data(as_text=True)
    follow = watch_url(served, game)
    # a read-only page needs no secure context: nothing to get
    for page in (follow, f"{follow}/all"):
        followed = client.get(page, base_url=PLAIN_LAN)
        assert followed.status_code == 200 and lacks not in followed.get_data(as_text=True), page


@pytest.mark.parametrize("page", ["/", "/phone", "/manifest.webmanifest", "/sw.js", "/nothing-here"])
def test_every_response_carries_the_headers_of_a_careful_origin(served: Flask, page: str) -> None:
    response = served.test_client().get(page, base_url=PLAIN_LAN)
    policy = response.headers["Permissions-Policy"]
    assert "screen-wake-lock=(self)" in policy
    assert "camera=()" in policy and "geolocation=()" in policy and "microphone=()" in policy
    assert response.headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert "Strict-Transport-Security" not in response.headers
    # a browser heeds the opener policy only in a secure context, and logs it anywhere else
    assert "Cross-Origin-Opener-Policy" not in response.headers
    secure = served.test_client().get(page, base_url=SECURE_LAN)
    assert secure.headers["Cross-Origin-Opener-Policy"] == "same-origin"


def test_over_https_the_cookie_is_secure_and_strict_transport_security_is_sent(served: Flask) -> None:
    served.config["WTF_CSRF_ENABLED"] = True  # the form's token puts the session cookie on the page
    response = served.test_client().get("/new", base_url=SECURE_LAN)
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")
    cookie = response.headers["Set-Cookie"]
    assert "Secure" in cookie
    plain = served.test_client().get("/new", base_url=PLAIN_LAN)
    assert "Secure" not in plain.headers["Set-Cookie"]


@contextmanager
def proxied_app(sqlite_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, **env: str) -> Iterator[Flask]:
    """An app made with these environment variables, as `companion serve` would read them."""
    with running_app(sqlite_database_url, tmp_path / "instance", monkeypatch, **env) as app:
        yield app


def session_cookie(app: Flask, **headers: str) -> tuple[str, dict]:
    """The Set-Cookie of a page whose form token starts a session, and the page's headers."""
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().get("/new", headers=headers)
    app.config["WTF_CSRF_ENABLED"] = False
    return response.headers["Set-Cookie"], dict(response.headers)


FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example.org", "X-Forwarded-For": "203.0.113.9"}


def follow_link(client: FlaskClient, game: str, **headers: str) -> str:
    html = client.get(f"/black-spy/{game}", headers=headers).get_data(as_text=True)
    return re.search(r'<p class="link"><a href="([^"]+)"', html).group(1)


def test_behind_the_trusted_proxy_links_and_the_cookie_follow_its_https(
    sqlite_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxied_app(sqlite_database_url, tmp_path, monkeypatch, COMPANION_PROXY="1") as app:
        client = app.test_client()
        assert follow_link(client, start_game(client), **FORWARDED).startswith("https://games.example.org/watch/")
        cookie, headers = session_cookie(app, **FORWARDED)
        assert "Secure" in cookie
        assert "Strict-Transport-Security" in headers


def test_without_companion_proxy_forwarded_headers_are_not_believed(
    sqlite_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COMPANION_PROXY", raising=False)
    with proxied_app(sqlite_database_url, tmp_path, monkeypatch) as app:
        client = app.test_client()
        assert follow_link(client, start_game(client), **FORWARDED).startswith("http://localhost/watch/")
        cookie, _ = session_cookie(app, **FORWARDED)
        assert "Secure" not in cookie


def test_with_companion_hosts_a_foreign_host_is_refused(
    sqlite_database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with proxied_app(sqlite_database_url, tmp_path, monkeypatch, COMPANION_HOSTS="table.lan, games.example.org") as app:
        client = app.test_client()
        assert client.get("/", base_url="http://table.lan:8000").status_code == 200
        assert client.get("/", base_url="https://games.example.org").status_code == 200
        refused = client.get("/", headers={"Host": "evil.example"})
        assert refused.status_code == 400
        assert "evil.example" not in refused.get_data(as_text=True)


def test_a_name_the_certificate_lacks_is_replaced_by_a_lan_address_it_has(lan_app: Flask) -> None:
    tls.ensure(Path(lan_app.instance_path) / "tls", ["localhost", "127.0.0.1", "192.168.1.20"])
    lan_app.config["SECURE_PORT"] = 8443
    html = lan_app.test_client().get("/phone", base_url="http://router-made-name.lan:8000").get_data(as_text=True)
    assert 'href="https://192.168.1.20:8443/phone"' in html
    assert "router-made-name.lan:8443" not in html


def test_the_server_s_own_machine_is_told_it_needs_nothing(served: Flask) -> None:
    html = served.test_client().get("/phone", base_url="http://127.0.0.1:8000").get_data(as_text=True)
    assert "This is the server's own machine" in html
    assert "reached the companion at its secure address" not in html
