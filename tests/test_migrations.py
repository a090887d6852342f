"""Every schema change ships a migration: the migrated database matches the models."""

from __future__ import annotations

from datetime import datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import JSON, Integer, MetaData, Table, text

from companion import create_app
from companion.store.base import db


def test_the_migrations_build_exactly_the_schema_the_models_describe(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def row_for(table: Table, **given: object) -> dict[str, object]:
    """A row any schema accepts: the given values, and a plain value for every other required column."""
    row = dict(given)
    for column in table.columns:
        if column.name in row or column.nullable or column.default is not None or column.server_default is not None:
            continue
        if column.primary_key and isinstance(column.type, Integer) and len(table.primary_key.columns) == 1:
            continue
        kind = column.type.python_type if not isinstance(column.type, JSON) else dict
        row[column.name] = {int: 0, str: f"{column.name[:4]}1", bool: False, datetime: datetime(2026, 1, 1), dict: {}}.get(
            kind, None
        )
    return row


def test_players_kept_before_names_had_keys_get_their_casefolded_key(databases) -> None:
    url = databases.empty()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        directory = app.extensions["migrate"].directory
        upgrade(directory=directory, revision="2994bab3371d")
        with db.engine.begin() as connection:
            for name in ("Əli", "ÁLVARO", "Bob"):
                connection.execute(text("INSERT INTO players (name, created_at) VALUES (:name, :now)"), {"name": name, "now": datetime(2026, 1, 1)})
            # a player sitting in a game: rebuilding the players table must not trip on it
            tables = MetaData()
            tables.reflect(connection)
            connection.execute(tables.tables["games"].insert().values(row_for(tables.tables["games"], id="g1")))
            player = connection.execute(text("SELECT id FROM players WHERE name = 'Bob'")).scalar_one()
            seats = tables.tables["seats"]
            connection.execute(seats.insert().values(row_for(seats, game_id="g1", player_id=player, position=0)))
        upgrade(directory=directory)
        with db.engine.connect() as connection:
            keys = dict(connection.execute(text("SELECT name, key FROM players")).all())
        db.engine.dispose()
    assert keys == {"Əli": "əli", "ÁLVARO": "álvaro", "Bob": "bob"}
