"""How many tables one `companion serve` holds: requests per second, p50 and p99, errors.

Run by hand from the project folder (or a worktree of it, to measure that worktree's
code), with the project's virtualenv. The server is started the way `make serve` does
(granian, plain http), on loopback only, with a fresh database: SQLite by default,
PostgreSQL when TEST_DATABASE_URL names a server (scripts/with-postgres.sh sets it):

    .venv/bin/python benchmarks/load.py
    .venv/bin/python benchmarks/load.py --tables 4,32 --seconds 5 --workers 1
    scripts/with-postgres.sh .venv/bin/python benchmarks/load.py

What it models: each table is one game of Black Spy and six phones, each phone one
keep-alive connection with its own cookies.

- The scorer's phone records a deal every 20 s as the page's htmx does: POST
  <game>/deals with HX-Request, the deal form's fields (csrf token, submission id,
  version, deal number) taken from the fragment the last answer brought, and points.
- Five phones follow the game's read-only page (/watch/<id>) as its htmx polling does:
  GET with HX-Request every 3 s (the page itself asks every 4 s: 3 s leaves a margin),
  with If-None-Match naming their last copy, so an unchanged game answers 304.

Each phone's first request is spread over its period, so that phones are not in step.
Steps run 32, 64, 125, 250, 500, 1000 tables (--tables) for --seconds each, after a
warm-up that is not counted (and the games of a step are started before it begins),
until p99 reaches 200 ms or a request fails (a status other than 2xx or 304, a timeout,
a refused or dropped connection). The load generator is one asyncio loop on raw
sockets in this process, sharing the machine's cores with the server: its own CPU use
(% of one core) and how late it started requests are printed beside every step, so a
server held back by its client can be told apart.

Every phone keeps its connection open between requests, as a browser does, and granian
serves only so many connections at once (the backpressure companion/serving/granian.py
gives each worker; granian's own default, backlog 1024 / workers, let in some 170
tables); the script says so when a step asks for more.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import resource
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Connection, Refused, deal_form, percentile, start_game
from companion.cli import cores
from companion.serving.granian import CONNECTIONS_PER_WORKER
from tests.databases import Databases
from tests.servers import Server, free_port

DEAL_EVERY = 20.0
FOLLOW_EVERY = 3.0
FOLLOWERS = 5
P99_LIMIT = 0.200
REQUEST_TIMEOUT = 10.0
TABLES = "32,64,125,250,500,1000"
PLAYERS = ["Ana", "Ben", "Cy", "Dee"]
POINTS = ["20", "15", "25", "0"]  # 60, the standard deal total; nobody near a shoot
# games started at once before a step: enough to keep both cores busy, few enough not to queue
OPENING_AT_ONCE = 8
# sockets this process needs besides the phones' (the server's start-up probe, stdio, the database)
SPARE_FILES = 200

WATCH = re.compile(r"/watch/[A-Za-z0-9_-]+")
RECORDED = re.compile(r"Deal \d+ recorded\.")


class Phone(Connection):
    """One phone: one keep-alive connection that asks again on a new one when the server
    closed it idle, its cookies, and the ETag of its last page."""

    def __init__(self, port: int, accept_encoding: str) -> None:
        super().__init__(port, accept_encoding=accept_encoding, timeout=REQUEST_TIMEOUT, ask_again=True)
        self.etag: str | None = None


# --- a table: a game, its scorer and its followers -------------------------------------


@dataclass
class Table:
    scorer: Phone
    path: str  # the game page, /black-spy/<id>
    watch: str  # its read-only page, /watch/<id>
    form: dict[str, str]  # the next deal's form, from the last page or fragment
    followers: list[Phone]


def next_form(page: str) -> dict[str, str]:
    """The next deal's form, from the game page or the fragment the last deal's POST answered."""
    fields = deal_form(page)
    if len(fields) < 4:
        raise Refused(f"no deal form on the page (found {sorted(fields)})")
    return fields


async def open_table(port: int) -> Table:
    """Start a game as a phone does: the new-game form, then the game page it is sent to."""
    # the scorer asks for gzip alone (this client once read nothing else), so that the figures
    # stay comparable with the runs before
    scorer = Phone(port, "gzip")
    path, _ = await start_game(scorer, PLAYERS)
    game = await scorer.request("GET", path)
    text = game.text()
    watch = WATCH.search(text)
    if game.status != 200 or watch is None:
        raise Refused(f"GET {path} answered {game.status}" + ("" if watch else ", with no /watch/ link"))
    followers = [Phone(port, "gzip, br") for _ in range(FOLLOWERS)]
    return Table(scorer, path, watch.group(0), next_form(text), followers)


async def open_tables(port: int, tables: list[Table], count: int) -> None:
    """Add games until there are `count`, a few at once; before the step, so never timed."""
    gate = asyncio.Semaphore(OPENING_AT_ONCE)

    async def one() -> Table:
        async with gate:
            return await open_table(port)

    tables.extend(await asyncio.gather(*(one() for _ in range(count - len(tables)))))


# --- one step: the phones at work for a while ------------------------------------------


@dataclass
class Step:
    """What the phones saw in one step; latencies only from requests begun after the warm-up."""

    counted_from: float
    latencies: list[float] = field(default_factory=list)
    deal_latencies: list[float] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)  # how long after its turn a request began
    errors: Counter[str] = field(default_factory=Counter)  # counted in the warm-up too
    kinds: Counter[str] = field(default_factory=Counter)  # deal, fresh (a poll answered 200), unchanged (304)
    cpu_seconds: float = 0.0
    wall_seconds: float = 0.0

    def counts(self, began: float) -> bool:
        return began >= self.counted_from


async def record_deal(table: Table) -> tuple[str, float]:
    """One deal, as the scorer's htmx posts it; the fragment answered carries the next deal's form."""
    fields = {**table.form, "mode": "points", **{f"points-{seat}": points for seat, points in enumerate(POINTS)}}
    began = time.perf_counter()
    answer = await table.scorer.request("POST", table.path + "/deals", fields, {"HX-Request": "true"})
    took = time.perf_counter() - began
    if answer.status != 200:
        raise Refused(f"deal POST answered {answer.status}")
    text = answer.text()
    table.form = next_form(text)
    if not RECORDED.search(text):
        raise Refused("deal POST answered 200 without recording the deal")
    return "deal", took


async def follow(table: Table, phone: Phone) -> tuple[str, float]:
    """One poll of the watch page, revalidating the copy the phone holds as a browser's cache does."""
    headers = {"HX-Request": "true"}
    if phone.etag is not None:
        headers["If-None-Match"] = phone.etag
    began = time.perf_counter()
    answer = await phone.request("GET", table.watch, headers=headers)
    took = time.perf_counter() - began
    if answer.status == 304:
        return "unchanged", took
    if answer.status != 200:
        raise Refused(f"watch GET answered {answer.status}")
    phone.etag = answer.headers.get("etag")
    return "fresh", took


async def phone_at_work(
    step: Step, first: float, period: float, end: float, action: Callable[[], Awaitable[tuple[str, float]]]
) -> None:
    """One phone's turns from `first` to `end`, one every `period`, as htmx's timer fires them."""
    loop = asyncio.get_running_loop()
    turn = first
    while turn < end:
        await asyncio.sleep(turn - loop.time())
        began = loop.time()
        try:
            kind, took = await action()
        except (OSError, TimeoutError, asyncio.IncompleteReadError, Refused, ValueError) as failure:
            step.errors[describe(failure)] += 1
        else:
            if step.counts(began):
                step.lateness.append(began - turn)
                step.latencies.append(took)
                step.kinds[kind] += 1
                if kind == "deal":
                    step.deal_latencies.append(took)
        # a phone whose answer came after its next turn asks again at once, not for every turn missed
        turn = max(turn + period, loop.time())


def describe(failure: BaseException) -> str:
    if isinstance(failure, Refused):
        return str(failure)
    if isinstance(failure, TimeoutError):
        return f"no answer in {REQUEST_TIMEOUT:.0f} s"
    if isinstance(failure, asyncio.IncompleteReadError):
        return "connection dropped mid-answer"
    return type(failure).__name__


async def run_step(tables: list[Table], warmup: float, seconds: float) -> Step:
    loop = asyncio.get_running_loop()
    start = loop.time()
    step = Step(counted_from=start + warmup)
    end = step.counted_from + seconds
    phones = len(tables) * FOLLOWERS
    work = []
    for index, table in enumerate(tables):
        # spread each phone's first request over its period: real phones are not in step
        scorer_first = start + DEAL_EVERY * index / len(tables)
        work.append(phone_at_work(step, scorer_first, DEAL_EVERY, end, lambda t=table: record_deal(t)))
        for seat, phone in enumerate(table.followers):
            first = start + FOLLOW_EVERY * (index * FOLLOWERS + seat) / phones
            work.append(phone_at_work(step, first, FOLLOW_EVERY, end, lambda t=table, p=phone: follow(t, p)))
    await asyncio.gather(*work, measure_client(step, end))
    return step


async def measure_client(step: Step, end: float) -> None:
    """This process's CPU time over the counted part of the step: what the load generator cost."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(step.counted_from - loop.time())
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.sleep(end - loop.time())
    step.cpu_seconds, step.wall_seconds = time.process_time() - cpu, time.perf_counter() - wall


# --- the sweep ------------------------------------------------------------------------


HEADER = (
    f"{'tables':>6} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'deal p99':>8} {'errors':>6}"
    f" {'304 share':>9} {'deals':>5} {'client CPU':>10} {'late p99':>8}"
)


def row(tables: int, step: Step, seconds: float) -> str:
    polls = step.kinds["fresh"] + step.kinds["unchanged"]
    share = f"{100 * step.kinds['unchanged'] / polls:.0f}%" if polls else "-"
    cpu = f"{100 * step.cpu_seconds / step.wall_seconds:.0f}%" if step.wall_seconds else "-"
    return (
        f"{tables:>6} {len(step.latencies) / seconds:>7.1f} {1000 * statistics.median(step.latencies or [0]):>7.1f}"
        f" {1000 * percentile(step.latencies, 0.99):>7.1f} {1000 * percentile(step.deal_latencies, 0.99):>8.1f}"
        f" {sum(step.errors.values()):>6} {share:>9} {step.kinds['deal']:>5} {cpu:>10} {1000 * percentile(step.lateness, 0.99):>8.1f}"
    )


def reconnects(tables: list[Table]) -> int:
    return sum(phone.reconnects for table in tables for phone in [table.scorer, *table.followers])


async def sweep(port: int, counts: list[int], warmup: float, seconds: float) -> int:
    """Run the steps in turn; the largest number of tables held."""
    tables: list[Table] = []
    held = 0
    print(HEADER, flush=True)
    for count in counts:
        await open_tables(port, tables, count)
        before = reconnects(tables)
        step = await run_step(tables[:count], warmup, seconds)
        print(row(count, step, seconds), flush=True)
        for what, times in step.errors.most_common(5):
            print(f"{'':>8}{times} × {what}")
        if again := reconnects(tables) - before:
            print(f"{'':>8}{again} keep-alive connection(s) closed by the server, asked again on a new one")
        if step.errors or percentile(step.latencies, 0.99) >= P99_LIMIT:
            break
        held = count
    for table in tables:
        for phone in [table.scorer, *table.followers]:
            phone.close()
    return held


def raise_open_files(needed: int) -> int:
    """Lift the soft limit on open files to the hard one; the server, started after, inherits it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    limit = hard if hard != resource.RLIM_INFINITY else needed
    if limit < needed:
        sys.exit(f"{needed} open files are needed and the hard limit is {limit}: raise it (ulimit -Hn) or ask for fewer tables")
    return limit


def connections_served(workers: int) -> int:
    """How many connections `companion serve` takes at once: each granian worker holds one
    permit per open connection (a phone's idle keep-alive connection counts), up to the
    backpressure companion/serving/granian.py gives it. Past that, connect() still succeeds
    (the kernel queues it) but nothing reads it, and the phone's request times out."""
    return CONNECTIONS_PER_WORKER * workers


def table_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of numbers such as {TABLES}") from None
    if not counts or min(counts) < 1:
        raise argparse.ArgumentTypeError("give at least one number of tables, each 1 or more")
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=table_counts, default=table_counts(TABLES), help=f"tables per step (default {TABLES})")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long each step is counted (default 20)")
    parser.add_argument("--warmup", type=float, default=FOLLOW_EVERY, help="uncounted start of each step (default 3)")
    parser.add_argument("--workers", type=int, help="server processes (default: companion serve's, one per core)")
    parser.add_argument("--threads", type=int, help="threads per server process (default: companion serve's)")
    args = parser.parse_args()
    # every phone holds a connection: this process opens one end and the server the other
    limit = raise_open_files(max(args.tables) * (FOLLOWERS + 1) + SPARE_FILES)
    workers = args.workers or int(os.environ.get("WEB_CONCURRENCY", "0")) or cores()
    databases = Databases(Path(tempfile.mkdtemp()))
    # `companion serve --workers` defaults to $WEB_CONCURRENCY; Server passes no options of its own
    extra_env = {"WEB_CONCURRENCY": str(args.workers)} if args.workers else {}
    served = connections_served(workers)
    options = ("--threads", str(args.threads)) if args.threads else ()
    server = Server(Path(tempfile.mkdtemp()), free_port(), databases.empty(), extra_env=extra_env, options=options).start()
    print(
        f"database: {databases.kind}; {workers} server worker(s); {args.seconds:g} s per step after {args.warmup:g} s of warm-up;"
        f" {args.threads or 'the default'} threads per worker; {os.cpu_count()} cores shared by server and clients; open files: {limit}"
    )
    print(f"granian serves about {served} connections at once: {served // (FOLLOWERS + 1)} tables of {FOLLOWERS + 1} phones")
    if max(args.tables) * (FOLLOWERS + 1) > served:
        print("  the steps past that will time out: phones keep their connections open between requests")
    try:
        held = asyncio.run(sweep(server.port, args.tables, args.warmup, args.seconds))
    finally:
        server.stop()
        databases.close()
    print(f"largest number of tables held with p99 under {P99_LIMIT * 1000:.0f} ms and no error: {held}")
    print(f"server log: {server.folder / 'server.log'}")


if __name__ == "__main__":
    main()
