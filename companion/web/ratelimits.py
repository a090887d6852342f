"""Where the passcode's count of wrong tries is kept: one small SQLite file per instance,
so that every worker process of a server counts the same tries.

Flask-Limiter's own ``memory://`` storage is per process: with two workers, an address
would get twice the tries. This is a storage for ``limits`` (the library under
Flask-Limiter) of the fixed-window kind, selected by a ``companion+sqlite:///path`` URI;
a server spread over several machines names a shared one (``redis://…``) in
RATELIMIT_STORAGE_URI instead.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from limits.storage import Storage

from ..paths import private_files

SCHEME = "companion+sqlite"


class SQLiteStorage(Storage):
    """Counters with an expiry, in a SQLite file shared by the processes of one machine."""

    # limits finds a storage by the schemes on its class
    STORAGE_SCHEME = [SCHEME]  # noqa: RUF012

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        # companion+sqlite:///an/absolute/path.sqlite3
        self.path = Path((uri or "").removeprefix(f"{SCHEME}://"))
        self._local = threading.local()
        with self._connection() as connection:
            connection.execute(
                "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, value INTEGER NOT NULL, expiry REAL NOT NULL)"
            )

    def _connection(self) -> sqlite3.Connection:
        connection = getattr(self._local, "connection", None)
        if connection is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(self.path, timeout=5, isolation_level=None)
            _into_wal(connection)
            private_files(*(self.path.with_name(self.path.name + suffix) for suffix in ("", "-wal", "-shm")))
            self._local.connection = connection
        return connection

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        connection = self._connection()
        # one statement: a window that has expired starts again at this try
        row = connection.execute(
            """
            INSERT INTO counters (key, value, expiry) VALUES (?, ?, ?)
            ON CONFLICT (key) DO UPDATE SET
                value = CASE WHEN counters.expiry <= ? THEN excluded.value ELSE counters.value + excluded.value END,
                expiry = CASE WHEN counters.expiry <= ? THEN excluded.expiry ELSE counters.expiry END
            RETURNING value
            """,
            (key, amount, now + expiry, now, now),
        ).fetchone()
        return int(row[0])

    def get(self, key: str) -> int:
        row = self._connection().execute("SELECT value FROM counters WHERE key = ? AND expiry > ?", (key, time.time())).fetchone()
        return int(row[0]) if row else 0

    def get_expiry(self, key: str) -> float:
        row = (
            self._connection().execute("SELECT expiry FROM counters WHERE key = ? AND expiry > ?", (key, time.time())).fetchone()
        )
        return float(row[0]) if row else time.time()

    def check(self) -> bool:
        try:
            self._connection().execute("SELECT 1")
        except sqlite3.Error:
            return False
        return True

    def reset(self) -> int | None:
        return self._connection().execute("DELETE FROM counters").rowcount

    def clear(self, key: str) -> None:
        self._connection().execute("DELETE FROM counters WHERE key = ?", (key,))


def _into_wal(connection: sqlite3.Connection, seconds: float = 5.0) -> None:
    """Put the counters' file in WAL mode. Workers starting together each ask at once, and
    SQLite answers "database is locked" at once to all but one, whatever the busy timeout:
    the others ask again for a few seconds."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
