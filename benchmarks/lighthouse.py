"""First load on a mid-range phone: Lighthouse's mobile performance score, total blocking
time and DOM size for a long game's page.

Starts `companion serve` on loopback with a 40-deal, 6-player Black Spy game and a 100-turn
Spy game (``companion import``), and runs Lighthouse (mobile: a 4× slower CPU and a slow
4G link, simulated) three times on each page. Lighthouse is not a dependency of the
project; install it beside it first:

    npm i -E lighthouse@12.2.3
    .venv/bin/python benchmarks/lighthouse.py [--lighthouse node_modules/.bin/lighthouse] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import black_spy, import_games, spy_game
from tests.browser.browsing import CHROMIUM, Server, free_port

PAGES = {
    "Black Spy, 6 players, 40 deals": ("black-spy", {**black_spy(0, 6, 40, end_value=5000), "id": "lighthouse1"}),
    "Spy, 3 players, 100 turns": ("spy", {**spy_game(100), "id": "lighthouse2"}),
}


def audit(lighthouse: str, url: str) -> tuple[float, float, int]:
    """One Lighthouse run: the performance score, total blocking time (ms), DOM elements."""
    report = subprocess.run(
        [
            lighthouse,
            url,
            "--only-categories=performance",
            "--form-factor=mobile",
            "--output=json",
            "--quiet",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ],
        env={**os.environ, "CHROME_PATH": CHROMIUM},
        capture_output=True,
        check=True,
        text=True,
    )
    found = json.loads(report.stdout)
    audits = found["audits"]
    return (
        found["categories"]["performance"]["score"] * 100,
        audits["total-blocking-time"]["numericValue"],
        int(audits["dom-size"]["numericValue"]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lighthouse", default="node_modules/.bin/lighthouse")
    parser.add_argument("--runs", type=int, default=3)
    arguments = parser.parse_args()
    server = Server(Path(tempfile.mkdtemp()), free_port()).start()
    try:
        import_games(server, [game for _, game in PAGES.values()])
        print(f"Lighthouse mobile, {arguments.runs} runs each: performance, total blocking time, DOM elements")
        for label, (path, game) in PAGES.items():
            runs = [audit(arguments.lighthouse, f"{server.url}/{path}/{game['id']}") for _ in range(arguments.runs)]
            scores = ", ".join(f"{score:.0f}" for score, _, _ in runs)
            blocking = ", ".join(f"{time:.0f}" for _, time, _ in runs)
            print(f"  {label:32} {scores:>14}   TBT {blocking} ms   {statistics.median(d for *_, d in runs):.0f} elements")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
