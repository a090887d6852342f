"""The passcode's tries are counted in one SQLite file that every worker of `companion serve`
opens as it starts (companion/web/ratelimits.py)."""

from __future__ import annotations

import threading
from pathlib import Path

from companion.web.ratelimits import SCHEME, SQLiteStorage


def test_workers_starting_together_all_open_the_counters_file(tmp_path: Path) -> None:
    path = tmp_path / "ratelimits.sqlite3"
    opened: list[SQLiteStorage] = []
    failed: list[Exception] = []
    start = threading.Barrier(8)

    def worker() -> None:
        start.wait()
        try:
            opened.append(SQLiteStorage(f"{SCHEME}://{path}"))
        except Exception as error:
            failed.append(error)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failed == [] and len(opened) == 8
    # and they count together
    assert [storage.incr("passcode", 60) for storage in opened[:3]] == [1, 2, 3]
