"""What a page costs, as a ratio to a static file of the same server, in one run.

Starts ``companion serve`` (granian, one worker per core) on a fresh SQLite database (or
PostgreSQL, with TEST_DATABASE_URL), fills it through ``companion import`` and times,
over keep-alive HTTP with gzip as a phone asks:

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

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.databases import Databases  # noqa: E402
from tests.servers import Server, free_port  # noqa: E402

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
HOME_PAIRS = 200


def black_spy(number: int, players: int, deals: int, end_value: int | None = None) -> dict:
    names = NAMES[:players] if number == 0 else [f"{name}{number % 40}" for name in NAMES[:players]]
    share = 60 // players
    points = [share] * players
    points[0] += 60 - share * players
    return {
        "kind": "black-spy", "players": names, "first_dealer": names[0], "rules": {"end_value": end_value},
        "created_at": f"2025-{1 + number % 12:02d}-{1 + number % 28:02d}T20:{number % 60:02d}:00Z",
        "deals": [{"raw": dict(zip(names, points, strict=True))} for _ in range(deals)],
    }


def finished(number: int, players: int) -> dict:
    """A game over at its first deal: a house end value of 50, and 60 to one player."""
    game = black_spy(number, players, 0, end_value=50)
    game["deals"] = [{"raw": {name: 60 if seat == 0 else 0 for seat, name in enumerate(game["players"])}}]
    return game


def scorepad_game(rounds: int) -> dict:
    names = ["Ana", "Ben", "Cy", "Dee"]
    return {
        "kind": "scorepad", "name": "Rummy", "players": names, "target": 100_000,
        "rounds": [{name: 5 + seat for seat, name in enumerate(names)} for _ in range(rounds)],
    }


def spy_game(turns: int) -> dict:
    return {
        "kind": "spy", "players": ["Ana", "Ben", "Cy"], "colours": {"Ana": "green", "Ben": "red", "Cy": "blue"},
        "first_player": "Ana", "turns": [{"player": ["Ana", "Ben", "Cy"][turn % 3]} for turn in range(turns)],
    }


class Phone:
    """One keep-alive connection with a cookie, as a phone's browser keeps."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookie = ""

    def request(self, method: str, path: str, body: str | None = None, **headers: str) -> tuple[int, bytes, dict[str, str]]:
        sent = {"Accept-Encoding": "gzip, br", "Accept-Language": "en", **headers}
        if self.cookie:
            sent["Cookie"] = self.cookie
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=sent)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed an idle keep-alive connection (a phone's browser reconnects too)
            self.connection = http.client.HTTPConnection("127.0.0.1", self.connection.port, timeout=30)
            self.connection.request(method, path, body=body, headers=sent)
            response = self.connection.getresponse()
        data = response.read()
        received = {key.lower(): value for key, value in response.getheaders()}
        if "set-cookie" in received:
            self.cookie = received["set-cookie"].split(";", 1)[0]
        return response.status, data, received

    def timed(self, method: str, path: str, repeat: int = 40, body: str | None = None, **headers: str) -> float:
        times = []
        for _ in range(repeat):
            started = time.perf_counter()
            status, _, _ = self.request(method, path, body, **headers)
            times.append(time.perf_counter() - started)
            assert status in (200, 303, 304), (path, status)
        return statistics.median(times)


def load(server: Server, games: list[dict]) -> None:
    file = server.folder / "games.json"
    file.write_text(json.dumps({"format": "companion/1", "games": games}))
    env = {**os.environ, "COMPANION_INSTANCE": str(server.folder), "DATABASE_URL": server.database_url or ""}
    subprocess.run([str(Path(sys.executable).with_name("companion")), "import", str(file)], env=env, check=True, capture_output=True)


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    databases = Databases(folder)
    url = databases.empty() if databases.kind == "postgresql" else f"sqlite:///{folder / 'pages.sqlite3'}"
    server = Server(folder / "server", free_port(), database_url=url)
    # the server migrates the empty database; the games go in once it has
    server.start()
    load(server, [black_spy(0, 6, 30, end_value=10_000), spy_game(100), scorepad_game(60)] + [black_spy(n, 4, 10) for n in range(1, 8)])
    phone = Phone(server.port)
    css = re.search(rb'href="(/static/css/app\.css\?v=[0-9a-f]+)"', phone.request("GET", "/", **{"Accept-Encoding": "identity"})[1]).group(1).decode()
    ids = re.findall(rb'href="/(black-spy|spy|scorepad)/([A-Za-z0-9]+)"', phone.request("GET", "/history?state=in-progress", **{"Accept-Encoding": "identity"})[1])
    game = next(game_id.decode() for kind, game_id in ids if kind == b"black-spy" and "Fay" in phone.request("GET", f"/black-spy/{game_id.decode()}", **{"Accept-Encoding": "identity"})[1].decode())
    spy = next(game_id.decode() for kind, game_id in ids if kind == b"spy")
    pad = next(game_id.decode() for kind, game_id in ids if kind == b"scorepad")
    page = phone.request("GET", f"/black-spy/{game}", **{"Accept-Encoding": "identity"})[1].decode()
    watch = re.search(r'(/watch/[A-Za-z0-9]+)', page).group(1)

    floor = phone.timed("GET", css, repeat=100)
    figures: list[tuple[str, float]] = []
    figures.append(("black spy, 6 players, 30 deals", phone.timed("GET", f"/black-spy/{game}")))
    figures.append(("spy, 100 turns", phone.timed("GET", f"/spy/{spy}")))
    figures.append(("score pad, 60 rounds", phone.timed("GET", f"/scorepad/{pad}")))
    figures.append(("follow page (htmx poll)", phone.timed("GET", watch, **{"HX-Request": "true"})))
    tag = phone.request("GET", watch, **{"HX-Request": "true"})[2]["etag"]
    figures.append(("follow poll, copy current: 304", phone.timed("GET", watch, **{"HX-Request": "true", "If-None-Match": tag})))

    def post_deal() -> float:
        fragment = phone.request("GET", f"/black-spy/{game}", **{"Accept-Encoding": "identity"})[1].decode()
        form_html = fragment.split('class="card deal-form"', 1)[1].split("</form>", 1)[0]
        fields = dict(re.findall(r'name="(csrf_token|submission|version|number)" value="([^"]*)"', form_html))
        form = {**fields, "mode": "points", **{f"points-{seat}": "10" for seat in range(6)}}
        started = time.perf_counter()
        status, _, _ = phone.request("POST", f"/black-spy/{game}/deals", urlencode(form), **{"HX-Request": "true"})
        spent = time.perf_counter() - started
        assert status == 200, status
        return spent

    figures.append(("deal POST + fragment (htmx)", statistics.median(post_deal() for _ in range(20))))

    # the same ten games and 10,000 more, on a server of their own
    big_url = databases.empty() if databases.kind == "postgresql" else f"sqlite:///{folder / 'big.sqlite3'}"
    big = Server(folder / "big", free_port(), database_url=big_url)
    big.start()
    load(big, [black_spy(0, 6, 30, end_value=10_000), spy_game(100), scorepad_game(60)] + [black_spy(n, 4, 10) for n in range(1, 8)])
    load(big, [black_spy(n, 4 + n % 3, 5 + n % 20, end_value=10_000) if n % 2 else finished(n, 4 + n % 3) for n in range(9, 10_009)])
    big_phone = Phone(big.port)
    small_home, big_home = [], []
    for _ in range(HOME_PAIRS):
        small_home.append(phone.timed("GET", "/", repeat=1))
        big_home.append(big_phone.timed("GET", "/", repeat=1))
    figures.append(("home, 10 games", statistics.median(small_home)))
    figures.append(("home, 10,010 games", statistics.median(big_home)))
    home_size = len(phone.request("GET", "/")[1])
    home_size_big = len(big_phone.request("GET", "/")[1])
    paired = statistics.median(b / s for s, b in zip(small_home, big_home, strict=True))
    big.stop()

    print(f"{databases.kind}, companion serve with its default workers (one per core); median of 40 requests; floor: css file {floor * 1000:.2f} ms")
    for name, spent in figures:
        print(f"  {name:34} {spent * 1000:7.2f} ms  {spent / floor:5.1f} x static")
    print(
        f"  home page 10 → 10,010 games: time {statistics.median(big_home) / statistics.median(small_home):.2f} x"
        f" (each pair's ratio, median: {paired:.2f} x; {HOME_PAIRS} pairs), size {home_size:,} → {home_size_big:,} bytes (gzip)"
    )
    server.stop()
    databases.close()


if __name__ == "__main__":
    main()
