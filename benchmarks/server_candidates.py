"""The servers benchmarks/servers.py compares, and how one is started and stopped.

- :data:`CANDIDATES`: each server by the name ``--servers`` takes, with its package and
  the command line that serves the companion on a port with so many threads: waitress (the
  baseline every ratio is to), granian as WSGI and as `companion serve` runs it (ASGI),
  each with one worker process and with two, gunicorn's gthread worker, cheroot;
- :class:`Running`: one of them as a process group of its own, with a fresh instance
  folder and SQLite database (``companion db upgrade``), started until GET / answers 200,
  stopped with all its workers, and its log's warnings and errors kept for the report;
- :func:`uses_factory`: whether companion.serving.wsgi imports here, or every server must
  build the app with companion:create_app; :func:`app_env`, the environment each is
  started in; :func:`version`, :func:`log_tail` for what the report prints.

Used by benchmarks/servers.py, which puts the project's folder on sys.path before it
imports this module.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from benchmarks.common import HOST
from benchmarks.server_load import answer_of
from tests.servers import free_port

BIN = Path(sys.executable).parent
START_TIMEOUT = 30.0
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
