"""What a page costs, as a ratio to a static file of the same server, in one run.

Starts ``companion serve`` (granian, one worker per core) on a fresh SQLite database (or
PostgreSQL, with TEST_DATABASE_URL), fills it through ``companion import`` and times,
over keep-alive HTTP with gzip and brotli as a phone asks:

- the css file (the floor every figure is divided by);
- the home page with 10 games, and beside it a second server's with 10,010 (it should not
  grow): their requests alternate, so that both meet the same moments of a noisy machine;
- a 6-player Black Spy page of 30 deals, a Spy page of 100 turns, a score pad of 60
  rounds, and a deal posted with htmx with the fragment it returns;
- a follower's poll whose copy is current: a 304.

Run by hand:

    .venv/bin/python benchmarks/pages.py
"""

from __future__ import annotations

import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Phone, black_spy, deal_form, finished, import_games, scorepad_game, spy_game, stylesheet
from tests.databases import Databases
from tests.servers import Server, free_port

HOME_PAIRS = 200
HTMX = {"HX-Request": "true"}


def timed(phone: Phone, path: str, repeat: int = 40, headers: dict[str, str] | None = None) -> float:
    """The median seconds of ``repeat`` GETs of ``path``, each answered 200, 303 or 304."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        status = phone.request("GET", path, headers=headers).status
        times.append(time.perf_counter() - started)
        assert status in (200, 303, 304), (path, status)
    return statistics.median(times)


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    databases = Databases(folder)
    url = databases.empty() if databases.kind == "postgresql" else f"sqlite:///{folder / 'pages.sqlite3'}"
    server = Server(folder / "server", free_port(), database_url=url)
    # the server migrates the empty database; the games go in once it has
    server.start()
    ten = [black_spy(0, 6, 30, end_value=10_000), spy_game(100), scorepad_game(60)]
    ten += [black_spy(n, 4, 10) for n in range(1, 8)]
    import_games(server, ten)
    phone = Phone(server.port)
    css = stylesheet(phone.request("GET", "/").text())
    ids = re.findall(
        r'href="/(black-spy|spy|scorepad)/([A-Za-z0-9]+)"', phone.request("GET", "/history?state=in-progress").text()
    )
    game = next(
        game_id for kind, game_id in ids if kind == "black-spy" and "Fay" in phone.request("GET", f"/black-spy/{game_id}").text()
    )
    spy = next(game_id for kind, game_id in ids if kind == "spy")
    pad = next(game_id for kind, game_id in ids if kind == "scorepad")
    watch = re.search(r"(/watch/[A-Za-z0-9]+)", phone.request("GET", f"/black-spy/{game}").text()).group(1)

    floor = timed(phone, css, repeat=100)
    figures: list[tuple[str, float]] = []
    figures.append(("black spy, 6 players, 30 deals", timed(phone, f"/black-spy/{game}")))
    figures.append(("spy, 100 turns", timed(phone, f"/spy/{spy}")))
    figures.append(("score pad, 60 rounds", timed(phone, f"/scorepad/{pad}")))
    figures.append(("follow page (htmx poll)", timed(phone, watch, headers=HTMX)))
    tag = phone.request("GET", watch, headers=HTMX).headers["etag"]
    figures.append(("follow poll, copy current: 304", timed(phone, watch, headers={**HTMX, "If-None-Match": tag})))

    def post_deal() -> float:
        form = {**deal_form(phone.request("GET", f"/black-spy/{game}").text()), "mode": "points"}
        form.update({f"points-{seat}": "10" for seat in range(6)})
        started = time.perf_counter()
        status = phone.request("POST", f"/black-spy/{game}/deals", form, HTMX).status
        spent = time.perf_counter() - started
        assert status == 200, status
        return spent

    figures.append(("deal POST + fragment (htmx)", statistics.median(post_deal() for _ in range(20))))

    # the same ten games and 10,000 more, on a server of their own
    big_url = databases.empty() if databases.kind == "postgresql" else f"sqlite:///{folder / 'big.sqlite3'}"
    big = Server(folder / "big", free_port(), database_url=big_url)
    big.start()
    import_games(big, ten)
    more = [black_spy(n, 4 + n % 3, 5 + n % 20, end_value=10_000) if n % 2 else finished(n, 4 + n % 3) for n in range(9, 10_009)]
    import_games(big, more)
    big_phone = Phone(big.port)
    small_home, big_home = [], []
    for _ in range(HOME_PAIRS):
        small_home.append(timed(phone, "/", repeat=1))
        big_home.append(timed(big_phone, "/", repeat=1))
    figures.append(("home, 10 games", statistics.median(small_home)))
    figures.append(("home, 10,010 games", statistics.median(big_home)))
    home, home_big = phone.request("GET", "/"), big_phone.request("GET", "/")
    encoding = home.headers.get("content-encoding", "identity")
    paired = statistics.median(b / s for s, b in zip(small_home, big_home, strict=True))
    big.stop()

    print(
        f"{databases.kind}, companion serve with its default workers (one per core); median of 40 requests; floor: css file {floor * 1000:.2f} ms"
    )
    for name, spent in figures:
        print(f"  {name:34} {spent * 1000:7.2f} ms  {spent / floor:5.1f} x static")
    print(
        f"  home page 10 → 10,010 games: time {statistics.median(big_home) / statistics.median(small_home):.2f} x"
        f" (each pair's ratio, median: {paired:.2f} x; {HOME_PAIRS} pairs), size {len(home.body):,} → {len(home_big.body):,} bytes ({encoding})"
    )
    server.stop()
    databases.close()


if __name__ == "__main__":
    main()
