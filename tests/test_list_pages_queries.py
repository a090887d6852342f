"""The list pages ask the database the same few questions however many games they list:
no query per game, per pad or per player (an N+1 made /history with 15 pads 34 statements)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from companion.store.base import db


def games_of_each_kind(count: int, offset: int = 0) -> list[dict]:
    games: list[dict] = []
    for number in range(offset, offset + count):
        names = [f"Ana{number}", f"Ben{number % 7}", f"Cy{number % 5}"]
        when = f"2025-05-{1 + number % 28:02d}T20:00:00Z"
        games.append(
            {
                "kind": "black-spy",
                "players": names,
                "first_dealer": names[0],
                "created_at": when,
                "rules": {"end_value": 25},
                "deals": [{"raw": dict(zip(names, (25, 20, 15), strict=True))}],
            }
        )
        games.append(
            {
                "kind": "spy",
                "players": names[:2],
                "colours": dict(zip(names[:2], ("green", "red"), strict=True)),
                "first_player": names[0],
                "created_at": when,
                "turns": [{"player": names[0]}],
            }
        )
        games.append(
            {
                "kind": "scorepad",
                "name": f"Golf {number}",
                "players": names,
                "created_at": when,
                "ended": True,
                "rounds": [dict(zip(names, (1, 2, 3), strict=True))],
            }
        )
    return games


def load(client: FlaskClient, games: list[dict]) -> None:
    upload = {"file": (io.BytesIO(json.dumps({"format": "companion/1", "games": games}).encode()), "games.json")}
    assert client.post("/import", data=upload, content_type="multipart/form-data").status_code == 303


@contextmanager
def counted(app: Flask) -> Iterator[list[str]]:
    statements: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(_connection, _cursor, statement, *_rest) -> None:
        if not statement.startswith(("BEGIN", "COMMIT", "ROLLBACK", "PRAGMA", "SAVEPOINT", "RELEASE")):
            statements.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", note)


PAGES = ("/history", "/history?state=finished", "/players", "/", "/history?page=2")


def test_the_list_pages_ask_the_same_few_questions_for_20_games_of_each_kind_as_for_40(app: Flask, client: FlaskClient) -> None:
    load(client, games_of_each_kind(20))
    few: dict[str, int] = {}
    for page in PAGES:
        with counted(app) as statements:
            assert client.get(page).status_code == 200
        few[page] = len(statements)
        assert len(statements) <= 8, (page, statements)
    load(client, games_of_each_kind(20, offset=20))
    for page in PAGES:
        with counted(app) as statements:
            assert client.get(page).status_code == 200
        assert len(statements) == few[page], (page, statements)
