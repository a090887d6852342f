"""What exporting a club's whole history costs the server, and the table meanwhile.

Starts ``companion serve`` on a fresh SQLite database (or PostgreSQL, with
TEST_DATABASE_URL), imports --games games (Black Spy of --deals deals, one in ten a score
pad) with ``companion import``, then:

- one ``/export.json`` and one ``/export.csv``: bytes, time to the first byte and to the
  last, and the largest memory any server process held (its VmHWM) before and after;
- --exports exports at once while a phone asks for a game page every 200 ms: that page's
  median and slowest time, against the same phone's before any export began.

Run by hand:

    .venv/bin/python benchmarks/export_scale.py [--games 20000] [--deals 10] [--exports 4]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Phone, import_games
from tests.databases import Databases
from tests.servers import Server, free_port

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]
PAGE_TIMEOUT = 30.0


def history(count: int, deals: int) -> list[dict]:
    games: list[dict] = []
    for number in range(count):
        size = 3 + number % 4
        names = [NAMES[(number + seat * 5) % len(NAMES)] for seat in range(size)]
        when = f"20{20 + number % 6}-{1 + number % 12:02d}-{1 + number % 28:02d}T20:{number % 60:02d}:00Z"
        if number % 10 == 9:
            games.append(
                {
                    "kind": "scorepad",
                    "name": "Golf",
                    "players": names,
                    "created_at": when,
                    "rounds": [{name: seat for seat, name in enumerate(names)} for _ in range(deals)],
                }
            )
            continue
        share = 60 // size
        points = [60 - share * (size - 1)] + [share] * (size - 1)
        games.append(
            {
                "kind": "black-spy",
                "players": names,
                "first_dealer": names[0],
                "created_at": when,
                "rules": {"end_value": 10_000},
                "deals": [{"raw": dict(zip(names, points, strict=True))} for _ in range(deals)],
            }
        )
    return games


def descendants(pid: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def peak_memory(server: Server) -> int:
    """The largest resident memory any process of the server has held, in bytes."""
    peak = 0
    assert server.process is not None
    for pid in descendants(server.process.pid):
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    peak = max(peak, int(line.split()[1]) * 1024)
        except OSError:
            pass
    return peak


def download(port: int, path: str) -> tuple[int, float, float]:
    """Bytes of an export, seconds to its first byte and to its last."""
    phone = Phone(port, timeout=600, accept_encoding="identity")
    started = time.perf_counter()
    response = phone.send("GET", path)
    assert response.status == 200, response.status
    first = response.read(1)
    to_first = time.perf_counter() - started
    size = len(first)
    while chunk := response.read(65536):
        size += len(chunk)
    phone.close()
    return size, to_first, time.perf_counter() - started


def page_times(port: int, path: str, stop: threading.Event, every: float = 0.2) -> list[float]:
    times: list[float] = []
    while not stop.is_set():
        # a new connection each time and the page uncompressed: the figures stay comparable with the runs before
        phone = Phone(port, timeout=PAGE_TIMEOUT, accept_encoding="identity")
        started = time.perf_counter()
        try:
            status = phone.request("GET", path).status
            assert status == 200, status
            times.append(time.perf_counter() - started)
        except TimeoutError:
            times.append(float("inf"))  # a phone gives up long before this
        phone.close()
        stop.wait(every)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--exports", type=int, default=4)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    databases = Databases(folder)
    url = databases.empty() if databases.kind == "postgresql" else f"sqlite:///{folder / 'export.sqlite3'}"
    server = Server(folder / "server", free_port(), database_url=url)
    server.start()
    try:
        games = history(args.games - 1, args.deals)
        # the newest game, the one the phone follows
        games.append({**history(1, args.deals)[0], "created_at": "2029-01-01T20:00:00Z"})
        seconds = import_games(server, games)
        print(f"{databases.kind}: {args.games:,} games of {args.deals} deals or rounds imported in {seconds:.1f} s")
        answer = Phone(server.port, timeout=60).request("GET", "/history?state=in-progress")
        page = answer.text()
        assert answer.status == 200, (answer.status, page[:500])
        game = page.split('href="/black-spy/', 1)[1].split('"', 1)[0]
        path = f"/black-spy/{game}"
        print(f"server processes' largest memory before: {peak_memory(server) / 2**20:.0f} MB")
        for export in ("/export.json", "/export.csv"):
            size, first, total = download(server.port, export)
            print(
                f"{export}: {size / 2**20:.1f} MB, first byte {first * 1000:.0f} ms, all of it {total:.1f} s;"
                f" largest memory since: {peak_memory(server) / 2**20:.0f} MB"
            )
        stop = threading.Event()
        quiet: list[float] = []
        quiet_thread = threading.Thread(target=lambda: quiet.extend(page_times(server.port, path, stop)))
        quiet_thread.start()
        time.sleep(5)
        stop.set()
        quiet_thread.join()
        stop = threading.Event()
        busy: list[float] = []
        phone = threading.Thread(target=lambda: busy.extend(page_times(server.port, path, stop)))
        exports = [threading.Thread(target=download, args=(server.port, "/export.json")) for _ in range(args.exports)]
        phone.start()
        started = time.perf_counter()
        for thread in exports:
            thread.start()
        for thread in exports:
            thread.join()
        spent = time.perf_counter() - started
        stop.set()
        phone.join()
        print(f"{args.exports} exports at once took {spent:.1f} s; largest memory since: {peak_memory(server) / 2**20:.0f} MB")
        for label, times in (("a game page, no export running", quiet), (f"the same, {args.exports} exports running", busy)):
            answered = [spent for spent in times if spent != float("inf")]
            print(
                f"  {label:38} median {statistics.median(times) * 1000:6.1f} ms, slowest answered"
                f" {max(answered, default=0) * 1000:7.1f} ms ({len(answered)} pages; {len(times) - len(answered)}"
                f" not answered in {PAGE_TIMEOUT:.0f} s)"
            )
    finally:
        server.stop()
        databases.close()


if __name__ == "__main__":
    main()
