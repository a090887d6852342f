"""Browser tests: Debian's Chromium driven by Playwright against `companion serve` on loopback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, Server, free_port, phone_context
from tests.databases import Databases

# expect() waits 5 s by default, far below the 30 s Playwright gives every other action: a
# page that shows the right thing late, on a machine busy with other work, is still right
expect.set_options(timeout=20_000)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Server]:
    """One server for the browser tests of each test worker: every test makes games of its
    own, and none may count on a database that only it wrote to (``own_server`` for that)."""
    running = Server(tmp_path_factory.mktemp("server"), free_port(), databases.fresh()).start()
    yield running
    running.stop()


@pytest.fixture
def own_server(tmp_path: Path, databases: Databases) -> Iterator[Server]:
    """A server this test alone uses, and may stop."""
    running = Server(tmp_path / "instance", free_port(), databases.fresh()).start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = phone_context(browser)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], f"the page raised script errors: {errors}"
