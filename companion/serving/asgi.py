"""The app as granian serves it: a request's body is read whole before a thread is given to it.

A WSGI server hands each request to a thread that reads the body as the app asks for it,
and granian's reading has no timeout: a phone whose Wi-Fi stalls mid-upload, or anyone
who sends a POST's headers and part of its body, holds that thread for as long as the
socket stays open, and a few such sockets leave every other phone's page waiting.

So granian speaks ASGI to this module instead. A body arrives on the event loop, where a
stalled one costs a coroutine and nothing else; only a request whose body is all in is
handed to the Flask app, in one of a few threads. A body that stops arriving for
``BODY_IDLE_SECONDS``, or takes longer than ``BODY_SECONDS`` in all, is refused (408) and
its connection dropped; one larger than the app takes is refused whole (413) however it is
sent, chunked or with a Content-Length, before any of it reaches the app.

The thread makes the whole answer in one go, and the loop sends it: one hand-over each way
per request. (a2wsgi, the well-known bridge, hands over every message of the answer
separately; it served half the static files and three quarters of the pages a second that
this does, ``benchmarks/servers.py``.) An answer larger than ``BATCH_BYTES`` (an export of
every game) is made and sent a batch at a time, in a thread of its own, so its memory stays
bounded, no thread waits on a slow phone's download, and the table's pages never wait
behind it.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
import os
import sys
from collections.abc import Awaitable, Callable, Iterable, Iterator, MutableMapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from ..web.errors import BODY_REFUSED

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
WSGIApp = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]

# a phone's deal form is a kilobyte; the largest import, a few MB, over a slow Wi-Fi some
# seconds. A body that sends nothing for this long has stalled
BODY_IDLE_SECONDS = 10.0
# and one still arriving after this long is a client holding the server, not a phone
BODY_SECONDS = 60.0
# of a body too large, what is read and dropped after the refusal, at most: a phone's
# upload of a large file, not a stream that never ends
DRAINED_BYTES = 64 * 1024 * 1024
# an answer is sent whole up to this size; a larger one a batch of about this size at a time
BATCH_BYTES = 256 * 1024
# the threads each worker process gives requests; `companion serve --threads` sets it
THREADS = "COMPANION_THREADS"

log = logging.getLogger(__name__)


class Served:
    """An ASGI app that reads each request's body first, then runs a WSGI app in threads."""

    def __init__(
        self, app: WSGIApp, threads: int, limit: int, idle: float = BODY_IDLE_SECONDS, total: float = BODY_SECONDS
    ) -> None:
        self.app = app
        self.limit = limit
        self.idle = idle
        self.total = total
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="companion")
        # the rest of a long answer (an export of every game) is made here, one batch at a
        # time for every such answer in turn: however many run, the threads above stay free
        # for the table's pages
        self.long = ThreadPoolExecutor(max_workers=1, thread_name_prefix="companion-long")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":
            return  # no websockets here
        refused, body = await self._read(scope, receive)
        if body is None:
            return  # the phone went away before its body was in: nobody to answer
        environ = environ_of(scope, body)
        if refused is not None:
            environ[BODY_REFUSED] = refused
        loop = asyncio.get_running_loop()
        # one context for the whole answer, whichever threads make it: a streamed answer's
        # generator enters the app's context in one batch and leaves it in the last
        context = contextvars.Context()
        status, headers, first, chunks = await loop.run_in_executor(self.pool, context.run, _answer, self.app, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if chunks is None:
            await send({"type": "http.response.body", "body": first})
            if refused == 413:
                await self._drain(receive)
            return
        try:
            await send({"type": "http.response.body", "body": first, "more_body": True})
            while True:
                batch, more = await loop.run_in_executor(self.long, context.run, _batch, chunks)
                await send({"type": "http.response.body", "body": batch, "more_body": more})
                if not more:
                    return
        finally:
            await loop.run_in_executor(self.long, context.run, _close, chunks)

    async def _drain(self, receive: Receive) -> None:
        """Read the rest of a body refused as too large, and drop it, for as long as a body may
        take: closed with its data unread, the connection would be reset, and the phone might
        never read the page that says why (as nginx lingers on a close)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.total
        drained = 0
        while drained < DRAINED_BYTES:
            try:
                message = await asyncio.wait_for(receive(), timeout=max(min(self.idle, deadline - loop.time()), 0.001))
            except TimeoutError:
                return
            if message["type"] == "http.disconnect" or not message.get("more_body", False):
                return
            drained += len(message.get("body", b""))

    async def _read(self, scope: Scope, receive: Receive) -> tuple[int | None, bytes | None]:
        """(None, body) once it is all in; (408 or 413, b"") when refused; (None, None) on a disconnect."""
        declared = _content_length(scope)
        if declared is not None and declared > self.limit:
            return 413, b""
        chunks: list[bytes] = []
        size = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.total
        while True:
            wait = min(self.idle, deadline - loop.time())
            try:
                message = await asyncio.wait_for(receive(), timeout=max(wait, 0.001))
            except TimeoutError:
                return 408, b""
            if message["type"] == "http.disconnect":
                return None, None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                return 413, b""
            chunks.append(chunk)
            if not message.get("more_body", False):
                return None, b"".join(chunks)


async def _lifespan(receive: Receive, send: Send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def environ_of(scope: Scope, body: bytes) -> dict[str, Any]:
    """The WSGI environ of an ASGI request whose body is all in (PEP 3333, as asgiref maps it)."""
    root = scope.get("root_path", "")
    path = scope["path"]
    if root and path.startswith(root):
        path = path[len(root) :]
    server = scope.get("server") or ("localhost", 80)
    environ: dict[str, Any] = {
        "REQUEST_METHOD": scope["method"],
        # WSGI carries the url's bytes as latin-1 text
        "SCRIPT_NAME": root.encode("utf-8").decode("latin-1"),
        "PATH_INFO": path.encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] or 0),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.input_terminated": True,
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    client = scope.get("client")
    if client:
        environ["REMOTE_ADDR"], environ["REMOTE_PORT"] = str(client[0]), str(client[1])
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name in ("CONTENT_LENGTH", "TRANSFER_ENCODING"):
            continue  # the body is all here: its length is what was read
        key = name if name == "CONTENT_TYPE" else f"HTTP_{name}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    if body:
        environ["CONTENT_LENGTH"] = str(len(body))
    return environ


Answer = tuple[int, list[tuple[bytes, bytes]], bytes, Iterator[bytes] | None]


def _answer(app: WSGIApp, environ: dict[str, Any]) -> Answer:
    """Run the app: its status, headers and answer, or the answer's first batch and the rest
    (to be made in the same context)."""
    started: list[Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Callable[[bytes], None]:
        started[:] = [
            int(status.split(" ", 1)[0]),
            [(name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers],
        ]
        return _no_write

    iterable = app(environ, start_response)
    chunks = iter(iterable)
    first, more = _batch(chunks)
    if not more:
        _close(iterable)
        return started[0], started[1], first, None
    return started[0], started[1], first, _Closing(chunks, iterable)


def _no_write(data: bytes) -> None:
    raise RuntimeError("the companion's app never writes with start_response's write()")


class _Closing(Iterator[bytes]):
    """An answer's chunks, with the iterable they come from to close at the end."""

    def __init__(self, chunks: Iterator[bytes], iterable: Iterable[bytes]) -> None:
        self.chunks, self.iterable = chunks, iterable

    def __next__(self) -> bytes:
        return next(self.chunks)

    def close(self) -> None:
        _close(self.iterable)


def _batch(chunks: Iterator[bytes]) -> tuple[bytes, bool]:
    """The next ``BATCH_BYTES`` or so of an answer, and whether more is to come."""
    parts: list[bytes] = []
    size = 0
    for chunk in chunks:
        parts.append(chunk)
        size += len(chunk)
        if size >= BATCH_BYTES:
            return b"".join(parts), True
    return b"".join(parts), False


def _close(iterable: object) -> None:
    close = getattr(iterable, "close", None)
    if close is not None:
        try:
            close()
        except Exception:
            log.exception("closing an answer failed")


def served() -> Served:
    """The app as each granian worker of `companion serve` builds it (``--factory``)."""
    import gc
    import signal

    from .. import create_app
    from .granian import DIE_WITH_PARENT, die_with_parent

    if os.environ.get(DIE_WITH_PARENT):
        # gone with the process that started it: a killed server never leaves a worker holding its port
        die_with_parent(signal.SIGKILL)
    app = create_app()
    # what the app holds from here on (its modules, templates, rules) lives as long as the
    # worker: the collector no longer walks it, which took a deal's answer 80-100 ms once in
    # a few hundred (benchmarks/tail.py)
    gc.freeze()
    return Served(app, int(os.environ.get(THREADS) or 2), app.config["MAX_CONTENT_LENGTH"])
