"""Helpers shared by the tests of history across games.

Read what the players page, a player's page and the history show; find a player or a
game's read-only id; bring games in from a backup; list the POST routes that name a game;
check that the figures kept beside a Black Spy game equal the fold of its deals; and play
the small history of finished games that the players page and the statistics are checked
against: the ``small_history`` fixture, which a module that uses it imports as
``small_history_fixture`` for pytest to find it there.
"""

from __future__ import annotations

import html as htmllib
import io
import json
import re
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.kinds.black_spy.models import DealScore
from companion.store.base import db
from companion.store.games import Game, Seat
from companion.store.players import Player
from tests.helpers import post_points, start_game, text


def get_html(client: FlaskClient, url: str, status: int = 200, **kwargs) -> str:
    response = client.get(url, **kwargs)
    assert response.status_code == status, (url, response.status_code, response.get_data(as_text=True)[:2000])
    return response.get_data(as_text=True)


def player_id(app: Flask, name: str) -> int:
    with app.app_context():
        found = db.session.scalar(select(Player.id).where(Player.name == name))
        assert found is not None, f"no player called {name}"
        return found


def players_named(app: Flask, name: str) -> int:
    """How many player rows carry this name, in any case."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Player).where(func.lower(Player.name) == name.lower()))


def watch_id_of(app: Flask, game_id: str) -> str:
    with app.app_context():
        found = db.session.scalar(select(Game.watch_id).where(Game.id == game_id))
        assert found, "the game has no read-only id"
        return found


def listed_game_ids(page: str) -> list[str]:
    """The games a list page shows, in the order shown."""
    match = re.search(r'<ul class="game-list">(.*?)</ul>', page, re.S)
    if match is None:
        return []
    return re.findall(r'href="/(?:black-spy|spy)/([A-Za-z0-9]+)"', match.group(1))


def listed_players(page: str) -> list[str]:
    return [name for name, *_ in standings_shown(page)]


def standings_shown(page: str) -> list[tuple[str, ...]]:
    """The players page's table: each player's name, then their figures as shown."""
    table = re.search(r'<table [^>]*id="standings">.*?<tbody>(.*?)</tbody>', page, re.S)
    assert table, "no table of players"
    return [
        tuple(text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S))
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", table.group(1), re.S)
    ]


def stats_shown(page: str) -> dict[str, str]:
    """The statistics on a player's page, by label."""
    return {text(label): text(value) for label, value in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", page, re.S)}


def rivals_shown(page: str) -> list[tuple[str, int, int, int, int]]:
    rows = re.findall(r'<tr><th scope="row">(.*?)</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>', page)
    return [(htmllib.unescape(name), int(a), int(b), int(c), int(d)) for name, a, b, c, d in rows]


def import_games(client: FlaskClient, *games: dict) -> None:
    upload = {"file": (io.BytesIO(json.dumps({"format": "companion/1", "games": list(games)}).encode()), "games.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 303, response.get_data(as_text=True)


def post_routes_with_game_id(app: Flask) -> list[tuple[str, tuple[str, ...]]]:
    """Every POST route that names a game, read from the app's url map, not listed by hand."""
    return sorted(
        (rule.rule, tuple(sorted(rule.arguments)))
        for rule in app.url_map.iter_rules()
        if "POST" in rule.methods and "game_id" in rule.arguments
    )


# --- the kept figures -------------------------------------------------------------------------


def assert_kept_figures_equal_the_fold(app: Flask, game_id: str) -> None:
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = game.state()
        size = state.setup.size
        assert game.finished == state.finished
        assert game.rounds == len(state.deals)
        assert game.next_seat == (None if state.next is None else state.next.dealer)
        seats = db.session.execute(select(Seat.position, Seat.total, Seat.won).where(Seat.game_id == game_id)).all()
        assert sorted(map(tuple, seats)) == [(seat, state.totals[seat], seat in state.winners) for seat in range(size)]
        rows = db.session.execute(
            select(DealScore.number, DealScore.seat, DealScore.raw, DealScore.score, DealScore.shot).where(
                DealScore.game_id == game_id
            )
        ).all()
        # each deal's scores are kept for a finished game alone (statistics count no open game)
        assert sorted(map(tuple, rows)) == sorted(
            (deal.number, seat, deal.raw[seat], deal.scores[seat], deal.shooter == seat)
            for deal in (state.deals if state.finished else ())
            for seat in range(size)
        )
        # and a finished game's kept totals are the sums of its kept deal scores
        for seat in range(size if state.finished else 0):
            assert sum(row.score for row in rows if row.seat == seat) == state.totals[seat]


# --- a small history of games ------------------------------------------------------------------


G4_DEALS = ([35, 15, 10], [40, 20, 0], [30, 25, 5])


def play_small_history(client: FlaskClient, app: Flask, old_g4: bool = False) -> dict[str, str]:
    """Four finished games and one in progress, all with Ana.

    G1 (Ana, Ben, Cy; end 50): [20, 10, 30], [25, 5, 30] -> totals 45, 15, 60; Ben wins.
    G2 (Ana, Ben, Cy; end 50): [60, 0, 0] and Ana shot -> 0, 60, 60; Ana wins alone.
    G3 (Ana, Ben, Cy; end 50): [0, 0, 60], no shoot -> 0, 0, 60; Ana and Ben share the win.
    G4 (Ana, Ben, Dee; end 100): [35, 15, 10], [40, 20, 0], [30, 25, 5] -> 105, 60, 15; Dee wins.
    G5 (Ana, Ben, Cy): [20, 20, 20], in progress: counts nowhere.

    With ``old_g4`` G4 is brought in from a backup as played on 2020-01-15 at 18:30 (UTC),
    the way an old game reaches the companion, so that every figure the app keeps for it
    is made by the app itself.
    """
    games = {}
    games["G1"] = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    games["G2"] = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    games["G3"] = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    if old_g4:
        games["G4"] = "Old4Game20"
        import_games(
            client,
            {
                "id": games["G4"],
                "kind": "black-spy",
                "rules": {"preset": "standard", "end_value": 100},
                "players": ["Ana", "Ben", "Dee"],
                "first_dealer": "Ana",
                "created_at": "2020-01-15T18:30:00Z",
                "deals": [{"raw": dict(zip(("Ana", "Ben", "Dee"), deal, strict=True)), "shooter": None} for deal in G4_DEALS],
            },
        )
    else:
        games["G4"] = start_game(client, names=("Ana", "Ben", "Dee"), end_value="100")
        assert [post_points(client, games["G4"], deal).status_code for deal in G4_DEALS] == [303] * 3
    games["G5"] = start_game(client, names=("Ana", "Ben", "Cy"))
    posted = [
        post_points(client, games["G1"], [20, 10, 30]),
        post_points(client, games["G1"], [25, 5, 30]),
        post_points(client, games["G2"], [60, 0, 0], shoot="0"),
        post_points(client, games["G3"], [0, 0, 60], shoot="none"),
        post_points(client, games["G5"], [20, 20, 20]),
    ]
    assert [response.status_code for response in posted] == [303] * len(posted)
    with app.app_context():
        finished = {game_id: db.session.scalar(select(Game.finished).where(Game.id == game_id)) for game_id in games.values()}
        if old_g4:
            assert db.session.get(Game, games["G4"]).created_at == datetime(2020, 1, 15, 18, 30)
    assert [finished[games[name]] for name in ("G1", "G2", "G3", "G4", "G5")] == [True, True, True, True, False]
    return games


# named apart from its fixture, so that a test asking for it shadows no import
@pytest.fixture(name="small_history")
def small_history_fixture(client: FlaskClient, app: Flask) -> dict[str, str]:
    return play_small_history(client, app)
