"""How long does a large import take, and does another table keep recording meanwhile?

Builds a companion/1 file of 10,000 Black Spy games (the size an outside prober sent:
about 1.3 MB, three to five players, a few deals each), then imports it into a fresh
SQLite database (or PostgreSQL, with TEST_DATABASE_URL) twice:

- through the web form, while a second thread records deals at another table and
  counts the ones that fail, and the longest wait of any of them;
- through ``companion import``, the command a restore uses.

Run by hand:

    .venv/bin/python benchmarks/import_scale.py [games]
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.databases import Databases  # noqa: E402
from tests.helpers import make_app, post_points, start_game  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def a_file(count: int) -> bytes:
    games = []
    for number in range(count):
        size = 3 + number % 3
        names = [NAMES[(number + seat * 5) % len(NAMES)] for seat in range(size)]
        points = [60 - 10 * (size - 1)] + [10] * (size - 1)
        games.append({
            "kind": "black-spy",
            "players": names,
            "first_dealer": names[0],
            "created_at": f"2025-{1 + number % 12:02d}-{1 + number % 28:02d}T20:00:00Z",
            "deals": [{"raw": dict(zip(names, points, strict=True))} for _ in range(number % 3)],
        })
    return json.dumps({"format": "companion/1", "games": games}).encode()


def through_the_web(url: str, content: bytes, folder: Path) -> None:
    os.environ["COMPANION_INSTANCE"] = str(folder / "instance-web")
    app = make_app(url)
    scorer = app.test_client()
    table = start_game(scorer, end_value="10000")
    done = threading.Event()
    results: list[tuple[int, float]] = []

    def record() -> None:
        while not done.is_set():
            started = time.perf_counter()
            status = post_points(scorer, table, [20, 15, 25, 0]).status_code
            results.append((status, time.perf_counter() - started))

    recorder = threading.Thread(target=record)
    recorder.start()
    started = time.perf_counter()
    response = app.test_client().post(
        "/import", data={"file": (io.BytesIO(content), "games.json")}, content_type="multipart/form-data"
    )
    seconds = time.perf_counter() - started
    done.set()
    recorder.join()
    failed = sum(status != 303 for status, _ in results)
    print(f"web import: {seconds:6.2f} s, status {response.status_code}")
    print(f"  another table meanwhile: {len(results)} deals, {failed} failed, longest wait {max(t for _, t in results):.2f} s")


def through_the_command(url: str, content: bytes, folder: Path) -> None:
    file = folder / "games.json"
    file.write_bytes(content)
    env = {**os.environ, "DATABASE_URL": url, "COMPANION_INSTANCE": str(folder / "instance-cli")}
    command = [str(Path(sys.executable).with_name("companion")), "import", str(file)]
    subprocess.run([command[0], "--help"], env=env, capture_output=True, check=True)  # warm the imports
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    print(f"companion import: {seconds:6.2f} s (process start and migrations included): {done.stdout.strip() or done.stderr.strip()[:200]}")


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    content = a_file(count)
    print(f"{count:,} games, {len(content) / 1e6:.2f} MB")
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        databases = Databases(folder)
        try:
            through_the_web(databases.fresh(), content, folder)
            through_the_command(databases.empty(), content, folder)
        finally:
            databases.close()


if __name__ == "__main__":
    main()
