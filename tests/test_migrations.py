"""Every schema change ships a migration: the migrated database matches the models."""

from __future__ import annotations

from datetime import datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import text

from companion import create_app
from companion.extensions import db


def test_the_migrations_build_exactly_the_schema_the_models_describe(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_players_kept_before_names_had_keys_get_their_casefolded_key(databases) -> None:
    url = databases.empty()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        directory = app.extensions["migrate"].directory
        upgrade(directory=directory, revision="2994bab3371d")
        with db.engine.begin() as connection:
            for name in ("Əli", "ÁLVARO", "Bob"):
                connection.execute(text("INSERT INTO players (name, created_at) VALUES (:name, :now)"), {"name": name, "now": datetime(2026, 1, 1)})
        upgrade(directory=directory)
        with db.engine.connect() as connection:
            keys = dict(connection.execute(text("SELECT name, key FROM players")).all())
        db.engine.dispose()
    assert keys == {"Əli": "əli", "ÁLVARO": "álvaro", "Bob": "bob"}
