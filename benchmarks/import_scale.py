"""How long does a large import take, and does another table keep recording meanwhile?

Builds a companion/1 file of Black Spy games (10,000 by default, the size an outside
prober sent: about 1.3 MB, three to five players, a few deals each; ``--deals N`` gives
every game N deals), then imports it into a fresh SQLite database (or PostgreSQL, with
TEST_DATABASE_URL) twice, each time while a second thread records deals at another table
and counts the ones refused (a 503 when the write lock was held past its 5 s), and the
longest wait of any of them:

- through the web form;
- through ``companion import``, the command a restore uses.

Run by hand:

    .venv/bin/python benchmarks/import_scale.py [games] [--deals 10]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.databases import Databases
from tests.helpers import make_app, post_points, start_game

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def a_file(count: int, deals: int | None = None) -> bytes:
    games = []
    for number in range(count):
        size = 3 + number % 3
        names = [NAMES[(number + seat * 5) % len(NAMES)] for seat in range(size)]
        points = [60 - 10 * (size - 1)] + [10] * (size - 1)
        games.append(
            {
                "kind": "black-spy",
                "players": names,
                "first_dealer": names[0],
                "created_at": f"2025-{1 + number % 12:02d}-{1 + number % 28:02d}T20:00:00Z",
                "rules": {"end_value": 10_000},
                "deals": [{"raw": dict(zip(names, points, strict=True))} for _ in range(number % 3 if deals is None else deals)],
            }
        )
    return json.dumps({"format": "companion/1", "games": games}).encode()


class Table:
    """Another table recording a deal after another, on its own phone, while the import runs."""

    def __init__(self, url: str, folder: Path) -> None:
        os.environ["COMPANION_INSTANCE"] = str(folder)
        self.app = make_app(url)
        self.scorer = self.app.test_client()
        self.game = start_game(self.scorer, end_value="10000")
        self.done = threading.Event()
        self.results: list[tuple[int, float]] = []
        self.thread = threading.Thread(target=self._record)

    def _record(self) -> None:
        while not self.done.is_set():
            if len(self.results) % 300 == 299:
                self.game = start_game(self.scorer, end_value="10000")  # before this one reaches its end
            started = time.perf_counter()
            status = post_points(self.scorer, self.game, [20, 15, 25, 0]).status_code
            self.results.append((status, time.perf_counter() - started))

    def __enter__(self) -> Table:
        self.thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.done.set()
        self.thread.join()
        refused = Counter(status for status, _ in self.results if status != 303)
        times = sorted(spent for _, spent in self.results)
        print(
            f"  another table meanwhile: {len(times)} deals, refused: {dict(refused) or 'none'}, median wait"
            f" {times[len(times) // 2]:.3f} s, longest {times[-1]:.2f} s"
        )


def through_the_web(url: str, content: bytes, folder: Path) -> None:
    with Table(url, folder / "instance-web") as table:
        started = time.perf_counter()
        response = table.app.test_client().post(
            "/import", data={"file": (io.BytesIO(content), "games.json")}, content_type="multipart/form-data"
        )
        seconds = time.perf_counter() - started
        print(f"web import: {seconds:6.2f} s, status {response.status_code}")


def through_the_command(url: str, content: bytes, folder: Path) -> None:
    file = folder / "games.json"
    file.write_bytes(content)
    env = {**os.environ, "DATABASE_URL": url, "COMPANION_INSTANCE": str(folder / "instance-cli")}
    command = [str(Path(sys.executable).with_name("companion")), "import", str(file)]
    subprocess.run([command[0], "--help"], env=env, capture_output=True, check=True)  # warm the imports
    with Table(url, folder / "instance-table"):
        started = time.perf_counter()
        done = subprocess.run(command, check=False, env=env, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        print(
            f"companion import: {seconds:6.2f} s (process start and migrations included): "
            f"{done.stdout.strip() or done.stderr.strip()[:200]}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", type=int, nargs="?", default=10_000)
    parser.add_argument("--deals", type=int, default=None, help="deals in every game (default: 0 to 2)")
    parser.add_argument("--no-web", action="store_true", help="the command alone (a file over the web form's 2 MB)")
    args = parser.parse_args()
    content = a_file(args.games, args.deals)
    print(f"{args.games:,} games, {len(content) / 1e6:.2f} MB")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        databases = Databases(folder)
        try:
            if not args.no_web:
                through_the_web(databases.fresh(), content, folder)
            through_the_command(databases.fresh(), content, folder)
        finally:
            databases.close()


if __name__ == "__main__":
    main()
