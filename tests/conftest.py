"""An app per test, each on its own copy of a freshly migrated database."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import upgrade

from companion.extensions import db
from tests.helpers import make_app


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One database built by the real migrations, copied for every test."""
    path = tmp_path_factory.mktemp("template") / "companion.sqlite3"
    app = make_app(path)
    with app.app_context():
        upgrade(directory=app.extensions["migrate"].directory)
        db.engine.dispose()
    return path


@pytest.fixture
def app(tmp_path: Path, migrated_database: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    database = tmp_path / "companion.sqlite3"
    shutil.copy(migrated_database, database)
    app = make_app(database)
    yield app
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()
