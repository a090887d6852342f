"""Helpers for the app tests: start a game, post a deal, snapshot the database."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import inspect, select, text

from companion import create_app
from companion.store.base import db


class Client(FlaskClient):
    """A phone's browser: it reads every answer whole, as the server sends it, unless a test
    asks for the chunks of a streamed one (``buffered=False``)."""

    def open(self, *args: Any, buffered: bool = True, **kwargs: Any) -> Any:
        return super().open(*args, buffered=buffered, **kwargs)


def make_app(database_url: str, kinds: Sequence[Any] | None = None, **config: Any) -> Flask:
    """An app for a test on ``database_url``: the companion's kinds unless ``kinds`` are given."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "WTF_CSRF_ENABLED": False,
            **config,
        },
        kinds=kinds,
    )
    app.test_client_class = Client
    return app


@contextmanager
def running_app(database_url: str, instance: Path, monkeypatch: Any, **env: str) -> Iterator[Flask]:
    """An app on ``database_url`` with its instance folder at ``instance`` and these
    environment variables, as `companion serve` would read them; its connections closed after."""
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    app = make_app(database_url)
    try:
        yield app
    finally:
        with app.app_context():
            db.engine.dispose()


def start_game(
    client: FlaskClient,
    names: Sequence[str] = ("Ana", "Ben", "Cy", "Dee"),
    first_dealer: int | str = 0,
    **rules: str,
) -> str:
    """Start a Black Spy game through the form; return its id."""
    form = {f"player-{row}": name for row, name in enumerate(names)}
    form["first_dealer"] = str(first_dealer)
    form.update(rules)
    response = client.post("/black-spy/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    match = re.search(r"/black-spy/([A-Za-z0-9]+)$", response.location)
    assert match, response.location
    return match.group(1)


def post_points(client: FlaskClient, game_id: str, points: Sequence[int | str], htmx: bool = False, **extra: str):
    form = {f"points-{seat}": str(value) for seat, value in enumerate(points)}
    form["mode"] = "points"
    form.update(extra)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/black-spy/{game_id}/deals", data=form, headers=headers)


def snapshot(app: Flask) -> dict[str, list[tuple]]:
    """Every row of every table: two equal snapshots mean nothing was written."""
    with app.app_context():
        tables = [name for name in inspect(db.engine).get_table_names() if name != "alembic_version"]
        with db.engine.connect() as connection:
            return {
                table: sorted(map(tuple, connection.execute(text(f'SELECT * FROM "{table}"'))), key=repr)
                for table in tables
            }


def game_state(app: Flask, game_id: str):
    from companion.store.games import Game

    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.id == game_id))
        return game.state()
