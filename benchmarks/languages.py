"""What does speaking the table's language cost a page?

Times the server's handling of a Black Spy game page (12 deals, a refused deal's error
messages) and the rules page in each language, beside the same pages in English in the
same run, and prints each as a ratio to English. Run by hand:

    .venv/bin/python benchmarks/languages.py
"""

from __future__ import annotations

import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.web.i18n import LANGUAGES
from tests.databases import Databases
from tests.helpers import make_app, post_points, start_game

ROUNDS = 100
DEALS_PLAYED = 6  # the game is still on: the page has its deal form
DEALS = ([20, 15, 25, 0], [5, 30, 10, 15], [15, 15, 10, 20], [10, 0, 15, 35])


def timed(client, path: str, method: str = "get", data: dict | None = None) -> dict[str, float]:
    """Median milliseconds per language over ROUNDS requests each, the languages taking
    turns, so that the machine's drift during the run falls on all of them alike."""
    times: dict[str, list[float]] = {code: [] for code in LANGUAGES}
    for _ in range(ROUNDS):
        for code in LANGUAGES:
            start = time.perf_counter()
            response = client.open(path, method=method, data=data, headers={"Accept-Language": code})
            times[code].append((time.perf_counter() - start) * 1000)
            assert response.status_code in (200, 422), response.status_code
    return {code: statistics.median(values) for code, values in times.items()}


def main() -> None:
    logging.disable(logging.INFO)  # the migrations' log is not a figure
    databases = Databases(Path(tempfile.mkdtemp()))
    app = make_app(databases.fresh())
    client = app.test_client()
    game_id = start_game(client)
    for number in range(DEALS_PLAYED):
        post_points(client, game_id, DEALS[number % len(DEALS)])
    bad = {"mode": "points", **{f"points-{seat}": "x" for seat in range(4)}}
    pages = {
        "game page": ("get", f"/black-spy/{game_id}", None),
        "refused deal": ("post", f"/black-spy/{game_id}/deals", bad),
        "rules page": ("get", "/rules/black-spy", None),
    }
    print(f"{'page':14}" + "".join(f"{code:>14}" for code in LANGUAGES))
    for name, (method, path, data) in pages.items():
        timed(client, path, method, data)  # warm every catalogue and template first
        medians = timed(client, path, method, data)
        cells = [f"{medians['en']:8.2f} ms  "] + [
            f"{medians[code] / medians['en']:12.2f}x " for code in LANGUAGES if code != "en"
        ]
        print(f"{name:14}" + "".join(f"{cell:>14}" for cell in cells))
    databases.close()


if __name__ == "__main__":
    main()
