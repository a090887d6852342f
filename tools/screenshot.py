"""Take the README's screenshot: a game page at 390x844, as a phone shows it (run by hand)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, Server, enter_points, free_port, new_game

ROOT = Path(__file__).resolve().parent.parent
DEALS = ({"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0}, {"Ana": 5, "Ben": 30, "Cy": 10, "Dee": 15})

server = Server(Path(tempfile.mkdtemp()), free_port()).start()
try:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 390, "height": 844})
        new_game(page, server.url, first_dealer=1)
        for number, points in enumerate(DEALS, start=1):
            enter_points(page, points)
            page.get_by_role("button", name=f"Record deal {number}").click()
            page.wait_for_selector(f"text=Deal {number} recorded.")
        page.goto(page.url)
        enter_points(page, {"Ana": 10, "Ben": 20})
        page.evaluate("() => { document.activeElement.blur(); window.scrollTo(0, 0); }")
        page.screenshot(path=str(ROOT / "docs" / "game-390x844.png"))
        browser.close()
finally:
    server.stop()
