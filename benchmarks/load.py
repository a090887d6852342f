"""How many tables one `companion serve` holds: requests per second, p50 and p99, errors.

Starts the app the way `make serve` does (granian, plain http), on loopback only, with a fresh
database: SQLite by default, PostgreSQL when TEST_DATABASE_URL names a server:

    .venv/bin/python benchmarks/load.py
    scripts/with-postgres.sh .venv/bin/python benchmarks/load.py

Each simulated table has one scorer recording a deal every 20 s and five phones
following the game page every 3 s. The number of tables doubles each step, for a
bounded time per step, until p99 passes 200 ms or a request fails. The clients run in
this process, so at the top steps some of the latency is the load generator's own.
"""

from __future__ import annotations

import argparse
import heapq
import http.cookiejar
import os
import re
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.databases import Databases  # noqa: E402
from tests.servers import Server, free_port  # noqa: E402

DEAL_EVERY = 20.0
FOLLOW_EVERY = 3.0
FOLLOWERS = 5
P99_LIMIT = 0.200


class Table:
    """One game, its scorer's cookies, and the next deal to record."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = self.opener.open(f"{base}/new").read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
        form = {"csrf_token": token, "first_dealer": "0", "end_value": "10000"}
        form.update({f"player-{row}": name for row, name in enumerate(["Ana", "Ben", "Cy", "Dee"])})
        response = self.opener.open(f"{base}/black-spy/new", urllib.parse.urlencode(form).encode())
        self.url = response.geturl()
        self.lock = threading.Lock()

    def follow(self) -> None:
        urllib.request.urlopen(self.url, timeout=10).read()

    def record(self) -> None:
        with self.lock:
            page = self.opener.open(self.url, timeout=10).read().decode()
            fields: dict[str, str] = {}
            # the deal form comes first on the page; the undo form's number must not win
            for name, value in re.findall(r'name="(csrf_token|number|submission|version)" value="([^"]*)"', page):
                fields.setdefault(name, value)
            fields.update({"mode": "points", "points-0": "20", "points-1": "15", "points-2": "25", "points-3": "0"})
            self.opener.open(self.url + "/deals", urllib.parse.urlencode(fields).encode(), timeout=10).read()


def run_step(tables: list[Table], seconds: float, pool: ThreadPoolExecutor) -> dict[str, float]:
    latencies: list[float] = []
    errors = [0]
    lock = threading.Lock()

    def timed(action) -> None:  # noqa: ANN001
        start = time.perf_counter()
        try:
            action()
        except (urllib.error.URLError, OSError, AttributeError):
            with lock:
                errors[0] += 1
            return
        with lock:
            latencies.append(time.perf_counter() - start)

    # spread each phone's first request over its period, as real phones are not in step
    now = time.monotonic()
    queue: list[tuple[float, int, float, object]] = []
    for index, table in enumerate(tables):
        heapq.heappush(queue, (now + DEAL_EVERY * index / len(tables), len(queue), DEAL_EVERY, table.record))
        for phone in range(FOLLOWERS):
            offset = FOLLOW_EVERY * ((index * FOLLOWERS + phone) % (len(tables) * FOLLOWERS)) / (len(tables) * FOLLOWERS)
            heapq.heappush(queue, (now + offset, len(queue), FOLLOW_EVERY, table.follow))
    end = now + seconds
    futures = []
    while queue and queue[0][0] < end:
        due, order, every, action = heapq.heappop(queue)
        time.sleep(max(0.0, due - time.monotonic()))
        futures.append(pool.submit(timed, action))
        heapq.heappush(queue, (due + every, order, every, action))
    for future in futures:
        future.result()
    ordered = sorted(latencies)
    return {
        "rps": len(ordered) / seconds,
        "p50": statistics.median(ordered) if ordered else 0.0,
        "p99": ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))] if ordered else 0.0,
        "errors": errors[0],
        "requests": len(ordered),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each step runs")
    parser.add_argument("--max-tables", type=int, default=128)
    args = parser.parse_args()
    databases = Databases(Path(tempfile.mkdtemp()))
    server = Server(Path(tempfile.mkdtemp()), free_port(), databases.empty()).start()
    held = 0
    print(f"database: {databases.kind}; {args.seconds:.0f} s per step; {os.cpu_count()} cores shared by server and clients")
    print(f"{'tables':>6} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    try:
        tables: list[Table] = []
        count = 1
        with ThreadPoolExecutor(max_workers=128) as pool:
            while count <= args.max_tables:
                while len(tables) < count:
                    tables.append(Table(server.url))
                figures = run_step(tables, args.seconds, pool)
                print(f"{count:>6} {figures['rps']:>8.1f} {figures['p50'] * 1000:>8.1f} {figures['p99'] * 1000:>8.1f} {figures['errors']:>7}", flush=True)
                if figures["p99"] >= P99_LIMIT or figures["errors"]:
                    break
                held = count
                count *= 2
    finally:
        server.stop()
        databases.close()
    print(f"largest number of tables held with p99 under {P99_LIMIT * 1000:.0f} ms and no error: {held}")


if __name__ == "__main__":
    main()
