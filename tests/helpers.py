"""Helpers for the app tests: start a game, post a deal, snapshot the database."""

from __future__ import annotations

import functools
import html as htmllib
import io
import json
import re
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from sqlalchemy import inspect, select
from sqlalchemy import text as sql

from companion import create_app
from companion.store.base import db
from companion.web import freshness


class CompiledTemplates(BytecodeCache):
    """The templates compiled once per test process, not once per test's app: each app has a
    Jinja environment of its own, and compiling a game page's templates anew took ~0.1 s of
    every test that opened one. Jinja checks each template's source against its key, so an
    edited template is compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


COMPILED_TEMPLATES = CompiledTemplates()


@functools.cache
def _release() -> str:
    # the digest of the checkout's files an app reads as it starts (companion/web/freshness.py),
    # some 10 ms of hashing: the same for every app of a test run, which changes no file of it
    return freshness.release()


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
            "RELEASE": _release(),
            **config,
        },
        kinds=kinds,
    )
    app.test_client_class = Client
    app.jinja_env.bytecode_cache = COMPILED_TEMPLATES
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


# the tables of each database a test snapshots, read once: a test's writes add rows, never
# tables, and asking the database's catalogue before every request was a fifth of the
# hostile-input tests' time (more on PostgreSQL)
_TABLES: dict[str, list[str]] = {}


def snapshot(app: Flask) -> dict[str, list[tuple]]:
    """Every row of every table: two equal snapshots mean nothing was written."""
    with app.app_context():
        url = db.engine.url.render_as_string(hide_password=False)
        tables = _TABLES.get(url) or [name for name in inspect(db.engine).get_table_names() if name != "alembic_version"]
        if db.engine.url.database not in (None, "", ":memory:"):  # each test's own database, by name
            _TABLES[url] = tables
        with db.engine.connect() as connection:
            return {table: sorted(map(tuple, connection.execute(sql(f'SELECT * FROM "{table}"'))), key=repr) for table in tables}


def game_state(app: Flask, game_id: str):
    from companion.store.games import Game

    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.id == game_id))
        return game.state()


def post_cards(
    client: FlaskClient,
    game_id: str,
    rows: dict[int, tuple[int, int, int]],
    high: dict[int, int],
    rest: int | str = "none",
    htmx: bool = False,
    **extra: str,
):
    """Post a deal by cards: per seat (Black Spies, black 1-6, coloured Spies), who took each high black."""
    form = {"mode": "cards", "rest": str(rest)}
    for seat, (black_spies, low_blacks, coloured_spies) in rows.items():
        form[f"black_spies-{seat}"] = str(black_spies)
        form[f"low_blacks-{seat}"] = str(low_blacks)
        form[f"coloured_spies-{seat}"] = str(coloured_spies)
    for card, seat in high.items():
        form[f"high-{card}"] = str(seat)
    form.update(extra)
    return client.post(f"/black-spy/{game_id}/deals", data=form, headers={"HX-Request": "true"} if htmx else {})


THREE_SPIES = (("Ana", "green"), ("Ben", "red"), ("Cy", "blue"))
TWO_SPIES = (("Ana", "green"), ("Ben", "red"))


def start_spy(
    client: FlaskClient,
    players: Sequence[tuple[str, str]] = THREE_SPIES,
    first_player: int | str = 0,
    spies: Sequence[tuple[int, str]] | None = None,
) -> str:
    """Start a Spy game through the form; return its id. ``spies`` (slot, facing) by row turns tracking on."""
    form = {"first_player": str(first_player)}
    for row, (name, colour) in enumerate(players):
        form[f"spy-player-{row}"] = name
        form[f"spy-colour-{row}"] = colour
    if spies is not None:
        form["track"] = "1"
        for row, (slot, facing) in enumerate(spies):
            form[f"spy-slot-{row}"] = str(slot)
            form[f"spy-facing-{row}"] = facing
    response = client.post("/spy/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    match = re.search(r"/spy/([A-Za-z0-9]+)$", response.location)
    assert match, response.location
    return match.group(1)


def start_pad(client: FlaskClient, name: str = "Wingspan", players: tuple[str, ...] = ("Ana", "Ben", "Cy"), **form: str) -> str:
    """Start a score pad through the form; return its id."""
    data = {"pad-name": name, **{f"pad-player-{row}": player for row, player in enumerate(players)}, **form}
    response = client.post("/scorepad/new", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    match = re.search(r"/scorepad/([A-Za-z0-9]+)$", response.location)
    assert match
    return match.group(1)


def post_round(client: FlaskClient, game_id: str, points: tuple[int | str, ...], htmx: bool = False, **extra: str):
    form = {**{f"points-{seat}": str(value) for seat, value in enumerate(points)}, **extra}
    return client.post(f"/scorepad/{game_id}/rounds", data=form, headers={"HX-Request": "true"} if htmx else {})


def exported(client: FlaskClient, address: str = "/export.json") -> dict[str, Any]:
    """The companion/1 file at ``address`` (every game's, or one game's export), as a download."""
    response = client.get(address)
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    return json.loads(response.get_data(as_text=True))


def imported(client: FlaskClient, data: dict[str, Any]):
    """Upload a companion/1 file through the home page's form."""
    file = {"file": (io.BytesIO(json.dumps(data).encode()), "games.json")}
    return client.post("/import", data=file, content_type="multipart/form-data")


def news_and_its_undo(answer: str) -> tuple[str, str, str]:
    """The news an answer for htmx starts with, the address its "Undo it" posts to, and the
    number that undo sends."""
    news = answer.split('<div class="messages"', 1)[1].split("</div>", 1)[0]
    undo = re.search(r'<form class="undo-here" method="post" action="([^"]+)"', news)
    number = re.search(r'name="number" value="(\d+)"', news)
    assert undo and number, news
    return news, undo.group(1), number.group(1)


def watch_url(app: Flask, game_id: str) -> str:
    """A game's read-only link."""
    from companion.store.games import Game

    with app.app_context():
        return f"/watch/{db.session.scalar(select(Game.watch_id).where(Game.id == game_id))}"


def fill_rule(rule: str, values: dict[str, str]) -> str:
    """A url rule (``/black-spy/<game_id>``) with its parts filled in."""
    for name, value in values.items():
        rule = re.sub(rf"<(?:[a-z]+:)?{name}>", lambda _match, value=value: value, rule)
    return rule


def text(markup: str) -> str:
    """What a piece of html says: tags dropped, entities read, spaces collapsed."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", markup)).split())
