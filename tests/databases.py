"""Fresh, migrated databases for tests: SQLite files, or PostgreSQL databases when
TEST_DATABASE_URL names a server (scripts/with-postgres.sh sets it)."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

from companion import create_app
from companion.store.base import db


def migrate(url: str) -> None:
    """Bring the database at ``url`` up to date with the real migrations."""
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        db.engine.dispose()


class Databases:
    def __init__(self, folder: Path, server: str | None = None) -> None:
        self.folder = folder
        self.server = server if server is not None else os.environ.get("TEST_DATABASE_URL")
        self.kind = "postgresql" if self.server else "sqlite"
        self._template: str | None = None
        # one template per Databases, so parallel workers sharing a server never build,
        # drop or copy from each other's
        self._template_name = f"template_{uuid.uuid4().hex[:16]}"
        self._created: list[str] = []
        self._admin = create_engine(self.server, isolation_level="AUTOCOMMIT") if self.server else None
        # PostgreSQL databases a test is done with, emptied for the next (see release())
        self._spare: list[str] = []
        self._shape: tuple[str, list[str]] | None = None  # the template's version and tables

    def _postgres(self, name: str) -> str:
        return make_url(self.server).set(database=name).render_as_string(hide_password=False)

    def empty(self) -> str:
        """The url of a new database with no tables."""
        name = f"t_{uuid.uuid4().hex[:16]}"
        if self._admin is None:
            return f"sqlite:///{self.folder / (name + '.sqlite3')}"
        with self._admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        self._created.append(name)
        return self._postgres(name)

    def fresh(self) -> str:
        """The url of a new database built by the migrations (a copy of one built once)."""
        if self._template is None:
            self._template = self._build_template()
        if self._spare:
            return self._postgres(self._spare.pop())
        name = f"t_{uuid.uuid4().hex[:16]}"
        if self._admin is None:
            path = self.folder / (name + ".sqlite3")
            shutil.copy(self._template, path)
            return f"sqlite:///{path}"
        with self._admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}" TEMPLATE "{self._template}"'))
        self._created.append(name)
        return self._postgres(name)

    def _build_template(self) -> str:
        if self._admin is None:
            path = self.folder / "template.sqlite3"
            migrate(f"sqlite:///{path}")
            return str(path)
        with self._admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{self._template_name}"'))
        self._created.append(self._template_name)
        migrate(self._postgres(self._template_name))
        engine = create_engine(self._postgres(self._template_name), poolclass=NullPool)
        try:
            with engine.connect() as built:
                self._shape = self._shape_of(built)
        finally:
            engine.dispose()
        return self._template_name

    def release(self, url: str) -> None:
        """A test is done with the database at ``url``: on PostgreSQL it is emptied for the
        next test when it still has the template's tables and version (a copy of the template
        costs some 100 ms, an emptying some 20), and dropped otherwise."""
        name = make_url(url).database
        if self._admin is None or name not in self._created or name == self._template:
            self.drop(url)
            return
        try:
            self._empty(name)
        except Exception:  # any doubt about what it holds: a new copy next time
            self.drop(url)
            return
        self._spare.append(name)

    def _empty(self, name: str) -> None:
        assert self._admin is not None
        with self._admin.connect() as connection:
            # whatever a test left connected (a server it started) is gone, as a drop would do
            connection.execute(
                text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = :name AND pid <> pg_backend_pid()"),
                {"name": name},
            )
        engine = create_engine(self._postgres(name), poolclass=NullPool)
        try:
            with engine.begin() as connection:
                connection.execute(text("SET LOCAL lock_timeout = '2s'"))
                shape = self._shape_of(connection)
                if self._shape is None:
                    raise LookupError("the template's shape is not known")
                if shape != self._shape:
                    raise LookupError(f"the tables or the version changed: {shape}")
                tables = ", ".join(f'"{table}"' for table in shape[1])
                connection.execute(text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        finally:
            engine.dispose()

    @staticmethod
    def _shape_of(connection: Connection) -> tuple[str, list[str]]:
        version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
        tables = connection.execute(
            text(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version' ORDER BY tablename"
            )
        ).scalars()
        return version, list(tables)

    def drop(self, url: str) -> None:
        name = make_url(url).database
        if self._admin is None or name not in self._created:
            return
        with self._admin.connect() as connection:
            connection.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        self._created.remove(name)

    def close(self) -> None:
        for name in list(self._created):
            self.drop(self._postgres(name))
        if self._admin is not None:
            self._admin.dispose()
