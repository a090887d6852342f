"""`companion serve` run as a real process on loopback, for tests that need a server."""

from __future__ import annotations

import http.cookiejar
import os
import random
import re
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parent.parent

# below the ports the kernel hands out for outgoing connections (32768 and up on Linux), so
# no connection takes a port between free_port() and the server binding it
PORTS = range(20000, 32768)
_draw = random.SystemRandom()  # hypothesis seeds the module's random; this one it leaves alone


def free_port() -> int:
    """A port nothing listens on. Each parallel worker draws from ports of its own, so two
    servers of one run never pick the same port before either has bound it."""
    worker = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    while True:
        port = _draw.randrange(PORTS.start + worker, PORTS.stop, workers)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


@dataclass
class Server:
    """One `companion serve` process with its own instance folder and database."""

    folder: Path
    port: int
    database_url: str | None = None  # none: a new SQLite file in the folder; `serve` migrates whatever it is given
    process: subprocess.Popen | None = None
    https_port: int | None = None  # the secure listener beside the plain one; none unless asked
    extra_env: dict[str, str] | None = None
    options: tuple[str, ...] = ()  # more of `companion serve`'s options, such as ("--threads", "2")
    # the checkout whose code is served: this one, or another to measure against (tap_ab.py)
    checkout: Path = CHECKOUT

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {
            **os.environ,
            "COMPANION_INSTANCE": str(self.folder),
            "DATABASE_URL": self.database_url or f"sqlite:///{self.folder / 'companion.sqlite3'}",
            "HTTPS_PORT": str(self.https_port) if self.https_port else "off",
            # the code of the checkout these tests are in, whichever checkout the virtualenv's
            # editable install points to (a worktree measured by benchmarks/ included)
            "PYTHONPATH": os.pathsep.join(filter(None, [str(self.checkout), os.environ.get("PYTHONPATH")])),
            **(self.extra_env or {}),
        }
        command = [
            str(Path(sys.executable).with_name("companion")),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            *self.options,
        ]
        self.folder.mkdir(parents=True, exist_ok=True)
        # a file, not a pipe: a pipe nobody reads would stall the server once full
        log = self.folder / "server.log"
        with log.open("ab") as output:
            # a session of its own: kill() ends the whole tree, as a power cut would
            # started in the checkout: granian's workers put their working folder first on
            # their path, so the code they import is that folder's whatever PYTHONPATH says
            self.process = subprocess.Popen(
                command, env=env, cwd=self.checkout, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"companion serve exited: {log.read_text()}")
            try:
                for port in [self.port] + ([self.https_port] if self.https_port else []):
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                        pass
                return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("companion serve did not start in 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self._wait_until_port_is_free()

    def kill(self) -> None:
        """End the server at once, as a power cut would: no cleanup, no flush."""
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self._wait_until_port_is_free()

    def _wait_until_port_is_free(self) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    time.sleep(0.1)
            except OSError:
                return


class Phone:
    """One phone's browser: its own cookies, no redirects followed."""

    def __init__(self, base: str, context: ssl.SSLContext | None = None, jar: http.cookiejar.CookieJar | None = None) -> None:
        self.base = base
        # another phone's jar: the same phone asking at another address (another instance)
        self.jar = jar = jar if jar is not None else http.cookiejar.CookieJar()

        class NoRedirect(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *args, **kwargs):
                return None

        handlers: list[urllib.request.BaseHandler] = [urllib.request.HTTPCookieProcessor(jar), NoRedirect()]
        if context is not None:
            handlers.append(urllib.request.HTTPSHandler(context=context))
        self.opener = urllib.request.build_opener(*handlers)

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as response:
            return response.read().decode()

    def post(self, path: str, form: dict[str, str]) -> tuple[int, str, str]:
        data = urllib.parse.urlencode(form).encode()
        # a browser names the page a form came from; over https the form token's check asks for it
        request = urllib.request.Request(self.base + path, data=data, headers={"Referer": self.base + path})
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, response.headers.get("Location", ""), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.headers.get("Location", ""), error.read().decode()

    def token(self, path: str) -> str:
        return re.search(r'name="csrf_token" value="([^"]+)"', self.get(path)).group(1)

    def start_game(self, end_value: str = "") -> str:
        form = {"csrf_token": self.token("/new"), "first_dealer": "0", "end_value": end_value}
        form.update({f"player-{row}": name for row, name in enumerate(["Ana", "Ben", "Cy", "Dee"])})
        status, location, _ = self.post("/black-spy/new", form)
        assert status == 303
        return location.rsplit("/", 1)[1]

    def deal_form(self, game: str, points: list[int], number: int) -> dict[str, str]:
        form = {"csrf_token": self.token(f"/black-spy/{game}"), "mode": "points", "number": str(number)}
        form.update({f"points-{seat}": str(value) for seat, value in enumerate(points)})
        return form
