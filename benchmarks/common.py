"""What the benchmarks share: a phone's HTTP client, blocking or on asyncio, the pages'
forms read back, a percentile, and the games they load through ``companion import``.

- :class:`Phone`: one phone's browser, blocking (http.client): one keep-alive connection,
  its cookies, gzip and brotli asked for as a phone asks (benchmarks/pages.py,
  write_floor.py, export_scale.py);
- :class:`Connection`: the same on asyncio's raw streams, for a load generator that keeps
  hundreds of phones in one loop (benchmarks/load.py, server_load.py); :func:`start_game` opens
  a Black Spy game through it as a phone does;
- :class:`Answer`: what both return; :meth:`Answer.text` undoes gzip and brotli;
- :func:`deal_form`, :func:`stylesheet`: what a page names, read back: the next deal's
  fields, the css file;
- :func:`percentile`: the nearest rank, as the load generators print p50 and p99;
- :func:`black_spy`, :func:`finished`, :func:`spy_game`, :func:`scorepad_game`: games in the
  companion/1 file's words, and :func:`import_games` to write them with ``companion import``.

A benchmark run as ``.venv/bin/python benchmarks/<name>.py`` puts the project's folder on
sys.path before it imports this module (and tests.servers, for the server it starts).
"""

from __future__ import annotations

import asyncio
import gzip
import http.client
import json
import os
import re
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from companion.rules.files import MAX_GAMES

if TYPE_CHECKING:
    from tests.servers import Server

HOST = "127.0.0.1"
# what a phone's browser asks for
ACCEPT_ENCODING = "gzip, br"
REQUEST_TIMEOUT = 10.0

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
STYLESHEET = re.compile(r'<link rel="stylesheet" href="([^"]+)"')
DEAL_FIELDS = re.compile(r'name="(csrf_token|submission|version|number)" value="([^"]*)"')


class Refused(Exception):
    """An answer the phone did not expect; its text says which."""


@dataclass
class Answer:
    status: int
    headers: dict[str, str]  # names in lower case
    body: bytes

    def text(self) -> str:
        """The body as text, gzip or brotli undone."""
        return decoded(self.body, self.headers.get("content-encoding", "identity")).decode("utf-8", "replace")


def decoded(body: bytes, encoding: str) -> bytes:
    if encoding == "gzip":
        return gzip.decompress(body)
    if encoding == "br":
        import brotli  # the app's own dependency (its static files are kept in brotli)

        return brotli.decompress(body)
    if encoding in ("identity", ""):
        return body
    raise ValueError(f"a body in {encoding}, which this client cannot read")


def keep_cookie(cookies: dict[str, str], header: str) -> None:
    """Take a Set-Cookie header into a phone's cookies; an emptied or expired cookie goes."""
    # the csrf token lives in the session cookie, and the watch page's ETag is made from it:
    # a phone that dropped its cookie would never be answered 304
    pair, *attributes = header.split(";")
    name, _, value = pair.partition("=")
    if not value or any(attribute.strip().lower() == "max-age=0" for attribute in attributes):
        cookies.pop(name.strip(), None)
    else:
        cookies[name.strip()] = value.strip()


def cookie_header(cookies: Mapping[str, str]) -> str:
    return "; ".join(f"{name}={value}" for name, value in cookies.items())


# --- a phone, blocking ----------------------------------------------------------------


class Phone:
    """One phone's browser: one keep-alive connection (http.client), its cookies, and the
    compression a phone asks for. A connection the server closed while idle is opened
    again and the request sent again, as a browser does."""

    def __init__(self, port: int, timeout: float = 30.0, accept_encoding: str = ACCEPT_ENCODING) -> None:
        self.port = port
        self.timeout = timeout
        self.headers = {"Accept-Encoding": accept_encoding, "Accept-Language": "en"}
        self.cookies: dict[str, str] = {}
        self.connection = http.client.HTTPConnection(HOST, port, timeout=timeout)

    def send(
        self, method: str, path: str, form: Mapping[str, object] | None = None, headers: Mapping[str, str] | None = None
    ) -> http.client.HTTPResponse:
        """Ask, and return the answer with its body still to read (so that its first byte can be timed)."""
        sent = {**self.headers, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = cookie_header(self.cookies)
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        try:
            self.connection.request(method, path, body=body, headers=sent)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
            # the server closed an idle keep-alive connection (a phone's browser reconnects too)
            self.connection.close()
            self.connection = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
            self.connection.request(method, path, body=body, headers=sent)
            response = self.connection.getresponse()
        for header in response.headers.get_all("Set-Cookie") or []:
            keep_cookie(self.cookies, header)
        return response

    def request(
        self, method: str, path: str, form: Mapping[str, object] | None = None, headers: Mapping[str, str] | None = None
    ) -> Answer:
        response = self.send(method, path, form, headers)
        body = response.read()
        return Answer(response.status, {name.lower(): value for name, value in response.getheaders()}, body)

    def close(self) -> None:
        self.connection.close()


# --- a phone on asyncio ---------------------------------------------------------------


class Connection:
    """One keep-alive HTTP/1.1 connection on asyncio's raw streams, cheap enough for a load
    generator to keep hundreds in one loop. ``cookies`` may be a dict that several
    connections of one phone share. With ``ask_again``, a request the server dropped
    unanswered on a connection it held idle is sent again on a new one, as a browser does
    (``reconnects`` counts them); without it the drop is the request's failure."""

    def __init__(
        self,
        port: int,
        cookies: dict[str, str] | None = None,
        accept_encoding: str = "gzip",
        timeout: float = REQUEST_TIMEOUT,
        ask_again: bool = False,
    ) -> None:
        self.port = port
        self.cookies = cookies if cookies is not None else {}
        self.accept_encoding = accept_encoding
        self.timeout = timeout
        self.ask_again = ask_again
        self.reconnects = 0
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None

    async def request(
        self, method: str, path: str, form: Mapping[str, str] | None = None, headers: Mapping[str, str] | None = None
    ) -> Answer:
        """Send a request and read its answer, both within the connection's timeout."""
        raw = self._build(method, path, headers or {}, form)
        async with asyncio.timeout(self.timeout):
            if self.writer is not None:
                try:
                    return await self._exchange(raw, method)
                except (asyncio.IncompleteReadError, ConnectionResetError, BrokenPipeError) as dropped:
                    # the server may close a keep-alive connection it held idle; a browser then
                    # asks again on a new one. Dropped with part of an answer read is a failure.
                    if not self.ask_again or (isinstance(dropped, asyncio.IncompleteReadError) and dropped.partial):
                        raise
                    self.reconnects += 1
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            return await self._exchange(raw, method)

    def _build(self, method: str, path: str, headers: Mapping[str, str], form: Mapping[str, str] | None) -> bytes:
        lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", f"Accept-Encoding: {self.accept_encoding}"]
        if self.cookies:
            lines.append("Cookie: " + cookie_header(self.cookies))
        lines += [f"{name}: {value}" for name, value in headers.items()]
        body = b""
        if form is not None:
            body = urllib.parse.urlencode(form).encode()
            lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body

    async def _exchange(self, raw: bytes, method: str) -> Answer:
        assert self.reader is not None and self.writer is not None
        try:
            self.writer.write(raw)
            answer = await self._read_answer(self.reader, method)
        except BaseException:
            self.close()  # a half-read answer leaves the connection unusable
            raise
        if answer.headers.get("connection", "").lower() == "close":
            self.close()
        return answer

    async def _read_answer(self, reader: asyncio.StreamReader, method: str) -> Answer:
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        status = int(head[0].split(" ", 2)[1])
        headers: dict[str, str] = {}
        for line in head[1:]:
            name, _, value = line.partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                keep_cookie(self.cookies, value)
            elif name:
                headers[name] = value
        if method == "HEAD" or status in (204, 304) or status < 200:
            body = b""
        elif "chunked" in headers.get("transfer-encoding", "").lower():
            body = await self._read_chunked(reader)
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:  # neither: the body runs to the end of the connection
            body = await reader.read()
            headers["connection"] = "close"
        return Answer(status, headers, body)

    @staticmethod
    async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers, if any
                    pass
                return b"".join(parts)
            parts.append(await reader.readexactly(size))
            await reader.readexactly(2)


async def start_game(connection: Connection, players: Sequence[str]) -> tuple[str, str]:
    """Start a Black Spy game (end value 10,000: no game ends) as a phone does, the new-game
    form, then its POST; the game's path, and the new-game page's text."""
    page = await connection.request("GET", "/new")
    text = page.text()
    token = CSRF.search(text)
    if page.status != 200 or token is None:
        raise Refused(f"GET /new answered {page.status}")
    form = {"csrf_token": token.group(1), "first_dealer": "0", "end_value": "10000"}
    form.update({f"player-{row}": name for row, name in enumerate(players)})
    created = await connection.request("POST", "/black-spy/new", form=form)
    if created.status != 303:
        raise Refused(f"POST /black-spy/new answered {created.status}")
    return urllib.parse.urlsplit(created.headers["location"]).path, text


# --- what a page names ------------------------------------------------------------------


def deal_form(page: str) -> dict[str, str]:
    """The hidden fields of a Black Spy deal form (csrf token, submission id, version, deal
    number), from a game page or the fragment a deal's POST answers: what the next deal is
    posted with. Empty when the page has no deal form."""
    _, found, rest = page.partition('class="card deal-form"')
    return dict(DEAL_FIELDS.findall(rest.split("</form>", 1)[0])) if found else {}


def stylesheet(page: str) -> str:
    """The address of the page's stylesheet (hashed: the css file a phone keeps), or ""."""
    found = STYLESHEET.search(page)
    return found.group(1) if found else ""


# --- figures ----------------------------------------------------------------------------


def percentile(values: Iterable[float], share: float) -> float:
    """The value ``share`` of the way up the sorted values (nearest rank, rounded down); 0 for none."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


# --- games in the companion/1 file's words ----------------------------------------------

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]


def black_spy(number: int, players: int, deals: int, end_value: int | None = None) -> dict:
    """Game ``number`` (0 has the plain names, others their own), with ``deals`` even deals of 60."""
    names = NAMES[:players] if number == 0 else [f"{name}{number % 40}" for name in NAMES[:players]]
    share = 60 // players
    points = [share] * players
    points[0] += 60 - share * players
    return {
        "kind": "black-spy",
        "players": names,
        "first_dealer": names[0],
        "rules": {"end_value": end_value},
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
        "kind": "scorepad",
        "name": "Rummy",
        "players": names,
        "target": 100_000,
        "rounds": [{name: 5 + seat for seat, name in enumerate(names)} for _ in range(rounds)],
    }


def spy_game(turns: int) -> dict:
    return {
        "kind": "spy",
        "players": ["Ana", "Ben", "Cy"],
        "colours": {"Ana": "green", "Ben": "red", "Cy": "blue"},
        "first_player": "Ana",
        "turns": [{"player": ["Ana", "Ben", "Cy"][turn % 3]} for turn in range(turns)],
    }


def import_games(server: Server, games: Sequence[dict]) -> float:
    """Write games into the server's database with ``companion import``, as a restore does,
    a file of at most MAX_GAMES (the most one companion/1 file may hold) at a time; the
    seconds it took, process starts included."""
    database = server.database_url or f"sqlite:///{server.folder / 'companion.sqlite3'}"  # as Server.start names it
    env = {**os.environ, "COMPANION_INSTANCE": str(server.folder), "DATABASE_URL": database}
    command = str(Path(sys.executable).with_name("companion"))
    started = time.perf_counter()
    for start in range(0, len(games), MAX_GAMES):
        file = server.folder / f"games-{start}.json"
        file.write_text(json.dumps({"format": "companion/1", "games": games[start : start + MAX_GAMES]}))
        subprocess.run([command, "import", str(file)], env=env, check=True, capture_output=True)
        file.unlink()
    return time.perf_counter() - started
