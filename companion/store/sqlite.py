"""SQLite as a server's database: WAL, a busy timeout, foreign keys, and writes that take the
write lock when they begin; and how a lock held too long is told apart from a fault."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from flask import g, has_request_context, request
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from ..paths import private_files


def configure_sqlite(engine: Engine, busy_timeout_ms: int = 5000) -> None:
    """WAL, a busy timeout and foreign keys on every SQLite connection; writes take the
    write lock when their transaction begins.

    pysqlite would begin a transaction lazily, as a reader, and upgrade it at its first
    write: when another connection wrote in between, that upgrade fails at once with
    "database is locked", whatever the busy timeout. A request that writes (any method
    but GET, HEAD and OPTIONS), and a command inside ``writing()``, begins ``IMMEDIATE`` instead, so it waits
    its turn for up to ``busy_timeout_ms``; pages that only read begin as readers, and in
    WAL mode never wait for a writer, as does what a request reads after its commit.
    """
    if engine.dialect.name != "sqlite":
        return
    database = engine.url.database

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # the driver's own transaction handling off: _on_begin says BEGIN itself
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={int(busy_timeout_ms)}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()
        if database and database != ":memory:":
            # the table's games are nobody else's to read: SQLite makes its -wal and -shm
            # files with the database file's own mode
            private_files(*(Path(database + suffix) for suffix in ("", "-wal", "-shm")))

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE" if _may_write() else "BEGIN")


READING_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# set by writing(): the transactions begun meanwhile are about to write
_writing: ContextVar[bool] = ContextVar("companion_writing", default=False)


def _may_write() -> bool:
    if _writing.get():
        return True
    if has_request_context():
        # once its write is committed, a request only reads (the page or fragment it answers
        # with): it renders that without holding the write lock the next table waits for
        return request.method not in READING_METHODS and not g.get("_companion_written", False)
    return False


@event.listens_for(Session, "after_commit")
def _written(_session: Session) -> None:
    if has_request_context():
        g._companion_written = True


@contextmanager
def writing() -> Iterator[None]:
    """The transactions begun inside take the write lock at their start, as a request that
    writes does: a command's, or a request's after its first commit (an import's batches)."""
    token = _writing.set(True)
    try:
        yield
    finally:
        _writing.reset(token)


def is_busy(error: BaseException) -> bool:
    """Whether a database error is SQLite's "database is locked": another write held the
    lock for longer than the busy timeout. Nothing was written; the same request can be
    sent again."""
    return isinstance(error, OperationalError) and "database is locked" in str(error.orig)
