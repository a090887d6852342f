"""Which WSGI server `companion serve` should run: the candidates against waitress, in one run.

Run by hand, from the project folder, with the project's virtualenv:

    .venv/bin/python benchmarks/servers.py
    .venv/bin/python benchmarks/servers.py --servers waitress,granian --seconds 3

Each server in turn (waitress, today's server, first: every ratio is to its figures in
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
import contextlib
import importlib.metadata
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import CSRF, HOST, Connection, Refused, percentile, start_game, stylesheet
from tests.servers import free_port

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
DEAL_TOTAL = 60  # the standard rules; points split evenly, so nobody is near a shoot (60 alone)
SETUP_DEALS = 30
SETUP_TRIES = 20
START_TIMEOUT = 30.0
DEAL_EVERY, FOLLOW_EVERY, FOLLOWERS = 20.0, 3.0, 5
P99_LIMIT = 0.200
TABLES_BUDGET = 30.0
APP = "companion.serving.wsgi:app"
FACTORY = "companion:create_app"
ASGI_FACTORY = "companion.serving.asgi:served"

CHEROOT_RUNNER = """
import sys
from importlib import import_module
from cheroot import wsgi
target, factory, port, threads = sys.argv[1], sys.argv[2] == "factory", int(sys.argv[3]), int(sys.argv[4])
module, _, name = target.partition(":")
app = getattr(import_module(module), name)
server = wsgi.Server(("127.0.0.1", port), app() if factory else app, numthreads=threads, max=threads)
import signal
signal.signal(signal.SIGTERM, lambda *_: server.stop())
server.safe_start()
"""


# --- the servers -------------------------------------------------------------------


@dataclass
class Candidate:
    name: str
    package: str
    command: object  # (port, threads, factory: bool) -> list[str]


def _waitress(port: int, threads: int, factory: bool) -> list[str]:
    target = ["--call", FACTORY] if factory else [APP]
    return [str(BIN / "waitress-serve"), f"--listen={HOST}:{port}", f"--threads={threads}", *target]


def _granian(workers: int):
    def command(port: int, threads: int, factory: bool) -> list[str]:
        granian = [str(BIN / "granian"), "--interface", "wsgi", "--host", HOST, "--port", str(port)]
        granian += ["--workers", str(workers), "--blocking-threads", str(threads), "--no-access-log"]
        return [*granian, *(["--factory", FACTORY] if factory else [APP])]

    return command


def _granian_asgi(workers: int):
    """granian as `companion serve` runs it: ASGI in front, the body read before a thread
    runs the Flask app (companion/serving/asgi.py), ``threads`` of them per worker."""

    def command(port: int, threads: int, factory: bool) -> list[str]:
        granian = [str(BIN / "granian"), "--interface", "asgi", "--host", HOST, "--port", str(port)]
        granian += ["--workers", str(workers), "--no-ws", "--no-access-log", "--factory", ASGI_FACTORY]
        return ["env", f"COMPANION_THREADS={threads}", *granian]

    return command


def _gunicorn(port: int, threads: int, factory: bool) -> list[str]:
    gunicorn = [str(BIN / "gunicorn"), "-k", "gthread", "--threads", str(threads), "-w", "1", "-b", f"{HOST}:{port}"]
    return [*gunicorn, f"{FACTORY}()" if factory else APP]


def _cheroot(port: int, threads: int, factory: bool) -> list[str]:
    if factory:  # the CLI takes only a module:object, so a tiny runner of the same Server
        return [sys.executable, "-c", CHEROOT_RUNNER, FACTORY, "factory", str(port), str(threads)]
    return [str(BIN / "cheroot"), APP, "--bind", f"{HOST}:{port}", "--threads", str(threads), "--max-threads", str(threads)]


CANDIDATES = {
    "waitress": Candidate("waitress", "waitress", _waitress),
    "granian": Candidate("granian", "granian", _granian(1)),
    "granian-w2": Candidate("granian-w2", "granian", _granian(2)),
    "granian-asgi": Candidate("granian-asgi", "granian", _granian_asgi(1)),
    "granian-asgi-w2": Candidate("granian-asgi-w2", "granian", _granian_asgi(2)),
    "gunicorn": Candidate("gunicorn", "gunicorn", _gunicorn),
    "cheroot": Candidate("cheroot", "cheroot", _cheroot),
}


def version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def app_env(folder: Path, root: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("COMPANION_PASSCODE", "COMPANION_HOSTS", "COMPANION_PROXY", "SECRET_KEY")
    }
    env.update(
        {
            "COMPANION_INSTANCE": str(folder),
            "DATABASE_URL": f"sqlite:///{folder / 'companion.sqlite3'}",
            "HTTPS_PORT": "off",
            "PYTHONPATH": os.pathsep.join([str(root), *filter(None, [os.environ.get("PYTHONPATH")])]),
            "PYTHONUNBUFFERED": "1",
        }
    )
    return env


def log_tail(path: Path, lines: int = 8) -> str:
    try:
        return "\n".join("      " + line for line in path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "      (no log)"


def uses_factory(root: Path) -> bool:
    """Whether companion.serving.wsgi cannot be imported here, so every server must build the app itself."""
    folder = Path(tempfile.mkdtemp(prefix="companion-bench-"))
    try:
        result = subprocess.run(
            [sys.executable, "-c", f"import {APP.partition(':')[0]}"],
            env=app_env(folder, root),
            cwd=root,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,  # its failure is the answer
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if result.returncode == 0:
        return False
    last = (result.stderr.strip().splitlines() or ["?"])[-1]
    print(f"note: {APP} does not import here ({last}); every server builds the app with {FACTORY} instead")
    return True


class Running:
    """One server process (and its children) with its own instance folder."""

    def __init__(self, candidate: Candidate, threads: int, factory: bool, root: Path) -> None:
        self.candidate = candidate
        self.folder = Path(tempfile.mkdtemp(prefix=f"companion-{candidate.name}-"))
        self.port = free_port()
        self.log = self.folder / "server.log"
        self.env = app_env(self.folder, root)
        self.root = root
        self.command = candidate.command(self.port, threads, factory)
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        migrate = subprocess.run(
            [str(BIN / "companion"), "db", "upgrade"],
            env=self.env,
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        if migrate.returncode != 0:
            raise RuntimeError("companion db upgrade failed:\n" + migrate.stderr[-1500:])
        with self.log.open("ab") as output:
            # a session of its own, so that stop() reaches the worker processes too
            self.process = subprocess.Popen(
                self.command,
                env=self.env,
                cwd=self.root,
                stdout=output,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        deadline = time.monotonic() + START_TIMEOUT
        wrong: list[int] = []
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"exited with {self.process.returncode}:\n{log_tail(self.log)}")
            try:
                status = asyncio.run(answer_of(self.port, "/", 2.0))
                if status == 200:
                    return
                wrong.append(status)
                if len(wrong) >= 10:  # up, but the app itself is broken: no use waiting
                    raise RuntimeError(f"GET / answered {status}:\n{log_tail(self.log)}")
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f"GET / not answered 200 within {START_TIMEOUT:.0f} s:\n{log_tail(self.log)}")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=8)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=5)
            except ProcessLookupError:
                pass
        if self.process:
            # anything of the group left behind (a worker that ignored SIGTERM)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)

    def notes(self) -> list[str]:
        """The server's own warnings and errors, for the report."""
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return []
        seen: dict[str, str] = {}  # one line of each kind: "Task queue depth is 1", "... is 5" are one
        for line in text.splitlines():
            if re.search(r"warn|error|exception|traceback|critical", line, re.I):
                kind = re.sub(r"\d+", "#", re.sub(r"^\[?[\d\- :,.]+\]?\s*", "", line.strip()))
                seen.setdefault(kind, line.strip())
        return list(seen.values())[:6]

    def cleanup(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


# --- a scorer's phone ---------------------------------------------------------------


async def answer_of(port: int, path: str, timeout: float) -> int:
    """The status of GET ``path`` on a new connection, asked and answered within ``timeout``."""
    connection = Connection(port, timeout=timeout)
    try:
        return (await connection.request("GET", path)).status
    finally:
        connection.close()


@dataclass
class Game:
    """One scorer's phone: its cookies, its connection, its game and the next deal number."""

    port: int
    path: str = ""
    token: str = ""
    number: int = 1
    players: int = len(PLAYERS)
    cookies: dict[str, str] = field(default_factory=dict)
    connection: Connection = field(init=False)
    stylesheet: str = ""

    def __post_init__(self) -> None:
        self.connection = Connection(self.port, self.cookies)

    def deal_form(self) -> dict[str, str]:
        form = {"csrf_token": self.token, "mode": "points", "submission": uuid.uuid4().hex, "number": str(self.number)}
        form.update({f"points-{seat}": str(DEAL_TOTAL // self.players) for seat in range(self.players)})
        return form


async def new_game(port: int, players: int = len(PLAYERS)) -> Game:
    game = Game(port, players=players)
    game.path, page = await start_game(game.connection, PLAYERS[:players])
    game.token = CSRF.search(page).group(1)
    game.stylesheet = stylesheet(page)
    return game


async def record(game: Game, connection: Connection | None = None) -> int:
    """Record the next deal; 200 when the server answered with the fragment of the new state."""
    answer = await (connection or game.connection).request("POST", game.path + "/deals", game.deal_form(), {"HX-Request": "true"})
    if answer.status == 200:
        game.number += 1
    return answer.status


async def recorded_number(game: Game) -> int:
    """The next deal number as the game page says it, to check that the deals were all kept."""
    page = await game.connection.request("GET", game.path)
    found = re.search(r'name="number" value="(\d+)"', page.text())
    return int(found.group(1)) if page.status == 200 and found else -1


async def with_deals(port: int, deals: int, refusals: Counter) -> Game:
    """A game with ``deals`` deals; a write the server refuses (500: SQLite busy) is sent again."""
    for _ in range(SETUP_TRIES):
        try:
            game = await new_game(port)
            break
        except Refused as error:
            refusals[str(error).rsplit(" ", 1)[-1]] += 1
            await asyncio.sleep(0.1)
    else:
        raise RuntimeError(f"a game could not be started in {SETUP_TRIES} tries: {dict(refusals)}")
    for _ in range(deals):
        for _ in range(SETUP_TRIES):
            status = await record(game)
            if status == 200:
                break
            refusals[str(status)] += 1
            await asyncio.sleep(0.1)
        else:
            raise RuntimeError(f"deal {game.number} of the set-up was refused {SETUP_TRIES} times: {dict(refusals)}")
    return game


# --- measuring ---------------------------------------------------------------------


@dataclass
class Figure:
    rps: float = 0.0
    p50: float = 0.0
    p99: float = 0.0
    errors: int = 0
    cpu: float = 0.0
    note: str = ""

    def cells(self, base: Figure | None) -> str:
        ratio = f"{self.rps / base.rps:5.2f}x" if base and base.rps else "    - "
        return f"{self.rps:7.0f} {self.p50 * 1000:6.1f} {self.p99 * 1000:6.1f} {ratio}"


def kinds(errors: Counter) -> str:
    """What went wrong, most often first: "500x3 TimeoutErrorx1"."""
    return " ".join(f"{kind}x{count}" for kind, count in errors.most_common())


async def closed_loop(workers: list, seconds: float, warmup: float) -> Figure:
    """Each worker is an async callable returning the answer's status (200 is the one expected);
    each loops, waiting for its answer before asking again, until time is up."""
    latencies: list[float] = []
    errors: Counter = Counter()
    measuring = [False]

    async def run(work, end: float) -> None:
        while time.perf_counter() < end:
            start = time.perf_counter()
            try:
                outcome = await work()
            except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as error:
                outcome = type(error).__name__
            if measuring[0]:
                if outcome == 200:
                    latencies.append(time.perf_counter() - start)
                else:
                    errors[str(outcome)] += 1
            if outcome != 200:
                await asyncio.sleep(0.05)

    if warmup > 0:
        end = time.perf_counter() + warmup
        await asyncio.gather(*(run(work, end) for work in workers))
    measuring[0] = True
    cpu = time.process_time()
    start = time.perf_counter()
    await asyncio.gather(*(run(work, start + seconds) for work in workers))
    elapsed = time.perf_counter() - start
    return Figure(
        len(latencies) / elapsed,
        percentile(latencies, 0.5),
        percentile(latencies, 0.99),
        sum(errors.values()),
        time.process_time() - cpu,
        kinds(errors),
    )


def getter(port: int, path: str):
    connection = Connection(port)

    async def work() -> int:
        return (await connection.request("GET", path)).status

    return work


# what a stalled upload sends: a POST's headers and the first bytes of a body it never finishes
STALLED_UPLOAD = (
    b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: 1000\r\n\r\nfile=abcde"
)


async def idle_lockout(port: int, count: int, wait: float, says: bytes = b"") -> tuple[str, float, str]:
    """Hold ``count`` connections that say ``says`` and then nothing, then time GET / on a new one."""
    idle: list[socket.socket] = []
    refused = 0
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        if sock.connect_ex((HOST, port)) not in (0, 115):  # 115: EINPROGRESS
            refused += 1
            sock.close()
            continue
        idle.append(sock)
    await asyncio.sleep(1.0)  # time for the server to accept them all
    if says:
        for sock in idle:
            sock.setblocking(True)
            sock.sendall(says)
            sock.setblocking(False)
        await asyncio.sleep(0.5)
    start = time.perf_counter()
    try:
        status = await answer_of(port, "/", wait)
        elapsed = time.perf_counter() - start
        answer = f"{elapsed * 1000:.0f} ms" + ("" if status == 200 else f" ({status})")
    except TimeoutError:
        elapsed = float("inf")
        answer = f"> {wait:.0f} s (locked out)"
    except (OSError, ValueError, asyncio.IncompleteReadError) as error:
        elapsed = float("inf")
        answer = f"failed: {type(error).__name__}"
    closed = 0
    for sock in idle:
        try:
            if sock.recv(1) == b"":
                closed += 1
        except BlockingIOError:
            pass
        except OSError:
            closed += 1
        sock.close()
    note = f"{len(idle)} held"
    if refused:
        note += f", {refused} refused"
    if closed:
        note += f", {closed} closed by the server"
    return answer, elapsed, note


async def tables_step(port: int, tables: list[Game], seconds: float) -> tuple[list[float], Counter]:
    """One step of ``tables_held``: each table's scorer and followers at work for ``seconds``;
    the latencies of the answers expected, and what went wrong."""
    latencies: list[float] = []
    errors: Counter = Counter()
    pending: set[asyncio.Task] = set()

    async def timed(game: Game, scorer: bool) -> None:
        # a new connection for each request, as this figure was first measured (load.py's phones keep theirs)
        connection = Connection(port, game.cookies)
        start = time.perf_counter()
        try:
            if scorer:
                outcome = await record(game, connection)
            else:
                outcome = (await connection.request("GET", game.path)).status
        except (OSError, TimeoutError, ValueError, asyncio.IncompleteReadError) as error:
            outcome = type(error).__name__
        finally:
            connection.close()
        if outcome == 200:
            latencies.append(time.perf_counter() - start)
        else:
            errors[("POST " if scorer else "GET ") + str(outcome)] += 1

    async def phone(game: Game, scorer: bool, first: float, every: float, end: float) -> None:
        due = first
        while due < end:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            task = asyncio.create_task(timed(game, scorer))
            pending.add(task)
            task.add_done_callback(pending.discard)
            due += every

    now = time.monotonic()
    end = now + seconds
    phones = []
    for index, game in enumerate(tables):
        phones.append(phone(game, True, now + DEAL_EVERY * index / len(tables), DEAL_EVERY, end))
        for follower in range(FOLLOWERS):
            spread = ((index * FOLLOWERS + follower) % (len(tables) * FOLLOWERS)) / (len(tables) * FOLLOWERS)
            phones.append(phone(game, False, now + FOLLOW_EVERY * spread, FOLLOW_EVERY, end))
    await asyncio.gather(*phones)
    if pending:
        await asyncio.gather(*list(pending))
    return latencies, errors


async def tables_held(port: int, step_seconds: float, max_tables: int) -> tuple[str, str, float]:
    """The benchmarks/load.py idea, in short steps: the largest number of tables with p99 under 200 ms."""
    cpu = time.process_time()
    begun = time.monotonic()
    tables: list[Game] = []
    held, count, failed = 0, 8, False
    limit = asyncio.Semaphore(8)
    steps: list[str] = []

    async def table() -> Game:
        async with limit:
            game = await new_game(port, players=4)
            game.connection.close()
            return game

    while count <= max_tables and time.monotonic() - begun + step_seconds <= TABLES_BUDGET:
        tables += await asyncio.gather(*(table() for _ in range(count - len(tables))))
        latencies, errors = await tables_step(port, tables, step_seconds)
        p99 = percentile(latencies, 0.99)
        steps.append(f"{count}:{p99 * 1000:.0f}ms" + (f" ({kinds(errors)})" if errors else ""))
        if p99 >= P99_LIMIT or errors:
            failed = True
            break
        held = count
        count *= 2
    # not failed: it held the most that --max-tables or the time budget let this run ask for
    return ("" if failed else ">=") + str(held), " ".join(steps), time.process_time() - cpu


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
