"""Every schema change ships a migration: the migrated database matches the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask

from companion.extensions import db


def test_the_migrations_build_exactly_the_schema_the_models_describe(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []
