"""When the database cannot do what a request asks, and it is not the request's fault: a
write lock held too long, a database that does not answer, a disk that is full.

Each is a state to wait out: nothing of the request was written (the transaction is rolled
back whole), and the same request, sent again with the same submission id, is stored once
when the database can take it. Any other database error is a fault of the companion's own
and stays one.
"""

from __future__ import annotations

import enum
import sqlite3

from sqlalchemy.exc import DBAPIError


class Outage(enum.Enum):
    BUSY = "busy"  # another write held the lock for longer than the busy timeout
    UNREACHABLE = "unreachable"  # no connection, a connection cut, a file it may not open or write
    DISK_FULL = "disk full"  # no room left to write


# SQLite's primary result codes (an extended code carries one in its low byte)
_SQLITE = {
    5: Outage.BUSY,  # SQLITE_BUSY: "database is locked"
    6: Outage.BUSY,  # SQLITE_LOCKED
    8: Outage.UNREACHABLE,  # SQLITE_READONLY: the file, its -wal or its folder not writable
    10: Outage.UNREACHABLE,  # SQLITE_IOERR: the disk refused a read or a write
    13: Outage.DISK_FULL,  # SQLITE_FULL: "database or disk is full"
    14: Outage.UNREACHABLE,  # SQLITE_CANTOPEN: "unable to open database file"
}

# PostgreSQL's SQLSTATE: the connection's classes, the server shutting down or starting up,
# and its "disk full"; an error with no SQLSTATE never reached the server (refused, cut)
_POSTGRESQL_CLASSES = {"08": Outage.UNREACHABLE, "57": Outage.UNREACHABLE}
_POSTGRESQL_STATES = {"53100": Outage.DISK_FULL, "53300": Outage.UNREACHABLE}


def outage_of(error: BaseException) -> Outage | None:
    """The outage a database error reports, or None for an error that is a fault.

    >>> outage_of(ValueError("not a database error")) is None
    True
    """
    if not isinstance(error, DBAPIError):
        return None
    cause = error.orig
    if isinstance(cause, sqlite3.Error):
        code = getattr(cause, "sqlite_errorcode", None)
        return _SQLITE.get(code & 0xFF) if isinstance(code, int) else None
    if error.connection_invalidated:
        return Outage.UNREACHABLE
    state = getattr(cause, "sqlstate", None)
    if state is None:
        # psycopg's own: no server answer at all (a refused or cut connection)
        reached = {kind.__name__ for kind in type(cause).__mro__}
        return Outage.UNREACHABLE if reached & {"OperationalError", "InterfaceError"} else None
    return _POSTGRESQL_STATES.get(state) or _POSTGRESQL_CLASSES.get(state[:2])
