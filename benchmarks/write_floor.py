"""How low a deal's POST can go on this stack: the floor under goal 2 of "Fast at club scale".

Serves two apps side by side, each under granian as ``companion serve`` runs it (one worker
per core, two threads each): the companion, with a 6-player Black Spy game of 30 deals, and
benchmarks/floor_app.py, the smallest app that records something as the companion must
(Flask-WTF's CSRF check, one row inserted through Flask-SQLAlchemy into SQLite in WAL mode,
a commit, a six-line Jinja fragment, Flask-Compress). Their requests alternate, so that each
meets the same moments of a noisy machine, over keep-alive HTTP as a phone asks, and every
figure is printed beside the companion's css file, the floor benchmarks/pages.py divides by:

- the companion's css file, and the floor app's own static file (Flask's send_file);
- the floor app's POST: a CSRF check, an insert, a commit and six names rendered;
- the companion's deal POST with its fragment (the game grows by a deal each time).

Run by hand:

    .venv/bin/python benchmarks/write_floor.py
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode

import brotli

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.pages import Phone, black_spy, load
from tests.servers import Server, free_port

ROUNDS = 60
HERE = Path(__file__).resolve().parent


def floor_server(folder: Path, port: int) -> subprocess.Popen:
    static = folder / "static"
    static.mkdir(parents=True)
    shutil.copy(HERE.parent / "static" / "css" / "app.css", static / "app.css")
    env = {
        **os.environ,
        "FLOOR_DATABASE_URL": f"sqlite:///{folder / 'floor.sqlite3'}",
        "FLOOR_STATIC": str(static),
    }
    workers = str(os.cpu_count() or 1)
    command = [sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", workers, "--blocking-threads", "2", "--log-level", "warning", "--no-access-log"]
    command += ["--working-dir", str(HERE), "floor_app:app"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            Phone(port).request("GET", "/")
            return process
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the floor app did not start in 30 s")


def timed(phone: Phone, method: str, path: str, body: str | None = None, **headers: str) -> tuple[float, bytes]:
    """One request compressed as a phone asks for it (benchmarks/pages.py's Phone), and its body read back."""
    started = time.perf_counter()
    status, data, received = phone.request(method, path, body, **headers)
    spent = time.perf_counter() - started
    assert status == 200, (path, status)
    encoding = received.get("content-encoding")
    return spent, brotli.decompress(data) if encoding == "br" else gzip.decompress(data) if encoding == "gzip" else data


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    companion = Server(folder / "companion", free_port(), database_url=f"sqlite:///{folder / 'companion.sqlite3'}").start()
    floor_port = free_port()
    floor = floor_server(folder / "floor", floor_port)
    try:
        load(companion, [black_spy(0, 6, 30, end_value=10_000)])
        phone, floor_phone = Phone(companion.port), Phone(floor_port)
        home = phone.request("GET", "/", **{"Accept-Encoding": "identity"})[1]
        css = re.search(rb'href="(/static/css/app\.css\?v=[0-9a-f]+)"', home).group(1).decode()
        game = re.search(rb'href="/black-spy/([A-Za-z0-9]+)"', home).group(1).decode()
        page = phone.request("GET", f"/black-spy/{game}", **{"Accept-Encoding": "identity"})[1].decode()
        floor_token = re.search(r'value="([^"]+)"', floor_phone.request("GET", "/")[1].decode()).group(1)

        def fields(html: str) -> dict[str, str]:
            form = html.split('class="card deal-form"', 1)[1].split("</form>", 1)[0]
            return dict(re.findall(r'name="(csrf_token|submission|version|number)" value="([^"]*)"', form))

        form = fields(page)
        figures: dict[str, list[float]] = {name: [] for name in ("css", "floor static", "floor POST", "deal POST")}
        for number in range(1, ROUNDS + 1):
            figures["css"].append(timed(phone, "GET", css)[0])
            figures["floor static"].append(timed(floor_phone, "GET", "/static/app.css")[0])
            body = urlencode({"csrf_token": floor_token, "number": number, **{f"points-{seat}": 10 for seat in range(6)}})
            figures["floor POST"].append(timed(floor_phone, "POST", "/record", body)[0])
            body = urlencode({**form, "mode": "points", **{f"points-{seat}": "10" for seat in range(6)}})
            spent, answer = timed(phone, "POST", f"/black-spy/{game}/deals", body, **{"HX-Request": "true"})
            figures["deal POST"].append(spent)
            form = fields(answer.decode())
        base = statistics.median(figures["css"])
        print(f"median of {ROUNDS}, requests in alternation; floor: the companion's css file {base * 1000:.2f} ms")
        for name, label in (
            ("css", "companion css file"),
            ("floor static", "floor app, static file"),
            ("floor POST", "floor app, CSRF + insert + commit + 6 rows"),
            ("deal POST", "companion deal POST + fragment, 30 deals on"),
        ):
            spent = statistics.median(figures[name])
            print(f"  {label:46} {spent * 1000:7.2f} ms  {spent / base:5.1f} x the css file")
    finally:
        os.killpg(floor.pid, 15)
        floor.wait()
        companion.stop()


if __name__ == "__main__":
    main()
