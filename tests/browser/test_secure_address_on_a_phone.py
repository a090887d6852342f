"""A phone on the Wi-Fi, as Chromium sees it: the plain LAN address, then the secure one.

The LAN name is mapped to 127.0.0.1 inside Chromium (no traffic leaves the machine), and
the server's own key is trusted by its SPKI hash, as a phone that trusted the table's
authority would: that makes a real secure context, with a service worker and wake lock.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from companion.serving import tls
from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, PHONE, Server, enter_points, free_port, new_game, under_the_worker
from tests.databases import Databases

LAN_NAME = f"{socket.gethostname().split('.')[0]}.local"
PLAIN_NAME = "table-host.lan"  # any name but localhost: a phone's view of the plain address


@pytest.fixture
def secure_server(tmp_path: Path, databases: Databases) -> Iterator[Server]:
    running = Server(tmp_path / "instance", free_port(), databases.empty(), https_port=free_port()).start()
    yield running
    running.stop()


def lan_phone(browser: Browser, profile: Path, server: Server) -> BrowserContext:
    """A phone with a profile of its own that resolves the LAN names and trusts the table's key."""
    material = tls.load(server.folder / "tls")
    assert material is not None, "companion serve made no certificate"
    return browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=CHROMIUM,
        headless=True,
        args=[
            *CHROMIUM_ARGS,
            f"--host-resolver-rules=MAP {LAN_NAME} 127.0.0.1, MAP {PLAIN_NAME} 127.0.0.1",
            f"--ignore-certificate-errors-spki-list={material.spki_sha256}",
        ],
        viewport=PHONE,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )


def page_of(context: BrowserContext) -> Page:
    return context.pages[0] if context.pages else context.new_page()


def test_at_the_plain_lan_address_the_phone_is_told_what_it_lacks_and_where_to_get_it(
    browser: Browser, secure_server: Server, tmp_path: Path
) -> None:
    context = lan_phone(browser, tmp_path / "profile", secure_server)
    page = page_of(context)
    plain = f"http://{PLAIN_NAME}:{secure_server.port}"
    game = new_game(page, plain)
    assert page.evaluate("() => window.isSecureContext") is False
    line = page.locator("[data-secure-missing]")
    expect(line).to_be_visible()
    expect(line).to_contain_text("no screen kept on")  # the line says it once, for every feature
    expect(page.locator(".wake-lock")).to_be_hidden()
    line.get_by_role("link").click()
    page.wait_for_url("**/phone")
    expect(page.get_by_role("heading", name="The full app on this phone")).to_be_visible()
    expect(page.locator('[data-feature="offline"] [data-status]')).to_have_text("needs the secure address")
    expect(page.locator("[data-secure-missing]")).to_have_count(0)  # no line pointing at the page itself
    # the router's name is not in the certificate: the secure link offers a name that is
    secure = page.locator(".trust-address a")
    material = tls.load(secure_server.folder / "tls")
    host = secure.get_attribute("href").split("//", 1)[1].rsplit(":", 1)[0]
    assert host != PLAIN_NAME and host in material.names, host
    fingerprint = tls.load(secure_server.folder / "tls").ca_fingerprint
    expect(page.locator(".fingerprint code")).to_have_text(fingerprint)
    page.goto(f"http://{LAN_NAME}:{secure_server.port}/phone")  # a name the certificate has is kept
    expect(page.locator(".trust-address a")).to_have_attribute("href", f"https://{LAN_NAME}:{secure_server.https_port}/phone")
    page.screenshot(path=str(tmp_path / "trust-page.png"), full_page=True)
    assert game
    context.close()


def test_at_the_secure_address_the_phone_gets_the_whole_app_and_keeps_it_offline(
    browser: Browser, secure_server: Server, tmp_path: Path
) -> None:
    context = lan_phone(browser, tmp_path / "profile", secure_server)
    page = page_of(context)
    secure = f"https://{LAN_NAME}:{secure_server.https_port}"
    page.goto(f"{secure}/phone")
    assert page.evaluate("() => window.isSecureContext") is True
    expect(page.locator('[data-phone-state="set"]')).to_be_visible()
    expect(page.locator("[data-secure-missing]")).to_be_hidden()

    game = new_game(page, secure)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    under_the_worker(page)

    cdp = context.new_cdp_session(page)
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert errors == [], errors

    expect(page.locator(".wake-lock")).to_be_visible()
    expect(page.locator(".wake-lock")).to_have_class("wake-lock on")
    expect(page.locator(".wake-lock-missing")).to_be_hidden()

    page.goto(game)  # the worker keeps the page once visited with it in control
    secure_server.stop()
    page.reload()
    expect(page.locator("#next-deal-title")).to_have_text("Deal 2: Ben deals")
    context.close()
