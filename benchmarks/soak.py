"""Twenty tables recording for a few minutes on PostgreSQL while the database is restarted
twice and stopped for 20 s once: how many requests, how many 5xx (and which), how many deals
the server acknowledged and how many it stored. Acknowledged must equal stored, always.

Each table is a phone that does what the companion's phone does: it opens its game, posts
a deal with the form's submission id, and when the answer is a 5xx, or no answer at all, it
keeps the deal and sends the same submission again after a pause, as the offline queue
does (static/js/offline-page.js, offline-queue.js). A table starts a new game every eight deals.

Starts its own PostgreSQL cluster (tests/clusters.py) and `companion serve` on it. Run by
hand (as root, or as a user that may run PostgreSQL's programs):

    .venv/bin/python benchmarks/soak.py                # 180 s: restarts at 40 s and 80 s, stopped 110–130 s
    .venv/bin/python benchmarks/soak.py --seconds 60   # the same events, spread over a minute
"""

from __future__ import annotations

import argparse
import collections
import http.client
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import CSRF, Phone, deal_form
from tests.clusters import Cluster
from tests.servers import Server, free_port

DEALS_PER_GAME = 8
POINTS = {"points-0": "15", "points-1": "15", "points-2": "15", "points-3": "15"}
RETRY_PAUSE = 0.5  # the queue's first pause; it grows, up to this many times
LONGEST_PAUSE = 8.0


class Tally:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.statuses: collections.Counter[int] = collections.Counter()
        self.no_answer = 0
        self.acknowledged: dict[str, int] = collections.defaultdict(int)
        self.faults: list[float] = []  # when each 5xx came

    def answered(self, status: int) -> None:
        with self.lock:
            self.requests += 1
            self.statuses[status] += 1
            if status >= 500:
                self.faults.append(time.monotonic())

    def unanswered(self) -> None:
        with self.lock:
            self.requests += 1
            self.no_answer += 1


def ask(phone: Phone, tally: Tally, method: str, path: str, form: dict[str, str] | None = None):
    """One request, counted; None when there was no answer at all (a refused connection)."""
    try:
        answer = phone.request(method, path, form)
    except (OSError, http.client.HTTPException):
        phone.close()
        phone.connection = http.client.HTTPConnection("127.0.0.1", phone.port, timeout=phone.timeout)
        tally.unanswered()
        return None
    tally.answered(answer.status)
    return answer


def until_answered(phone: Phone, tally: Tally, stop: threading.Event, method: str, path: str, form=None):
    """Ask until the server answers other than 5xx, pausing longer each time, as the queue does."""
    pause = RETRY_PAUSE
    while not stop.is_set():
        answer = ask(phone, tally, method, path, form)
        if answer is not None and answer.status < 500:
            return answer
        stop.wait(pause)
        pause = min(pause * 2, LONGEST_PAUSE)
    return None


def table(port: int, tally: Tally, stop: threading.Event) -> None:
    phone = Phone(port)
    while not stop.is_set():
        page = until_answered(phone, tally, stop, "GET", "/new")
        if page is None:
            return
        form = {"csrf_token": CSRF.search(page.text()).group(1), "first_dealer": "0", "end_value": ""}
        form.update({f"player-{seat}": name for seat, name in enumerate(["Ana", "Ben", "Cy", "Dee"])})
        started = until_answered(phone, tally, stop, "POST", "/black-spy/new", form)
        if started is None or started.status != 303:
            return
        game = started.headers["location"].rsplit("/", 1)[1]
        for _ in range(DEALS_PER_GAME):
            shown = until_answered(phone, tally, stop, "GET", f"/black-spy/{game}")
            if shown is None:
                return
            fields = deal_form(shown.text())
            sent = until_answered(phone, tally, stop, "POST", f"/black-spy/{game}/deals", {**fields, "mode": "points", **POINTS})
            if sent is None:
                return
            if sent.status == 303:
                with tally.lock:
                    tally.acknowledged[game] += 1
            else:
                print(f"a deal refused with {sent.status}: {sent.text()[:200]}", file=sys.stderr)


def stored(cluster: Cluster) -> dict[str, int]:
    from sqlalchemy import create_engine, text

    engine = create_engine(cluster.url)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT game_id, count(*) FROM deals GROUP BY game_id")).all()
    engine.dispose()
    return {game: count for game, count in rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--tables", type=int, default=20)
    args = parser.parse_args()
    scale = args.seconds / 180.0
    # when, in seconds from the start, each outage begins (the stop lasts 20 s, scaled)
    events = [(40 * scale, "restart", "fast"), (80 * scale, "restart", "immediate"), (110 * scale, "stop", "fast")]
    cluster = Cluster()
    folder = Path(tempfile.mkdtemp(prefix="companion-soak-"))
    server = Server(folder / "instance", free_port(), cluster.url).start()
    tally, stop = Tally(), threading.Event()
    tables = [threading.Thread(target=table, args=(server.port, tally, stop)) for _ in range(args.tables)]
    started = time.monotonic()
    down: list[tuple[float, float]] = []  # when the database was not answering
    try:
        for thread in tables:
            thread.start()
        for at, what, mode in events:
            time.sleep(max(0.0, started + at - time.monotonic()))
            print(f"{time.monotonic() - started:6.1f} s  database {what} ({mode})", flush=True)
            went = time.monotonic()
            if what == "restart":
                cluster.restart(mode)
            else:
                cluster.stop(mode)
                time.sleep(20 * scale)
                cluster.start()
            down.append((went, time.monotonic()))
            print(f"{time.monotonic() - started:6.1f} s  database answering again", flush=True)
        time.sleep(max(0.0, started + args.seconds - time.monotonic()))
        stop.set()
        for thread in tables:
            thread.join(timeout=60)
        kept = stored(cluster)
    finally:
        stop.set()
        server.stop()
        cluster.remove()
    acknowledged = sum(tally.acknowledged.values())
    errors = {status: count for status, count in sorted(tally.statuses.items()) if status >= 500}
    print(f"{args.tables} tables, {args.seconds:.0f} s, the database restarted twice and stopped for {20 * scale:.0f} s")
    print(f"requests            {tally.requests}")
    # a request already on its way when the database came back may still meet the outage
    after = [at for at in tally.faults if not any(went <= at <= back + 1.0 for went, back in down)]
    print(f"answered 5xx        {sum(errors.values())}  {errors or ''}")
    print(f"  once it was back  {len(after)}  (more than a second after the database answered again)")
    print(f"no answer at all    {tally.no_answer}")
    print(f"deals acknowledged  {acknowledged}")
    print(f"deals stored        {sum(kept.values())}")
    lost = {game: count for game, count in tally.acknowledged.items() if kept.get(game, 0) != count}
    print("acknowledged = stored: " + ("yes" if not lost and acknowledged == sum(kept.values()) else f"NO {lost}"))


if __name__ == "__main__":
    main()
