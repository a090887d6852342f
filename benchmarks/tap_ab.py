"""A change's effect on a tap, measured against another checkout in the same run.

benchmarks/tap.py's figures move by a fifth between runs of the same commit on a busy
machine: too much to tell a change of a few milliseconds. This serves the late game of one
kind twice, from this checkout and from another (a ``git worktree`` of the commit before,
say), and taps into the two in alternation in one throttled browser, so both meet the same
moments; it prints each side's median, and the ratio of the two.

Run by hand:

    git worktree add /tmp/before HEAD~1
    .venv/bin/python benchmarks/tap_ab.py /tmp/before [--taps 16] [--kind black-spy]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import black_spy, import_games, scorepad_game, spy_game
from benchmarks.tap import CSS_FETCHES, FETCH_CSS, black_spy_entry, no_entry, scorepad_entry, tap, with_id
from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, Server, free_port, phone_context

# each kind's late game (as benchmarks/tap.py plays it), its entry and its button
KINDS = {
    "black-spy": (41, lambda number: black_spy(0, 6, number - 1, end_value=5000), black_spy_entry, "Record deal {number}"),
    "spy": (100, lambda number: spy_game(number - 1), no_entry, "Record the turn: no spy"),
    "scorepad": (60, lambda number: scorepad_game(number - 1), scorepad_entry, "Record round {number}"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("other", help="the checkout to measure against (its folder)")
    parser.add_argument("--taps", type=int, default=16, help="taps on each side (default 16)")
    parser.add_argument("--kind", choices=sorted(KINDS), default="black-spy")
    arguments = parser.parse_args()
    number, make, fill, button = KINDS[arguments.kind]
    # ids as long as a public one (a shorter one is replaced at the import)
    games = [with_id(make(number), f"abtap{number:03d}{tap_number:03d}") for tap_number in range(arguments.taps)]
    # the other checkout's code served (tests/servers.py serves this one's by default)
    sides = {
        "other": Server(Path(tempfile.mkdtemp()), free_port(), checkout=Path(arguments.other).resolve()),
        "this": Server(Path(tempfile.mkdtemp()), free_port()),
    }
    times: dict[str, list[float]] = {side: [] for side in sides}
    css: list[float] = []
    try:
        for server in sides.values():
            server.start()
            import_games(server, games)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = phone_context(browser, service_workers="block")
            page = context.new_page()
            page.goto(sides["this"].url + "/")
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
            for tap_number in range(arguments.taps):
                # which side goes first alternates too
                order = list(sides) if tap_number % 2 else list(reversed(sides))
                for side in order:
                    url = f"{sides[side].url}/{arguments.kind}/abtap{number:03d}{tap_number:03d}"
                    times[side].append(tap(page, url, fill, button.format(number=number))[0])
                css.extend(page.evaluate(FETCH_CSS) for _ in range(CSS_FETCHES))
            browser.close()
    finally:
        for server in sides.values():
            server.stop()
    yardstick = statistics.median(css)
    print(f"{arguments.taps} taps on each side, {arguments.kind} at {number}, CPU slowed 4x; medians in ms")
    for side, label in (("other", arguments.other), ("this", "this checkout")):
        spent = statistics.median(times[side])
        print(f"  {label:40} {spent:6.1f}  {spent / yardstick:4.1f} x the css ({yardstick:.1f})")
    print(f"  this / other {statistics.median(times['this']) / statistics.median(times['other']):.3f}")


if __name__ == "__main__":
    main()
