"""Nothing typed is lost when the server's database is down: the deal waits on the phone as
when the Wi-Fi drops, a reload shows the phone's copy of the game, and once the database is
back each deal is stored once, in order."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import Server, enter_points, free_port, new_game, phone_context, under_the_worker
from tests.clusters import Cluster

DEALS = [
    {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0},
    {"Ana": 10, "Ben": 30, "Cy": 0, "Dee": 20},
    {"Ana": 5, "Ben": 5, "Cy": 45, "Dee": 5},
]


@pytest.fixture
def on_postgresql(tmp_path: Path) -> Iterator[tuple[Server, Cluster]]:
    cluster = Cluster()
    server = Server(tmp_path / "instance", free_port(), cluster.url).start()
    yield server, cluster
    server.stop()
    cluster.remove()


def stored(game: str) -> list[dict[str, int]]:
    with urllib.request.urlopen(f"{game}/export.json") as response:
        return [deal["raw"] for deal in json.load(response)["games"][0]["deals"]]


def record(page: Page, number: int, points: dict[str, int]) -> None:
    enter_points(page, points)
    page.get_by_role("button", name=f"Record deal {number}").click()


def test_deals_recorded_while_the_database_is_stopped_wait_on_the_phone_and_are_stored_once_it_is_back(
    browser: Browser, on_postgresql: tuple[Server, Cluster]
) -> None:
    server, cluster = on_postgresql
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    under_the_worker(page)
    page.goto(game)
    record(page, 1, DEALS[0])
    expect(page.locator(".messages").first).to_contain_text("Deal 1 recorded.")
    # the phone's copy of the game is made anew after a deal is recorded
    kept_with_deal_1 = """async () => {
        const kept = await caches.match(location.href, {ignoreVary: true});
        return !!kept && (await kept.text()).includes('data-recorded="1"');
    }"""
    deadline = time.monotonic() + 20
    while not page.evaluate(kept_with_deal_1):
        assert time.monotonic() < deadline, "the phone kept no copy of the game with deal 1"
        page.wait_for_timeout(100)
    cluster.stop()
    status = page.locator(".offline-status")
    try:
        record(page, 2, DEALS[1])
        # the server's words, and the deal kept on the phone as when the Wi-Fi drops
        expect(page.locator("#busy")).to_contain_text("The server cannot reach its database just now, so nothing was saved.")
        expect(status).to_contain_text("Deal 2 is saved on this phone")
        expect(page.locator("#next-deal-title")).to_have_text("Deal 3: Cy deals")
        record(page, 3, DEALS[2])
        expect(status).to_contain_text("2 deals are waiting to be sent.")
        # a reload while the database is down shows the phone's copy of the game, not an error
        page.reload()
        expect(page.locator(".offline-copy")).to_contain_text("This page is a copy kept on this phone from")
        expect(page.locator(".deals tr.offline-row")).to_have_count(2)
        assert page.locator(".deals tbody tr:not(.offline-row)").count() == 1
    finally:
        cluster.start()
    expect(status).to_contain_text("2 deals saved on this phone are now recorded.", timeout=45_000)
    assert stored(game) == DEALS
    context.close()
