"""What a player feels: the time from a tap on Record to the settled screen, early in a
game and late in one, on a mid-range phone.

Starts `companion serve` on loopback, loads pairs of games with ``companion import`` (a
6-player Black Spy game at deal 6 and at deal 41, a 3-player Spy game at turn 5 and at
turn 100, a score pad at round 5 and at round 60), and opens them in Debian's Chromium at
390×844 with the CPU slowed 4× (CDP ``Emulation.setCPUThrottlingRate``, as Lighthouse
models a mid-range phone). Each tap goes to a fresh game of its pair, alternating early
and late so both meet the same noise; between taps the page fetches its own stylesheet,
the yardstick the ratios are against (three times a pair: one fetch ranges from 7 to 36 ms
in a run, and the median of thirty moves less than one of ten). A tap's time runs from its
``click`` to the last htmx ``afterSettle`` with nothing swapping, settling or in flight (the goal's figure);
"drawn" runs on to the end of the frame that shows it, the layout and paint included.

After each pair, the same phone taps the floor (benchmarks/floor_app.py's ``/tap``, served
beside the companion as benchmarks/write_floor.py serves it): a page of the companion's css
and htmx whose form of six numbers is posted, written and answered with the least any htmx
write can do. What a tap of the companion costs over it is what the companion's own pages,
server and scripts add; the floor over the css is what the stack and this machine cost.

Run by hand (a minute or two):

    .venv/bin/python benchmarks/tap.py [--taps 10] [--throttle 4]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import black_spy, import_games, scorepad_game, spy_game
from benchmarks.write_floor import floor_server
from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, Server, free_port, phone_context, touched

# counts the page's settles from a tap's click until nothing swaps, settles or waits
# and, after that, when the frame showing it was drawn: a task queued from that frame's
# animation callbacks runs once its style, layout and paint are done (work the page leaves to
# the frame, such as scrolling to the news, counts there and not in the settle)
WATCH = """() => {
  window.__tap = {start: null, settled: null, painted: null};
  document.addEventListener("click", () => { window.__tap.start = performance.now(); }, {capture: true, once: true});
  document.addEventListener("htmx:afterSettle", () => {
    if (document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")) return;
    const settled = window.__tap.settled = performance.now();
    window.__tap.painted = null;
    requestAnimationFrame(() => setTimeout(() => { if (window.__tap.settled === settled) window.__tap.painted = performance.now(); }, 0));
  });
}"""
SETTLED = "() => window.__tap.painted !== null && !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
# the yardstick's own spread is wide (7 to 36 ms in one run of ten): fetched this many times
# a pair of taps, its median holds from one run to the next as the taps' does
CSS_FETCHES = 3
FETCH_CSS = """async () => {
  const href = document.querySelector("link[rel=stylesheet]").href;
  const started = performance.now();
  const response = await fetch(href, {cache: "no-store"});
  await response.text();
  return performance.now() - started;
}"""


def tap(page: Page, url: str, fill, button: str) -> tuple[float, float, int, int]:
    """Open ``url``, fill the entry, tap ``button``: the milliseconds to settled and to the
    frame drawn after it, and the page's elements before and after."""
    page.goto(url)
    page.wait_for_load_state("load")
    fill(page)
    # htmx comes with the first touch: it is on the page before the tap
    touched(page)
    page.evaluate(WATCH)
    before = page.evaluate("() => document.getElementsByTagName('*').length")
    page.get_by_role("button", name=button).click()
    page.wait_for_function(SETTLED, polling=20)
    # a late settle of a second region would move the figure: give it a moment to show
    page.wait_for_timeout(150)
    took, drawn = page.evaluate("() => [window.__tap.settled - window.__tap.start, window.__tap.painted - window.__tap.start]")
    after = page.evaluate("() => document.getElementsByTagName('*').length")
    return took, drawn, before, after


def black_spy_entry(page: Page) -> None:
    for name in ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]:
        page.get_by_role("textbox", name=name, exact=True).fill("10")


def scorepad_entry(page: Page) -> None:
    for name in ["Ana", "Ben", "Cy", "Dee"]:
        page.get_by_role("textbox", name=name, exact=True).fill("5")


def floor_entry(page: Page) -> None:
    for box in page.get_by_role("textbox").all():
        box.fill("10")


def no_entry(page: Page) -> None:
    pass


def with_id(game: dict, game_id: str) -> dict:
    return {**game, "id": game_id}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=10, help="taps on each game of a pair (default 10)")
    parser.add_argument("--throttle", type=float, default=4.0, help="CPU slowdown (default 4)")
    parser.add_argument("--only", help="these kinds alone, by their paths: black-spy,spy,scorepad")
    arguments = parser.parse_args()
    taps = arguments.taps

    # (label, path, games early and late with their entry's number, the entry, the button)
    # each tap records into a game of its own, so every early tap is at the same deal and
    # every late one too; a house end value keeps the late Black Spy games going
    kinds = [
        (
            "Black Spy deal, 6 players",
            "black-spy",
            ("deal", 6, 41),
            lambda n, d: black_spy(0, 6, d - 1, end_value=5000),
            black_spy_entry,
            "Record deal {number}",
        ),
        ("Spy turn, 3 players", "spy", ("turn", 5, 100), lambda n, d: spy_game(d - 1), no_entry, "Record the turn: no spy"),
        (
            "Score pad round, 4 players",
            "scorepad",
            ("round", 5, 60),
            lambda n, d: scorepad_game(d - 1),
            scorepad_entry,
            "Record round {number}",
        ),
    ]
    only = set(arguments.only.split(",")) if arguments.only else {path for _, path, *_ in kinds}
    games = []
    for index, (_, path, (_, early, late), make, _, _) in enumerate(kinds):
        if path not in only:
            continue
        for tap_number in range(taps):
            for number in (early, late):
                games.append(with_id(make(tap_number, number), f"tap{index}{number:03d}{tap_number:03d}"))

    folder = Path(tempfile.mkdtemp())
    server = Server(folder / "companion", free_port()).start()
    floor_port = free_port()
    floor: subprocess.Popen | None = None
    try:
        floor = floor_server(folder / "floor", floor_port)
        import_games(server, games)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = phone_context(browser, service_workers="block")
            page = context.new_page()
            page.goto(server.url + "/")
            cdp = context.new_cdp_session(page)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": arguments.throttle})
            print(f"{taps} taps on each, CPU slowed {arguments.throttle:g}x, 390x844; medians in ms")
            print(
                f"{'entry':28} {'early':>7} {'late':>7} {'late/early':>11} {'css':>6} {'late/css':>9}"
                f" {'drawn early':>12} {'drawn late':>11} {'late/floor':>11}  elements after the tap"
            )
            floors: list[float] = []
            every_css: list[float] = []
            for index, (label, path, (word, early, late), _, fill, button) in enumerate(kinds):
                if path not in only:
                    continue
                times: dict[int, list[float]] = {early: [], late: []}
                drawn: dict[int, list[float]] = {early: [], late: []}
                sizes: dict[int, int] = {}
                css: list[float] = []
                floor_taps: list[float] = []
                for tap_number in range(taps):
                    for number in (early, late):
                        url = f"{server.url}/{path}/tap{index}{number:03d}{tap_number:03d}"
                        took, shown, _, after = tap(page, url, fill, button.format(number=number))
                        times[number].append(took)
                        drawn[number].append(shown)
                        sizes[number] = after
                    css.extend(page.evaluate(FETCH_CSS) for _ in range(CSS_FETCHES))
                    floor_taps.append(tap(page, f"http://127.0.0.1:{floor_port}/tap", floor_entry, "Record")[0])
                floors.extend(floor_taps)
                every_css.extend(css)
                first, last, yardstick = (statistics.median(times[early]), statistics.median(times[late]), statistics.median(css))
                print(
                    f"{label:28} {first:>7.0f} {last:>7.0f} {last / first:>11.2f} {yardstick:>6.1f} {last / yardstick:>9.1f}"
                    f" {statistics.median(drawn[early]):>12.0f} {statistics.median(drawn[late]):>11.0f}"
                    f" {last / statistics.median(floor_taps):>11.2f}  {word} {early}: {sizes[early]}, {word} {late}: {sizes[late]}"
                )
            floor_tap, yardstick = statistics.median(floors), statistics.median(every_css)
            print(
                f"the floor: an htmx form of six numbers, written and answered by benchmarks/floor_app.py:"
                f" {floor_tap:.0f} ms a tap, {floor_tap / yardstick:.1f}x the css ({len(floors)} taps)"
            )
            browser.close()
    finally:
        server.stop()
        if floor is not None:
            if floor.poll() is None:
                os.killpg(floor.pid, 15)
            floor.wait()


if __name__ == "__main__":
    main()
