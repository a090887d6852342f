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

The game starts at 30 deals and grows by one a round, so the median deal is near the 60th.
The last line is the goal's figure: the deal POST over the floor's write, in the same run.

Run by hand, on SQLite (a file each), or on PostgreSQL (both apps on one database, the
floor in a table of its own):

    .venv/bin/python benchmarks/write_floor.py
    scripts/with-postgres.sh sh -c '.venv/bin/python benchmarks/write_floor.py --database "$TEST_DATABASE_URL"'
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Answer, Phone, black_spy, deal_form, import_games, stylesheet
from tests.servers import Server, free_port

ROUNDS = 60
HERE = Path(__file__).resolve().parent


def floor_server(folder: Path, port: int, database_url: str | None = None) -> subprocess.Popen:
    static = folder / "static"
    static.mkdir(parents=True)
    shutil.copy(HERE.parent / "static" / "css" / "app.css", static / "app.css")
    # the page benchmarks/tap.py taps loads htmx as the companion's pages do
    shutil.copy(next((HERE.parent / "static" / "vendor").glob("htmx-*.min.js")), static / "htmx.min.js")
    env = {
        **os.environ,
        "FLOOR_DATABASE_URL": database_url or f"sqlite:///{folder / 'floor.sqlite3'}",
        "FLOOR_STATIC": str(static),
    }
    # its table made and WAL set once, here, as `companion serve` migrates before its workers
    # start: two workers making them at the same moment could collide, and one would exit
    subprocess.run([sys.executable, "-c", "import floor_app"], cwd=HERE, env=env, check=True)  # its import builds the app
    workers = str(os.cpu_count() or 1)
    command = [sys.executable, "-m", "granian", "--interface", "wsgi", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--workers", workers, "--blocking-threads", "2", "--log-level", "warning", "--no-access-log"]
    command += ["--working-dir", str(HERE), "floor_app:app"]
    log = folder / "floor.log"
    with log.open("ab") as output:
        process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the floor app exited with {process.returncode}:\n{log.read_text()[-2000:]}")
        try:
            # a short timeout: a probe a worker not yet up leaves unanswered is asked again, not waited on for 30 s
            Phone(port, timeout=2).request("GET", "/")
            return process
        except OSError:
            time.sleep(0.1)
    os.killpg(process.pid, 15)
    raise RuntimeError(f"the floor app did not start in 30 s:\n{log.read_text()[-2000:]}")


def timed(
    phone: Phone, method: str, path: str, form: Mapping[str, object] | None = None, headers: Mapping[str, str] | None = None
) -> tuple[float, Answer]:
    """One request compressed as a phone asks for it, and its answer (200)."""
    started = time.perf_counter()
    answer = phone.request(method, path, form, headers)
    spent = time.perf_counter() - started
    assert answer.status == 200, (path, answer.status)
    return spent, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", help="a database URL for both apps (default: an SQLite file each)")
    arguments = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    companion_url = arguments.database or f"sqlite:///{folder / 'companion.sqlite3'}"
    companion = Server(folder / "companion", free_port(), database_url=companion_url).start()
    floor_port = free_port()
    floor: subprocess.Popen | None = None
    try:
        floor = floor_server(folder / "floor", floor_port, arguments.database)
        import_games(companion, [black_spy(0, 6, 30, end_value=10_000)])
        phone, floor_phone = Phone(companion.port), Phone(floor_port)
        home = phone.request("GET", "/").text()
        css = stylesheet(home)
        game = re.search(r'href="/black-spy/([A-Za-z0-9]+)"', home).group(1)
        form = deal_form(phone.request("GET", f"/black-spy/{game}").text())
        floor_token = re.search(r'value="([^"]+)"', floor_phone.request("GET", "/").text()).group(1)
        figures: dict[str, list[float]] = {name: [] for name in ("css", "floor static", "floor POST", "deal POST")}
        for number in range(1, ROUNDS + 1):
            figures["css"].append(timed(phone, "GET", css)[0])
            figures["floor static"].append(timed(floor_phone, "GET", "/static/app.css")[0])
            record = {"csrf_token": floor_token, "number": number, **{f"points-{seat}": 10 for seat in range(6)}}
            figures["floor POST"].append(timed(floor_phone, "POST", "/record", record)[0])
            deal = {**form, "mode": "points", **{f"points-{seat}": "10" for seat in range(6)}}
            spent, answer = timed(phone, "POST", f"/black-spy/{game}/deals", deal, {"HX-Request": "true"})
            figures["deal POST"].append(spent)
            form = deal_form(answer.text())
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
        ratio = statistics.median(figures["deal POST"]) / statistics.median(figures["floor POST"])
        print(f"deal POST / the floor's write: {ratio:.2f} x (goal: 2.5 x at most)")
    finally:
        if floor is not None:
            os.killpg(floor.pid, 15)
            floor.wait()
        companion.stop()


if __name__ == "__main__":
    main()
