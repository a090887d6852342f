"""The history filter and the follow panel on a phone, with and without JavaScript."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import Server, enter_points, free_port, new_game, phone_context
from tests.databases import Databases


def finished_and_going(page: Page, server: Server) -> tuple[str, str]:
    """One finished game and one under way; their urls."""
    over = new_game(page, server.url, names=("Eve", "Fay", "Gus"), end_value="10")
    enter_points(page, {"Eve": 20, "Fay": 20, "Gus": 20})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    going = new_game(page, server.url, names=("Hal", "Ida", "Jo"))
    return over, going


def listed(page: Page) -> list[str]:
    return [
        href.rsplit("/", 1)[-1]
        for href in page.locator("#history-games .game-list a").evaluate_all("(links) => links.map((a) => a.href)")
    ]


def test_the_history_filter_applies_as_soon_as_it_is_chosen(phone: Page, server: Server) -> None:
    over, going = finished_and_going(phone, server)
    phone.goto(f"{server.url}/history")
    expect(phone.get_by_role("button", name="Show")).to_be_hidden()
    phone.get_by_label("Games").select_option("finished")
    expect(phone).to_have_url(re.compile(r"/history\?.*state=finished"))
    assert over.rsplit("/", 1)[-1] in listed(phone) and going.rsplit("/", 1)[-1] not in listed(phone)
    phone.get_by_label("Games").select_option("in-progress")
    expect(phone).to_have_url(re.compile(r"state=in-progress"))
    assert going.rsplit("/", 1)[-1] in listed(phone) and over.rsplit("/", 1)[-1] not in listed(phone)
    # the address holds the filter: a reload shows the same games
    phone.reload()
    expect(phone.get_by_label("Games")).to_have_value("in-progress")
    assert over.rsplit("/", 1)[-1] not in listed(phone)


def test_without_javascript_the_history_filter_has_its_button(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    over, going = finished_and_going(page, server)
    context.close()
    context = phone_context(browser, java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{server.url}/history")
    page.get_by_label("Games").select_option("finished")
    page.get_by_role("button", name="Show").click()
    expect(page).to_have_url(re.compile(r"state=finished"))
    assert over.rsplit("/", 1)[-1] in listed(page) and going.rsplit("/", 1)[-1] not in listed(page)
    context.close()


@pytest.fixture
def on_the_network(tmp_path: Path, databases: Databases) -> Iterator[Server]:
    """A server as `make serve` runs it, listening on every address (the test still reaches
    it on loopback alone): its follow link is one other phones can open, with a QR code."""
    running = Server(tmp_path / "instance", free_port(), databases.empty(), options=("--host", "0.0.0.0")).start()
    yield running
    running.stop()


def test_the_follow_panels_qr_code_loads_when_opened_and_sits_in_the_middle(phone: Page, on_the_network: Server) -> None:
    asked: list[str] = []
    phone.on("request", lambda request: asked.append(request.url))
    new_game(phone, on_the_network.url)
    phone.wait_for_load_state("networkidle")
    # a game page's first load goes without the code: it is fetched when the panel opens
    assert not [url for url in asked if url.endswith("/qr.svg")], asked
    phone.locator(".follow summary").click()
    image = phone.locator(".follow figure img")
    expect(image).to_have_js_property("complete", True)
    assert image.evaluate("(img) => img.naturalWidth") > 100
    assert [url for url in asked if url.endswith("/qr.svg")]
    code = image.bounding_box()
    panel = phone.locator(".follow").evaluate(
        """(card) => {
          const box = card.getBoundingClientRect(), style = getComputedStyle(card);
          return {left: box.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth),
                  right: box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth)};
        }"""
    )
    middle = (panel["left"] + panel["right"]) / 2
    assert abs(code["x"] + code["width"] / 2 - middle) <= 1, (code, panel)


def test_a_server_listening_on_its_own_device_alone_tells_the_table_no_other_phone_can_follow(
    phone: Page, server: Server
) -> None:
    # the test servers listen on 127.0.0.1 (tests/servers.py), as `HOST=127.0.0.1 make serve` would
    new_game(phone, server.url)
    phone.locator(".follow summary").click()
    expect(phone.locator("#follow-address")).to_have_text(
        "No other phone can open this link: it leads each phone to itself, and this server listens on this device alone."
    )
