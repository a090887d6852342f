"""Fresh, migrated databases for tests: SQLite files, or PostgreSQL databases when
TEST_DATABASE_URL names a server (scripts/with-postgres.sh sets it)."""

from __future__ import annotations

import os
import shutil
import uuid
from pathlib import Path

from flask_migrate import upgrade
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

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
        return self._template_name

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
