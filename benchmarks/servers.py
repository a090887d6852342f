"""Which WSGI server `companion serve` should run: the candidates against waitress, in one run.

Run by hand, from the project folder, with the project's virtualenv:

    .venv/bin/python benchmarks/servers.py
    .venv/bin/python benchmarks/servers.py --servers waitress,granian --seconds 3

Each server in turn (waitress, the server the project first ran, first: every ratio is to its figures in
the same run) gets a fresh instance folder and SQLite database (`companion db upgrade`
once), is started on 127.0.0.1 on a free port as one process with 8 threads (plus a
granian row with 2 worker processes), and gets, through the real HTTP interface, one
Black Spy game of 6 players with 30 recorded deals. Then, for --seconds each (5 s by
default, after a short warm-up), with keep-alive connections and --concurrency (8)
clients each waiting for its answer before asking again:

- static: GET the hashed stylesheet named in a page's <link rel=stylesheet>;
- page: GET the 30-deal game page (the whole page, as a phone following the game);
- POST: record a deal, as a phone with htmx does (HX-Request, the answer is the game
  fragment), from --writers (4) clients at once. Each records into a game of its own that
  also starts with 30 deals, carries the right next deal number and a fresh submission
  id, so every request is a new deal, never a "recorded from another phone" refusal (a
  409 would count as an error); afterwards each game page must show every deal. The
  writers share one SQLite file, so this figure is mostly SQLite's write lock;
- idle-150: 150 plain TCP connections that send nothing (a phone's preconnected or
  forgotten sockets) are held open, then a normal GET / on a new connection is timed,
  capped at --idle-wait (10 s): "> 10 s (locked out)" when it gets no answer;
- tables: the benchmarks/load.py idea, shortened to fit in about 30 s: each table has a
  scorer recording a deal every 20 s and five phones reading the game page every 3 s,
  each request on a new connection; the number of tables doubles from 8 every
  --tables-seconds (3 s) until p99 passes 200 ms or a request fails. Its steps are short,
  so it is a rough figure next to load.py's 20 s steps. --no-tables skips it.

Requests ask for gzip, as phones do, so Flask-Compress works as it does for real. The
load generator is one asyncio loop on raw sockets in this process, sharing the machine's
cores with the server; the CPU seconds it used (time.process_time) are printed beside
every figure so that a server held back by its client can be told apart. p50 and p99
are per request, in milliseconds; req/s counts only answers with the expected status.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# how each server is started and stopped, and the load each is measured under, are in these two
from benchmarks.server_candidates import APP, CANDIDATES, FACTORY, Candidate, Running, log_tail, uses_factory, version
from benchmarks.server_load import (
    P99_LIMIT,
    STALLED_UPLOAD,
    Figure,
    Game,
    answer_of,
    closed_loop,
    getter,
    idle_lockout,
    kinds,
    record,
    recorded_number,
    tables_held,
    with_deals,
)

ROOT = Path(__file__).resolve().parent.parent
SETUP_DEALS = 30


@dataclass
class Row:
    name: str
    figures: dict[str, Figure] = field(default_factory=dict)
    idle: str = ""
    idle_seconds: float = 0.0
    idle_note: str = ""
    stalled: str = ""
    stalled_note: str = ""
    tables: str = "-"
    setup: float = 0.0
    setup_refusals: str = ""
    cpu: float = 0.0
    failed: str = ""
    notes: list[str] = field(default_factory=list)


async def measure(port: int, args: argparse.Namespace, row: Row) -> None:
    started = time.perf_counter()
    # the first game alone: two first games at once race to add the same new player names
    # (an IntegrityError, 500, in the app); once the players exist, games start in parallel
    refusals: Counter = Counter()
    games = [await with_deals(port, SETUP_DEALS, refusals)]
    games += await asyncio.gather(*(with_deals(port, SETUP_DEALS, refusals) for _ in range(args.writers)))
    row.setup = time.perf_counter() - started
    row.setup_refusals = kinds(refusals)
    print(
        f"    set-up: {len(games)} games of {SETUP_DEALS} deals in {row.setup:.1f} s"
        + (f"; writes refused and sent again: {row.setup_refusals}" if refusals else ""),
        flush=True,
    )
    page_game, writers = games[0], games[1:]
    if not page_game.stylesheet:
        raise RuntimeError("no <link rel=stylesheet href=...> on /new")
    warmup = min(1.0, args.seconds / 5)

    def show(label: str, figure: Figure) -> None:
        print(
            f"    {label:<7} {figure.rps:7.0f} req/s  p50 {figure.p50 * 1000:6.1f} ms  p99 {figure.p99 * 1000:6.1f} ms"
            f"  errors {figure.errors}{' (' + figure.note + ')' if figure.note else ''}  client CPU {figure.cpu:.1f} s",
            flush=True,
        )

    row.figures["static"] = await closed_loop(
        [getter(port, page_game.stylesheet) for _ in range(args.concurrency)], args.seconds, warmup
    )
    show("static", row.figures["static"])
    row.figures["page"] = await closed_loop([getter(port, page_game.path) for _ in range(args.concurrency)], args.seconds, warmup)
    show("page", row.figures["page"])

    def poster(game: Game):
        async def work() -> int:
            return await record(game)

        return work

    posted_from = sum(game.number for game in writers)
    row.figures["POST"] = await closed_loop([poster(game) for game in writers], args.seconds, warmup)
    show("POST", row.figures["POST"])
    kept = [await recorded_number(game) == game.number for game in writers]
    if not all(kept):
        row.figures["POST"].note = " ".join(filter(None, [row.figures["POST"].note, "deals lost"]))
        print("    POST: the game pages do not show every recorded deal", flush=True)
    else:
        print(f"    POST: {sum(game.number for game in writers) - posted_from} deals recorded, all on the game pages", flush=True)
    for game in games:
        game.connection.close()

    row.idle, row.idle_seconds, row.idle_note = await idle_lockout(port, args.idle, args.idle_wait)
    print(f"    idle-{args.idle}: GET / answered in {row.idle} ({row.idle_note})", flush=True)
    row.stalled, _, row.stalled_note = await idle_lockout(port, args.idle, args.idle_wait, STALLED_UPLOAD)
    print(f"    stalled-{args.idle}: GET / answered in {row.stalled} ({row.stalled_note})", flush=True)
    if not args.no_tables:
        # the silent connections are gone; a server that locked out needs a moment to notice
        deadline = time.monotonic() + args.idle_wait
        while time.monotonic() < deadline:
            try:
                if await answer_of(port, "/", 2.0) == 200:
                    break
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
                pass
        row.tables, steps, cpu = await tables_held(port, args.tables_seconds, args.max_tables)
        print(
            f"    tables held (p99 < {P99_LIMIT * 1000:.0f} ms, no error): {row.tables}  (tables:p99 {steps})"
            f"  client CPU {cpu:.1f} s",
            flush=True,
        )


def run_one(candidate: Candidate, args: argparse.Namespace, factory: bool, root: Path) -> Row:
    row = Row(candidate.name)
    server = Running(candidate, args.threads, factory, root)
    shown = [Path(server.command[0]).name, *("<runner>" if "\n" in part else part for part in server.command[1:])]
    print(f"\n== {candidate.name}: {' '.join(shown)}", flush=True)
    cpu = time.process_time()
    try:
        server.start()
        asyncio.run(measure(server.port, args, row))
    except Exception as error:  # one server failing must not stop the others
        row.failed = f"{type(error).__name__}: {error}".strip()
        print(f"    FAILED: {row.failed}\n{log_tail(server.log)}", flush=True)
    finally:
        server.stop()
        row.notes = server.notes()
        server.cleanup()
    row.cpu = time.process_time() - cpu
    for note in row.notes:
        print(f"    server log: {note[:160]}")
    return row


def report(rows: list[Row], args: argparse.Namespace, factory: bool, started: float) -> None:
    base = next((row for row in rows if row.name == "waitress" and not row.failed), None)
    head = "req/s p50 ms p99 ms  ×wt"
    print(
        f"\n{'':<11}|{'static css':^27}|{'30-deal game page':^27}|{'deal POST (htmx)':^27}|"
        f" {'idle-' + str(args.idle) + ': GET /':<22}| {'stalled-' + str(args.idle) + ': GET /':<22}| {'tables':>6} | {'client':>6}"
    )
    print(f"{'server':<11}| {head} | {head} | {head} | {'answer time':<22}| {'answer time':<22}| {'held':>6} | {'CPU s':>6}")
    print("-" * 140)
    for row in rows:
        if row.failed:
            print(f"{row.name:<11}| failed: {row.failed.splitlines()[0][:110]}")
            continue
        cells = []
        for key in ("static", "page", "POST"):
            figure = row.figures.get(key)
            cells.append(figure.cells(base.figures.get(key) if base else None) if figure else " " * 26)
        errors = sum(figure.errors for figure in row.figures.values())
        print(
            f"{row.name:<11}| "
            + " | ".join(cells)
            + f" | {row.idle:<22}| {row.stalled:<22}| {row.tables:>6} | {row.cpu:>6.1f}"
            + (f"  ({errors} errors)" if errors else "")
        )
    print("-" * 140)
    print("×wt: requests per second as a multiple of waitress's in this run. p50/p99: milliseconds per request.")
    print(
        f"client CPU s: seconds of CPU this load generator used for the row (set-up, figures, idle test, tables),"
        f" beside {args.seconds:.0f} s per figure."
    )
    versions = ", ".join(f"{package} {version(package)}" for package in ("waitress", "granian", "gunicorn", "cheroot"))
    print(f"Python {platform.python_version()} ({sys.executable}); {versions}; Flask {version('flask')}")
    for row in rows:
        if row.setup_refusals:
            print(f"{row.name}: set-up writes refused (SQLite busy) and sent again: {row.setup_refusals}")
    print(
        f"{os.cpu_count()} cores shared by the server and this client; concurrency {args.concurrency} "
        f"(POST: {args.writers} writers), "
        f"{args.threads} threads per server process; app: {FACTORY + ' (factory)' if factory else APP}; "
        f"total {time.monotonic() - started:.0f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--servers", default=",".join(CANDIDATES), help=f"a comma-separated subset of {', '.join(CANDIDATES)} (default: all)"
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="how long each figure is measured (default 5)")
    parser.add_argument("--concurrency", type=int, default=8, help="clients at once for each figure (default 8)")
    parser.add_argument(
        "--writers", type=int, default=4, help="clients recording deals at once, each into its own 30-deal game (default 4)"
    )
    parser.add_argument("--threads", type=int, default=8, help="threads per server process (default 8)")
    parser.add_argument("--idle", type=int, default=150, help="silent connections held open (default 150)")
    parser.add_argument("--idle-wait", type=float, default=10.0, help="how long GET / may take then (default 10 s)")
    parser.add_argument("--tables-seconds", type=float, default=3.0, help="length of each tables step (default 3 s)")
    parser.add_argument("--max-tables", type=int, default=256)
    parser.add_argument("--no-tables", action="store_true", help="skip the tables-held figure")
    parser.add_argument(
        "--root", type=Path, default=ROOT, help="project folder whose companion package is served (default: this checkout)"
    )
    args = parser.parse_args()
    names = [name.strip() for name in args.servers.split(",") if name.strip()]
    unknown = [name for name in names if name not in CANDIDATES]
    if unknown:
        parser.error(f"unknown server(s) {', '.join(unknown)}; pick from {', '.join(CANDIDATES)}")
    started = time.monotonic()
    root = args.root.resolve()
    factory = uses_factory(root)
    rows = [run_one(CANDIDATES[name], args, factory, root) for name in names]
    report(rows, args, factory, started)


if __name__ == "__main__":
    main()
