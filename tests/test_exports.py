"""What leaves the companion, and a bad backup that does not come back in.

A game's CSV and the whole CSV hold a row per player per deal, with running totals and the
shoot; an upload with one good game and one bad game writes nothing; a finished game can be
logged in BG Stats, a shared win as two winners. Every expected figure below is worked out
by hand, in a comment, from the deals the test posts.
"""

from __future__ import annotations

import csv
import html as htmllib
import io
import json
import re
from urllib.parse import parse_qs, urlsplit

from flask import Flask
from flask.testing import FlaskClient

from companion.store.base import db
from companion.store.games import Game
from tests.helpers import TWO_SPIES, post_points, snapshot, start_game, start_spy
from tests.history_helpers import get_html, players_named

# --- CSV export --------------------------------------------------------------------------------

COLUMNS = [
    "game_id",
    "date",
    "rule_set",
    "deal",
    "dealer",
    "pass",
    "player",
    "seat",
    "raw_points",
    "score",
    "running_total",
    "shooter",
    # the kind of game of the row: the spreadsheet of every game holds every kind
    "kind",
]


def read_csv(client: FlaskClient, url: str) -> list[dict[str, str]]:
    response = client.get(url)
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    reader = csv.reader(io.StringIO(response.get_data(as_text=True)))
    header = next(reader)
    assert header == COLUMNS
    return [dict(zip(header, row, strict=True)) for row in reader]


def test_a_games_csv_has_a_row_per_player_per_deal_with_running_totals_and_the_shoot(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy", "Dee"), first_dealer=1)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [65, -5, 0, 0], shoot="0")
    rows = read_csv(client, f"/black-spy/{game_id}/export.csv")
    assert len(rows) == 8  # 4 players x 2 deals
    with app.app_context():
        day = db.session.get(Game, game_id).created_at.date().isoformat()
    assert {row["game_id"] for row in rows} == {game_id}
    assert {row["date"] for row in rows} == {day}
    assert {row["rule_set"] for row in rows} == {"standard"}
    got = [
        (
            row["deal"],
            row["dealer"],
            row["pass"],
            row["player"],
            row["seat"],
            row["raw_points"],
            row["score"],
            row["running_total"],
            row["shooter"],
        )
        for row in rows
    ]
    # deal 1: Ben deals (first dealer), pass left; scores = raw; totals 20, 15, 25, 0
    # deal 2: Cy deals, pass right; Ana shot: 0 for her, 60 for the rest; totals 20, 75, 85, 60
    assert got == [
        ("1", "Ben", "left", "Ana", "1", "20", "20", "20", "no"),
        ("1", "Ben", "left", "Ben", "2", "15", "15", "15", "no"),
        ("1", "Ben", "left", "Cy", "3", "25", "25", "25", "no"),
        ("1", "Ben", "left", "Dee", "4", "0", "0", "0", "no"),
        ("2", "Cy", "right", "Ana", "1", "65", "0", "20", "yes"),
        ("2", "Cy", "right", "Ben", "2", "-5", "60", "75", "no"),
        ("2", "Cy", "right", "Cy", "3", "0", "60", "85", "no"),
        ("2", "Cy", "right", "Dee", "4", "0", "60", "60", "no"),
    ]


def test_the_whole_csv_holds_every_black_spy_deal_and_nothing_of_a_spy_game_with_no_turn(client: FlaskClient, app: Flask) -> None:
    first = start_game(client, names=("Ana", "Ben", "Cy"), first_dealer=2, end_value="50")
    post_points(client, first, [60, 0, 0], shoot="none")
    second = start_game(client, names=("Dee", "Eve", "Fay", "Gus", "Hal"), preset="classic")
    post_points(client, second, [30, 20, 10, 10, 10])
    post_points(client, second, [0, 80, 0, 0, 0])
    start_spy(client, players=TWO_SPIES)
    # the home page offers it as every game's entries, whatever the kind
    assert '<a class="button" href="/export.csv" download>All games, entry by entry (CSV)</a>' in get_html(client, "/")
    rows = read_csv(client, "/export.csv")
    # 3 players x 1 deal + 5 players x 2 deals = 13 rows
    assert len(rows) == 13
    assert {row["game_id"] for row in rows} == {first, second}
    assert [row["running_total"] for row in rows if row["game_id"] == first] == ["60", "0", "0"]
    assert {row["dealer"] for row in rows if row["game_id"] == first} == {"Cy"}
    classic = [row for row in rows if row["game_id"] == second]
    assert {row["rule_set"] for row in classic} == {"classic"}
    assert "50" in {row["rule_set"] for row in rows if row["game_id"] == first}.pop()
    # Eve: 20 then 80 (classic: no shoot rule, raw counts) -> 100; classic passes always left
    assert [
        (row["deal"], row["score"], row["running_total"], row["pass"], row["shooter"])
        for row in classic
        if row["player"] == "Eve"
    ] == [
        ("1", "20", "20", "left", "no"),
        ("2", "80", "100", "left", "no"),
    ]


# --- a bad upload writes nothing ---------------------------------------------------------------


def test_an_upload_with_one_good_game_and_one_bad_game_writes_nothing(client: FlaskClient, app: Flask) -> None:
    start_game(client)
    good = {
        "kind": "black-spy",
        "players": ["Ivy", "Jon", "Kai"],
        "first_dealer": "Jon",
        "deals": [{"raw": {"Ivy": 20, "Jon": 10, "Kai": 30}, "shooter": None}],
    }
    # 25 + 10 + 30 = 65, not 60
    bad = {
        "kind": "black-spy",
        "players": ["Lea", "Max", "Ned"],
        "first_dealer": "Lea",
        "deals": [{"raw": {"Lea": 25, "Max": 10, "Ned": 30}, "shooter": None}],
    }
    before = snapshot(app)
    upload = {"file": (io.BytesIO(json.dumps({"format": "companion/1", "games": [good, bad]}).encode()), "games.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "Game 2" in response.get_data(as_text=True)
    assert snapshot(app) == before
    assert players_named(app, "Ivy") == 0
    # the good game alone goes in: it was refused only for its bad neighbour
    upload = {"file": (io.BytesIO(json.dumps({"format": "companion/1", "games": [good]}).encode()), "games.json")}
    assert client.post("/import", data=upload, content_type="multipart/form-data").status_code == 303
    assert players_named(app, "Ivy") == 1


# --- BG Stats ----------------------------------------------------------------------------------


def bgstats_data(page: str) -> dict:
    match = re.search(
        r'<a class="button" href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]*)"[^>]*>Log in BG Stats</a>', page
    )
    assert match, "no BG Stats link"
    url = urlsplit(htmllib.unescape(match.group(1)))
    (data,) = parse_qs(url.query)["data"]
    return json.loads(data)


def test_a_finished_game_can_be_logged_in_bg_stats(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy"), first_dealer=2, end_value="50")
    post_points(client, game_id, [20, 10, 30])
    assert "Log in BG Stats" not in get_html(client, f"/black-spy/{game_id}")
    post_points(client, game_id, [25, 5, 30])
    play = bgstats_data(get_html(client, f"/black-spy/{game_id}"))
    assert play["game"]["name"] == "Black Spy"
    assert play["game"]["bggId"] == 1982
    assert play["game"]["highestWins"] is False
    # totals 45, 15, 60: Ben the lowest wins; Cy dealt first
    assert play["players"] == [
        {"name": "Ana", "score": 45, "winner": False, "startPlayer": False},
        {"name": "Ben", "score": 15, "winner": True, "startPlayer": False},
        {"name": "Cy", "score": 60, "winner": False, "startPlayer": True},
    ]
    with app.app_context():
        created = db.session.get(Game, game_id).created_at
    assert play["playDate"] == created.strftime("%Y-%m-%d %H:%M:%S")
    assert isinstance(play["durationMin"], int) and play["durationMin"] >= 1


def test_a_shared_win_is_logged_as_two_winners(client: FlaskClient) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy"), first_dealer=0, end_value="50")
    post_points(client, game_id, [0, 0, 60], shoot="none")
    play = bgstats_data(get_html(client, f"/black-spy/{game_id}"))
    assert [(p["name"], p["score"], p["winner"], p["startPlayer"]) for p in play["players"]] == [
        ("Ana", 0, True, True),
        ("Ben", 0, True, False),
        ("Cy", 60, False, False),
    ]
