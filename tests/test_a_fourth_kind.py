"""A fourth kind costs one folder: the tally (tests/tally/), registered by this test's app
alone, goes through every shared page with no line of the shell changed for it."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.kinds.black_spy.kind import BlackSpy
from companion.kinds.scorepad.kind import Scorepad
from companion.kinds.spy.kind import Spy
from companion.store.base import db
from tests.databases import Databases
from tests.helpers import make_app
from tests.tally.kind import Tally
from tests.tally.models import TallyBase

PACKAGE = Path(__file__).resolve().parent.parent / "companion"


def app_with_the_tally(url: str, instance: Path, monkeypatch: pytest.MonkeyPatch) -> Flask:
    monkeypatch.setenv("COMPANION_INSTANCE", str(instance))
    app = make_app(url, kinds=[BlackSpy(), Spy(), Scorepad(), Tally()])
    with app.app_context():
        # the tally's own table, as its own migration would make it
        TallyBase.metadata.create_all(db.engine)
    return app


@pytest.fixture
def tally_app(database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    app = app_with_the_tally(database_url, tmp_path / "instance", monkeypatch)
    yield app
    with app.app_context():
        db.engine.dispose()


def play_a_tally(client: FlaskClient, names: tuple[str, ...] = ("Ana", "Ben", "Cy")) -> str:
    form = {f"tally-player-{row}": name for row, name in enumerate(names)}
    started = client.post("/tally/new", data=form)
    assert started.status_code == 303
    game_id = started.location.rsplit("/", 1)[1]
    for number, points in enumerate(((3, 5, 1), (4, 4, 4), (0, 2, 9)), start=1):
        form = {f"points-{seat}": str(value) for seat, value in enumerate(points)}
        assert client.post(f"/tally/{game_id}/rounds", data={**form, "number": str(number)}).status_code == 303
    return game_id


def test_a_kind_that_lives_only_in_the_tests_goes_through_every_shared_page(tally_app: Flask) -> None:
    client = tally_app.test_client()
    # the new-game page offers it as a tab, and its tab is its own form
    assert 'href="/new?game=tally"' in client.get("/new").get_data(as_text=True)
    assert "data-tally-new" in client.get("/new?game=tally").get_data(as_text=True)
    # a game that cannot start is refused on that tab, in words, with what was typed
    refused = client.post("/tally/new", data={"tally-player-0": "Ana"})
    assert refused.status_code == 422 and "Name two to four different players." in refused.get_data(as_text=True)
    game_id = play_a_tally(client)
    page = client.get(f"/tally/{game_id}").get_data(as_text=True)
    assert re.findall(r'<span class="total">(\d+)</span>', page) == ["7", "11", "14"]
    # the home page and the history list it as a finished game, its winner named
    home = client.get("/").get_data(as_text=True)
    finished = home.split('id="finished"', 1)[1]
    assert f'href="/tally/{game_id}"' in finished and "Tally" in finished and "Winners: Cy" in finished
    history = client.get("/history").get_data(as_text=True)
    assert f'href="/tally/{game_id}"' in history
    # its players are every player's, on the list of players and their own pages
    players = client.get("/players").get_data(as_text=True)
    assert "Ana" in players and "Cy" in players
    cy = re.search(r'href="/players/(\d+)">Cy<', players).group(1)
    assert client.get(f"/players/{cy}").status_code == 200
    # its follow page shows the game, refreshed as any follow page is
    from companion.store.games import Game

    with tally_app.app_context():
        watch = db.session.get(Game, game_id).watch_id
    follow = client.get(f"/watch/{watch}").get_data(as_text=True)
    assert "Following a tally" in follow and re.findall(r'<span class="total">(\d+)</span>', follow) == ["7", "11", "14"]


def test_a_tally_is_exported_and_imported_like_any_game(
    tally_app: Flask, databases: Databases, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = tally_app.test_client()
    game_id = play_a_tally(client)
    exported = json.loads(client.get("/export.json").get_data(as_text=True))
    (tally,) = [game for game in exported["games"] if game["kind"] == "tally"]
    assert tally["id"] == game_id and tally["rounds"] == [[3, 5, 1], [4, 4, 4], [0, 2, 9]]
    other = app_with_the_tally(databases.fresh(), tmp_path / "other", monkeypatch)
    try:
        elsewhere = other.test_client()
        upload = {"file": (io.BytesIO(json.dumps(exported).encode()), "games.json")}
        assert elsewhere.post("/import", data=upload, content_type="multipart/form-data").status_code == 303
        again = json.loads(elsewhere.get("/export.json").get_data(as_text=True))
        assert [game for game in again["games"] if game["kind"] == "tally"] == [tally]
        assert re.findall(r'<span class="total">(\d+)</span>', elsewhere.get(f"/tally/{game_id}").get_data(as_text=True)) == [
            "7",
            "11",
            "14",
        ]
    finally:
        with other.app_context():
            db.engine.dispose()


def test_the_shell_names_no_kind_not_even_the_tally() -> None:
    """The shared code asks the registry; only create_app lists the companion's kinds."""
    kinds = re.compile(r"black_spy|BLACK_SPY|black-spy|scorepad|SpyTurn|\bspy\b|\bSPY\b|tally")
    named = []
    for path in PACKAGE.rglob("*.py"):
        if "kinds" in path.relative_to(PACKAGE).parts:
            continue
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            code = line.split("#", 1)[0]
            if kinds.search(code) and not code.strip().startswith(('"', "'")):
                named.append(f"{path.relative_to(PACKAGE)}:{number}: {line.strip()}")
    # create_app's three imports of the kinds it registers, and nothing else
    assert len(named) <= 4, "\n".join(named)
    assert all(entry.startswith("__init__.py") for entry in named), "\n".join(named)
