"""The load benchmarks/servers.py puts on each server through its HTTP interface, and how it is timed.

- a scorer's phone: :class:`Game` (its cookies, its connection, its game and the next
  deal number), :func:`new_game`, :func:`record` a deal as htmx does, :func:`recorded_number`
  to check that every deal was kept, :func:`with_deals` for the set-up's 30-deal games
  (a write refused while SQLite is busy is sent again); :func:`answer_of`, one GET on a
  new connection (also how benchmarks/server_candidates.py knows a server is up);
- the figures: :func:`closed_loop`, clients each waiting for its answer before asking
  again, timed into a :class:`Figure` (:func:`getter` for the static and page figures);
  :func:`idle_lockout`, GET / timed while connections that say nothing (or
  :data:`STALLED_UPLOAD`) are held open; :func:`tables_held`, the benchmarks/load.py idea
  in short steps of :func:`tables_step`; :func:`kinds`, what went wrong, in a few words.

All of it runs on one asyncio loop on raw sockets (benchmarks/common.py's Connection) in
the benchmark's own process. Used by benchmarks/servers.py and server_candidates.py;
servers.py puts the project's folder on sys.path before it imports this module.
"""

from __future__ import annotations

import asyncio
import re
import socket
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field

from benchmarks.common import CSRF, HOST, Connection, Refused, percentile, start_game, stylesheet

PLAYERS = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
DEAL_TOTAL = 60  # the standard rules; points split evenly, so nobody is near a shoot (60 alone)
SETUP_TRIES = 20
DEAL_EVERY, FOLLOW_EVERY, FOLLOWERS = 20.0, 3.0, 5
P99_LIMIT = 0.200
TABLES_BUDGET = 30.0


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
