"""The database extension and the models' base class, bound to an app in create_app."""

from __future__ import annotations

import select
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DBAPIError, InvalidatePoolError
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


# a write's objects stay loaded after its commit: the page it returns shows them as written
# (the version the flush bumped, the figures it kept) without reading the game again
db = SQLAlchemy(model_class=Base, session_options={"expire_on_commit": False})
# the models' base class: Flask-SQLAlchemy's, which a type checker sees as the declarative base it extends
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def engine_options(database_url: str) -> dict[str, Any]:
    """How the app connects to a database server (SQLite, a file, needs none of it).

    A server that does not answer at all is given up on after a few seconds, and the request
    is told the database is out of reach (a 503, companion/web/errors.py). A connection the
    server ended is replaced before a request uses it (``watch_server_connections``).

    >>> engine_options("sqlite:///companion.sqlite3")
    {}
    >>> engine_options("postgresql+psycopg://companion@db/companion")
    {'connect_args': {'connect_timeout': 3}}
    """
    if database_url.startswith("sqlite"):
        return {}
    return {"connect_args": {"connect_timeout": 3}}


def watch_server_connections(engine: Engine) -> None:
    """Replace a pooled connection the database server ended before a request uses it.

    A PostgreSQL restart ends every connection (as do an administrator and an idle timeout),
    and the server says so on each one as it closes it. A connection idle in the pool has
    nothing to read otherwise: one that has something is one the server let go, and every
    connection the pool made before it is replaced then, instead of failing the request.
    SQLAlchemy's ``pool_pre_ping`` asked the server instead, a round trip before each
    request (0.1 ms of a deal's 10, ``benchmarks/write_floor.py``). A server gone silent
    without closing its connections is found by neither; ``connect_timeout`` bounds the
    reconnection.
    """
    if engine.dialect.name == "sqlite":
        return

    @event.listens_for(engine, "checkout")
    def _ended_by_the_server(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
        try:
            waiting = select.poll()
            waiting.register(dbapi_connection.fileno(), select.POLLIN)
            said = waiting.poll(0)
        except Exception as error:  # a connection the driver already knows is closed
            raise InvalidatePoolError("the database connection is closed") from error
        if said:
            raise InvalidatePoolError("the database server ended this connection")


def release_session(_error: BaseException | None = None) -> None:
    """End the request's session, whatever became of its connection meanwhile.

    Flask-SQLAlchemy ends it with a rollback; when the database ended the connection after
    the answer was made (a PostgreSQL restart), that rollback fails, and an answer already
    made would become a 500. The connection is let go instead: the pool makes a new one.
    Registered after Flask-SQLAlchemy's own, so that it runs first (teardowns run in reverse).
    """
    try:
        db.session.remove()
    except DBAPIError:
        db.session().invalidate()
        db.session.registry.clear()
