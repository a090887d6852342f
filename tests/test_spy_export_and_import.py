"""A Spy game exports its inputs and what they derive, and imports back to export the same;
a file with an impossible turn or bad seating is refused whole; the spreadsheet holds Spy turns.
"""

from __future__ import annotations

import io
import json

from flask import Flask
from flask.testing import FlaskClient

from tests.databases import Databases
from tests.helpers import exported, make_app, post_points, snapshot, start_game, start_spy
from tests.spy_app_helpers import page, play, play_a_tracked_opening, take_turn, text


def upload(client: FlaskClient, data: dict):
    file = {"file": (io.BytesIO(json.dumps(data).encode()), "games.json")}
    return client.post("/import", data=file, content_type="multipart/form-data")


def play_a_mixed_history(client: FlaskClient, app: Flask) -> dict[str, str]:
    """A Black Spy game, a finished two-player Spy game and a tracked three-player one."""
    black_spy = start_game(client, names=("Eve", "Fay", "Gus"))
    assert post_points(client, black_spy, [20, 15, 25]).status_code == 303
    finished = start_spy(client, (("Ana", "green"), ("Ben", "red")), first_player=1)
    play(client, finished, ("0:3", "bomb"), ("", None), ("0:1", "target"), ("1:2", "safe"), ("0:3", None))
    tracked = play_a_tracked_opening(client, app)
    assert take_turn(client, tracked, "2:spy", steps="2").status_code == 303
    return {"black-spy": black_spy, "finished": finished, "tracked": tracked}


def test_a_spy_game_exports_its_inputs_and_what_they_derive(client: FlaskClient, app: Flask) -> None:
    games = play_a_mixed_history(client, app)
    response = client.get(f"/spy/{games['finished']}/export.json")
    assert response.status_code == 200
    assert "attachment" in response.headers["Content-Disposition"]
    data = json.loads(response.get_data(as_text=True))
    assert data["format"] == "companion/1"
    (game,) = data["games"]
    assert game["id"] == games["finished"] and game["kind"] == "spy"
    assert game["players"] == ["Ana", "Ben"]
    assert game["colours"] == {"Ana": "green", "Ben": "red"}
    assert game["first_player"] == "Ben"
    assert "spies" not in game
    assert game["turns"] == [
        {"player": "Ben", "spy": {"target": "Ana", "slot": 3, "answer": "bomb"}},
        {"player": "Ana", "spy": None},
        {"player": "Ben", "spy": {"target": "Ana", "slot": 1, "answer": "target"}},
        {"player": "Ana", "spy": {"target": "Ben", "slot": 2, "answer": "safe"}},
        {"player": "Ben", "spy": {"target": "Ana", "slot": 3, "answer": "lit-bomb"}},
    ]
    assert game["derived"] == {
        "turn": None,
        "out": {"Ben": "blown-up"},
        "winner": "Ana",
        "bases": {
            "Ana": {"size": 8, "target": "safe-2", "exposed": {"1": "safe-1"}, "lit_bombs": [3], "unlit_bombs": 2},
            "Ben": {"size": 8, "target": "safe-1", "exposed": {}, "lit_bombs": [], "unlit_bombs": 3},
        },
    }

    (tracked,) = json.loads(client.get(f"/spy/{games['tracked']}/export.json").get_data(as_text=True))["games"]
    assert tracked["spies"] == {
        "Ana": {"slot": 1, "facing": "right"},
        "Ben": {"slot": 7, "facing": "left"},
        "Cy": {"slot": 4, "facing": "right"},
    }
    assert tracked["turns"][-1] == {
        "player": "Ana",
        "move": {"steps": 2, "turn_before": False, "turn_after": False, "other_end": False},
        "spy": {"target": "Cy", "slot": None, "answer": "spy"},
    }
    derived = tracked["derived"]
    assert derived["turn"] == "Ben" and derived["winner"] is None and derived["out"] == {}
    assert derived["bases"]["Ana"] == {
        "size": 7,
        "target": "safe-2",
        "exposed": {"1": "safe-1"},
        "lit_bombs": [],
        "unlit_bombs": 2,
        "spy": {"slot": 3, "facing": "right"},
    }


def test_spy_and_black_spy_games_export_then_import_then_export_the_same(
    client: FlaskClient, app: Flask, databases: Databases
) -> None:
    games = play_a_mixed_history(client, app)
    first = exported(client)
    assert [game["id"] for game in first["games"]] == [games["black-spy"], games["finished"], games["tracked"]]
    assert [game["kind"] for game in first["games"]] == ["black-spy", "spy", "spy"]
    other_app = make_app(databases.fresh())
    other = other_app.test_client()
    response = upload(other, first)
    assert response.status_code == 303
    second = exported(other)
    assert second["games"] == first["games"]
    # the imported games are played on where they stood
    tracked = games["tracked"]
    html = page(other, tracked)
    assert "Turn 5: Ben's turn" in text(html)
    # Ana's Spy now stands in slot 3, so the slot 2 opposite Ben's sight is her card 2
    assert "Ben's Spy looks at: Ana's card 2, Cy's card 2." in text(html)
    assert take_turn(other, tracked, "0:2", "top-secret").status_code == 303
    assert "Ben spied on Ana: a Top Secret." in text(page(other, tracked))


def test_a_file_with_an_impossible_turn_is_refused_whole_naming_the_game_and_turn(client: FlaskClient, app: Flask) -> None:
    play_a_mixed_history(client, app)
    data = exported(client)
    for game in data["games"]:
        game["id"] = game["id"][::-1]  # new ids, so only the bad turn is wrong
    # turn 2 was Ana's pass; say she looked at a lit bomb that nobody has lit
    data["games"][1]["turns"][1]["spy"] = {"target": "Ben", "slot": 2, "answer": "lit-bomb"}
    before = snapshot(app)
    response = upload(client, data)
    assert response.status_code == 422
    words = text(response.get_data(as_text=True))
    assert "Nothing was imported" in words
    assert f"Game 2 ({data['games'][1]['id']}): Turn 2: Ben's card 2 is not a lit bomb" in words
    assert snapshot(app) == before

    # a turn out of turn order is named the same way
    data["games"][1]["turns"][1] = {"player": "Ben", "spy": None}
    response = upload(client, data)
    assert response.status_code == 422
    assert f"Game 2 ({data['games'][1]['id']}): Turn 2: It is Ana's turn." in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_a_spy_game_with_bad_colours_or_a_tracked_move_in_an_untracked_game_is_refused(client: FlaskClient, app: Flask) -> None:
    base = {"kind": "spy", "players": ["Ana", "Ben"], "colours": {"Ana": "green", "Ben": "red"}, "first_player": "Ana"}
    before = snapshot(app)
    for game, message in [
        ({**base, "colours": {"Ana": "green", "Ben": "blue"}}, "Game 1: Two players play the green and red sets."),
        ({**base, "colours": {"Ana": "green"}}, "Game 1: colours must give a colour to each of the players"),
        ({**base, "first_player": "Cy"}, "Game 1: the first player 'Cy' is not one of the players"),
        (
            {**base, "turns": [{"player": "Ana", "move": {"steps": 2}, "spy": None}]},
            "Game 1: Turn 1: This table does not track the Spies: leave the move out.",
        ),
        (
            {**base, "turns": [{"player": "Ana", "spy": {"target": "Ben", "slot": 1, "answer": "maybe"}}]},
            "Game 1: turn 1: unknown answer 'maybe'",
        ),
    ]:
        response = upload(client, {"format": "companion/1", "games": [game]})
        assert response.status_code == 422
        assert message in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_the_spreadsheet_of_every_game_holds_spy_turns_and_pad_rounds_beside_black_spy_deals(client: FlaskClient) -> None:
    import csv
    import io

    from tests.helpers import TWO_SPIES, post_round, start_pad

    spy_game = start_spy(client, players=TWO_SPIES)
    play(client, spy_game, ("1:1", "target"), ("0:1", "target"))
    pad = start_pad(client, "Golf", ("Vic", "Wes"))
    post_round(client, pad, (4, -2))
    black_spy = start_game(client)
    post_points(client, black_spy, [20, 15, 25, 0])
    rows = list(csv.DictReader(io.StringIO(client.get("/export.csv").get_data(as_text=True))))
    by_kind = {kind: [row for row in rows if row["kind"] == kind] for kind in ("black-spy", "spy", "scorepad")}
    assert len(by_kind["black-spy"]) == 4 and {row["game_id"] for row in by_kind["black-spy"]} == {black_spy}
    assert [(row["deal"], row["player"]) for row in by_kind["spy"]] == [("1", "Ana"), ("2", "Ben")]
    assert [
        (row["rule_set"], row["deal"], row["player"], row["raw_points"], row["running_total"]) for row in by_kind["scorepad"]
    ] == [
        ("Golf", "1", "Vic", "4", "4"),
        ("Golf", "1", "Wes", "-2", "-2"),
    ]
