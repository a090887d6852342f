"""The database extension and the models' base class, bound to an app in create_app."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.exc import DBAPIError
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

    Each pooled connection is tried before a request uses it: one the server dropped (a
    PostgreSQL restart ends every connection) is replaced then, instead of failing the
    request. A server that does not answer at all is given up on after a few seconds, and
    the request is told the database is out of reach (a 503, companion/web/errors.py).

    >>> engine_options("sqlite:///companion.sqlite3")
    {}
    >>> engine_options("postgresql+psycopg://companion@db/companion")["pool_pre_ping"]
    True
    """
    if database_url.startswith("sqlite"):
        return {}
    return {"pool_pre_ping": True, "connect_args": {"connect_timeout": 3}}


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
