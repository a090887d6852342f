"""How long a phone takes, once the connection is back, to send the deals it kept offline.

Starts `companion serve` on loopback with a fresh SQLite database, opens a Black Spy game
(four players, end value 10,000 so no game ends) in Debian's Chromium at phone size,
cuts the phone's network (Playwright's ``set_offline``), records 1, 10 and 50 deals
through the deal form as a player would (each kept on the phone), then gives the network
back and times, in the page, from the ``online`` event to the moment the queue is empty:
every deal sent in order and stored. Each size is run ``--repeats`` times on a new game;
the server's export is checked to hold exactly the deals typed, once each, in order.

Run by hand:

    .venv/bin/python benchmarks/offline_replay.py
    .venv/bin/python benchmarks/offline_replay.py --sizes 1,10,50,100 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, Server, enter_points, free_port, new_game, phone_context

DEALS = [
    {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0},
    {"Ana": 10, "Ben": 30, "Cy": 0, "Dee": 20},
    {"Ana": 5, "Ben": 5, "Cy": 45, "Dee": 5},
    {"Ana": 0, "Ben": 0, "Cy": 30, "Dee": 30},
]

# the page tells when its queue changes (companion:queue); this waits for the first empty one
# after the network comes back, and answers with the time it took from the online event
TIMER = """() => {
    window.__replayed = new Promise((resolve) => {
        window.addEventListener("online", () => {
            const back = performance.now();
            document.addEventListener("companion:queue", function done(event) {
                if (event.detail.waiting !== 0) return;
                document.removeEventListener("companion:queue", done);
                resolve(performance.now() - back);
            });
        }, {once: true});
    });
}"""


def stored(game: str) -> list[dict[str, int]]:
    with urllib.request.urlopen(f"{game}/export.json") as response:
        return [deal["raw"] for deal in json.load(response)["games"][0]["deals"]]


def replay(page: Page, context, server: Server, size: int) -> float:
    game = new_game(page, server.url, end_value="10000")
    context.set_offline(True)
    typed = [DEALS[number % len(DEALS)] for number in range(size)]
    for number, points in enumerate(typed, start=1):
        enter_points(page, points)
        page.get_by_role("button", name=f"Record deal {number}").click()
        expect(page.locator(".offline-status")).to_contain_text(f"Deal {number} is saved on this phone")
    page.evaluate(TIMER)
    context.set_offline(False)
    took = page.evaluate("() => window.__replayed")
    if stored(game) != typed:
        raise SystemExit(f"the server does not hold the {size} deals typed, once each, in order")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,50", help="how many deals wait, comma-separated")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    server = Server(Path(tempfile.mkdtemp()), free_port()).start()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            print(f"{'waiting deals':>13} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'ms per deal':>12}")
            for size in sizes:
                times = []
                for _ in range(args.repeats):
                    context = phone_context(browser)
                    page = context.new_page()
                    times.append(replay(page, context, server, size))
                    context.close()
                middle = statistics.median(times)
                print(f"{size:>13} {middle:>10.0f} {min(times):>8.0f} {max(times):>8.0f} {middle / size:>12.1f}")
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
