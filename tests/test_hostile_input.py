"""Random and hostile input sent to every route of the app: forms to every POST route,
query strings to every GET route, numbers in every path, and import files both random
and made from a real export with one part replaced by something hostile.

Whatever arrives: never a server error, never a change on a refusal, never the
input echoed back unescaped. ``make fuzz`` runs ten times the examples
(COMPANION_FUZZ_SCALE=10).
"""

from __future__ import annotations

import io
import json
import os
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import fill_rule, snapshot, start_game

FIELDS = [
    "csrf_token",
    "mode",
    "number",
    "version",
    "submission",
    "shoot",
    "rest",
    "look",
    "answer",
    "steps",
    "turn_before",
    "turn_after",
    "other_end",
    "preset",
    "end_value",
    "shoot_rule",
    "first_lead",
    "first_dealer",
    "first_player",
    "track",
    "passcode",
    "next",
    *[f"player-{row}" for row in range(7)],
    *[f"points-{seat}" for seat in range(7)],
    *[f"{key}-{seat}" for key in ("black_spies", "low_blacks", "coloured_spies") for seat in range(6)],
    *[f"high-{card}" for card in (7, 8, 9, 10, 11, 12)],
    *[f"spy-player-{row}" for row in range(5)],
    *[f"spy-colour-{row}" for row in range(5)],
    *[f"spy-slot-{row}" for row in range(5)],
    *[f"spy-facing-{row}" for row in range(5)],
]
# how many times the examples of a quick run: ``make fuzz`` sets 10
SCALE = max(1, int(os.environ.get("COMPANION_FUZZ_SCALE", "1")))
MARKER = "<script>alert('x')</script>"
HOSTILE = st.sampled_from(
    [
        MARKER,
        "<img src=x onerror=alert(1)>",
        "' OR 1=1 --",
        '"; DROP TABLE games; --',
        "9" * 400,
        "-9" * 50,
        "9" * 26,
        "-" + "9" * 26,
        "1" + "0" * 30,
        str(2**63),
        str(-(2**63) - 1),
        str(2**31),
        "1e309",
        "NaN",
        "-0",
        "\x00",
        "Ana\x00",
        "\x00\x00",
        "\u202e",
        "\u202eAna",
        "\u2066Ana\u2069",
        "\ufeff",
        "\u200b",
        "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
        "ಠ_ಠ",
        "٣",
        "0:spy",
        "1:1",
        "99:99",
        "-1",
        "",
        " ",
        "true",
        "[]",
        "{}",
        "null",
        "9999-12-31",
        "0001-01-01",
        "2026-13-45",
        "%00",
        "../../etc/passwd",
        "\r\nSet-Cookie: x=1",
        "standard",
        "classic",
        "cards",
        "points",
        "none",
        "draw",
        "green",
        "red",
        "target",
        "bomb",
        "lit-bomb",
    ]
)
VALUES = st.one_of(HOSTILE, st.text(max_size=60), st.integers(-(10**30), 10**30).map(str))
# numbers and ids in a path: the real ones, and ones no database holds
PATH_NUMBERS = st.sampled_from(["1", "0", "2", "3", "99999", str(2**31 - 1), str(2**31), str(2**63), "9" * 26])
QUERY_NAMES = [
    "page",
    "player",
    "state",
    "game",
    "lang",
    "next",
    "from",
    "to",
    "start",
    "end",
    "mode",
    "edit",
    "since",
    "kind",
    "number",
]
FORMS = st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=20)), VALUES, max_size=25)


def post_routes(app: Flask) -> list[tuple[str, tuple[str, ...]]]:
    """Every POST route, read from the app's url map, not listed by hand."""
    return sorted((rule.rule, tuple(sorted(rule.arguments))) for rule in app.url_map.iter_rules() if "POST" in rule.methods)


@pytest.fixture
def games(client: FlaskClient) -> dict[str, str]:
    black_spy = start_game(client)
    client.post(
        f"/black-spy/{black_spy}/deals",
        data={"mode": "points", "points-0": "20", "points-1": "15", "points-2": "25", "points-3": "0"},
    )
    spy = client.post(
        "/spy/new",
        data={"spy-player-0": "Ana", "spy-player-1": "Ben", "spy-colour-0": "green", "spy-colour-1": "red", "first_player": "0"},
    )
    # a seat's own link, the one write route a game's id does not name
    phones = client.get(f"/black-spy/{black_spy}/phones").get_data(as_text=True)
    link = re.search(r'<a data-seat="0" href="[^"]*/seat/([^"]+)"', phones)
    assert link
    return {"black-spy": black_spy, "spy": spy.location.rsplit("/", 1)[1], "link": link.group(1)}


def test_the_app_has_the_post_routes_this_test_expects_to_cover(app: Flask) -> None:
    rules = [rule for rule, _ in post_routes(app)]
    assert "/black-spy/<game_id>/deals" in rules and "/spy/<game_id>/turns" in rules and "/import" in rules
    assert len(rules) >= 9


@settings(max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_forms_never_break_the_app_nor_change_it_when_refused(
    app: Flask, client: FlaskClient, games: dict[str, str], data: st.DataObject
) -> None:
    # the database as the next post finds it: a refused post leaves it so, and only a post
    # taken in makes it read again
    before = snapshot(app)
    for rule, arguments in post_routes(app):
        kind = "spy" if rule.startswith("/spy") else "black-spy"
        values = {
            "game_id": data.draw(
                st.sampled_from([games[kind], games["black-spy" if kind == "spy" else "spy"], "nope", "%3Cb%3E"])
            ),
            "number": data.draw(PATH_NUMBERS),
            "player_id": data.draw(PATH_NUMBERS),
            "link": data.draw(st.sampled_from([games["link"], "nope", "%3Cb%3E"])),
        }
        form = data.draw(FORMS)
        url = fill_rule(rule, {name: values[name] for name in arguments})
        if rule == "/import":
            payload = data.draw(
                st.one_of(
                    st.binary(max_size=200),
                    st.text(max_size=200).map(str.encode),
                    JSON_VALUES.map(lambda value: json.dumps(value).encode()),
                )
            )
            response = client.post(url, data={"file": (io.BytesIO(payload), "games.json")}, content_type="multipart/form-data")
        else:
            response = client.post(url, data=form)
        assert response.status_code < 500, (url, form)
        if response.status_code >= 400:
            assert snapshot(app) == before, (url, form, response.status_code)
        else:
            before = snapshot(app)
        assert MARKER not in response.get_data(as_text=True), (url, form)


def test_a_ten_megabyte_field_is_refused_in_words_and_changes_nothing(
    app: Flask, client: FlaskClient, games: dict[str, str]
) -> None:
    before = snapshot(app)
    response = client.post(f"/black-spy/{games['black-spy']}/deals", data={"points-0": "1" * (10 * 1024 * 1024)})
    assert response.status_code == 413
    assert "too large" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_numbers_in_urls_too_large_for_the_database_are_not_found(client: FlaskClient, games: dict[str, str]) -> None:
    huge = "9" * 25
    for method, url in [
        ("get", f"/players/{huge}"),
        ("post", f"/players/{huge}/rename"),
        ("get", f"/black-spy/{games['black-spy']}/deals/{huge}/edit"),
        ("post", f"/black-spy/{games['black-spy']}/deals/{huge}/edit"),
        ("get", f"/players/{2**31}"),
    ]:
        response = getattr(client, method)(url, data={"name": "x"} if method == "post" else None)
        assert response.status_code == 404, url


# --- import files: any JSON, and a real export with one part made hostile ----------------------

JSON_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=False),
    HOSTILE,
    st.text(max_size=20),
    st.sampled_from([10**18, -(10**18), 2**31, 2**63, 10**17]),
)
JSON_VALUES = st.recursive(
    JSON_LEAVES,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.one_of(HOSTILE, st.text(max_size=10)), children, max_size=4)
    ),
    max_leaves=12,
)
# shapes the prober sent: deep nesting, a long number, whole numbers as text
RAW_TRICKS = [
    b"[" * 990 + b"]" * 990,
    b'{"format": "companion/1", "games": [' + b"[" * 3000 + b"]" * 3000 + b"]}",
    b'{"format": "companion/1", "games": [], "x": ' + b"9" * 5000 + b"}",
    b"\xef\xbb\xbf{}",
    b'{"a": 1, "a": 2}',
]


def mutated(data: st.DataObject, document: Any) -> Any:
    """The document with one value somewhere inside it replaced by a hostile one."""
    if isinstance(document, dict) and document and data.draw(st.booleans()):
        key = data.draw(st.sampled_from(sorted(document)))
        return {**document, key: mutated(data, document[key])}
    if isinstance(document, list) and document and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(document) - 1))
        return [*document[:index], mutated(data, document[index]), *document[index + 1 :]]
    return data.draw(JSON_VALUES)


@pytest.fixture
def export(client: FlaskClient, games: dict[str, str]) -> dict[str, Any]:
    """Every game of this app as a file whose ids are new to it (so only what is made hostile can refuse it)."""
    from tests.test_exchange import play_a_mixed_history

    play_a_mixed_history(client)
    document = json.loads(client.get("/export.json").get_data(as_text=True))
    for game in document["games"]:
        game["id"] = game["id"][::-1] + "x"
    return document


@settings(max_examples=40 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_an_export_with_any_part_made_hostile_is_imported_or_refused_in_words(
    app: Flask, client: FlaskClient, export: dict[str, Any], data: st.DataObject
) -> None:
    if data.draw(st.integers(0, 9)) == 0:
        payload = data.draw(st.sampled_from(RAW_TRICKS))
    else:
        payload = json.dumps(mutated(data, export)).encode()
    before = snapshot(app)
    response = client.post("/import", data={"file": (io.BytesIO(payload), "games.json")}, content_type="multipart/form-data")
    assert response.status_code in (303, 422), response.get_data(as_text=True)[:300]
    if response.status_code == 422:
        assert snapshot(app) == before
        assert "Nothing was imported" in response.get_data(as_text=True)
    assert MARKER not in response.get_data(as_text=True)
    # whatever went in comes out again as a file of its own format
    assert client.get("/export.json").status_code == 200


# --- every GET route, with hostile numbers in its path and any query string ---------------------


@settings(max_examples=25 * SCALE, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_query_strings_and_path_numbers_never_break_a_page(
    app: Flask, client: FlaskClient, games: dict[str, str], data: st.DataObject
) -> None:
    from companion.store.base import db
    from companion.store.games import Game

    with app.app_context():
        watch = db.session.get(Game, games["black-spy"]).watch_id
    # no page changes anything: after each, the database is as it was before the first
    before = snapshot(app)
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        kind = "spy" if rule.rule.startswith("/spy") else "black-spy"
        values = {
            "game_id": data.draw(st.sampled_from([games[kind], "nope", "9" * 40])),
            "watch_id": data.draw(st.sampled_from([watch, "nope"])),
            "link": data.draw(st.sampled_from([games["link"], "nope"])),
            "number": data.draw(PATH_NUMBERS),
            "player_id": data.draw(PATH_NUMBERS),
            "filename": "css/app.css",
        }
        url = fill_rule(rule.rule, {name: values.get(name, "x") for name in rule.arguments})
        query = data.draw(st.dictionaries(st.one_of(st.sampled_from(QUERY_NAMES), st.text(max_size=8)), VALUES, max_size=4))
        response = client.get(url, query_string=query)
        assert response.status_code < 500, (url, query)
        assert MARKER not in response.get_data(as_text=True), (url, query)
        assert snapshot(app) == before, (url, query)


@pytest.mark.parametrize("name", ["Ana\x00", "\x00", "An\x07a", "\u202eanA", "Ana\u2066", "\ufeffAna", "\ud800"])
def test_a_name_no_page_or_database_could_hold_is_refused_everywhere_in_words(
    app: Flask, client: FlaskClient, games: dict[str, str], name: str
) -> None:
    import json as json_module

    before = snapshot(app)
    words = "A name cannot contain control characters or invisible marks."
    file = {"format": "companion/1", "games": [{"kind": "black-spy", "players": [name, "Ben", "Cy"], "first_dealer": "Ben"}]}
    # json writes half a UTF-16 pair as an escape: only a file can bring one
    imported = client.post(
        "/import", data={"file": (io.BytesIO(json_module.dumps(file).encode()), "games.json")}, content_type="multipart/form-data"
    )
    responses = [imported]
    if not any(0xD800 <= ord(character) <= 0xDFFF for character in name):
        responses += [
            client.post("/black-spy/new", data={"player-0": name, "player-1": "Ben", "player-2": "Cy", "first_dealer": "1"}),
            client.post(
                "/spy/new",
                data={
                    "spy-player-0": name,
                    "spy-player-1": "Ben",
                    "spy-colour-0": "green",
                    "spy-colour-1": "red",
                    "first_player": "1",
                },
            ),
            client.post("/players/1/rename", data={"name": name}),
        ]
    for response in responses:
        assert 400 <= response.status_code < 500, response.status_code
        assert words in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_history_parameters_too_large_for_the_database_show_the_first_page(client: FlaskClient, games: dict[str, str]) -> None:
    for query in ({"page": "9" * 25}, {"player": "9" * 25}, {"page": str(2**40)}, {"player": str(-(2**40))}):
        response = client.get("/history", query_string=query)
        assert response.status_code == 200, query


# fields whose value a write looks up or stores as it is, with no rule of the game to read it first
LOOKED_UP = (
    "submission",
    "rematch_of",
    "number",
    "version",
    "next",
    "csrf_token",
    "lang",
    "mode",
    "rest",
    "shoot",
    "look",
    "answer",
)


def test_a_nul_character_anywhere_is_not_found_or_refused_and_never_a_fault(
    app: Flask, client: FlaskClient, games: dict[str, str]
) -> None:
    """PostgreSQL cannot be asked about a text with a NUL character in it; SQLite can. Either
    way a NUL in an address is a page that is not there, and one in a form or a query is
    refused or finds nothing, with nothing written."""
    from companion.store.base import db
    from companion.store.games import Game

    with app.app_context():
        watch = db.session.get(Game, games["black-spy"]).watch_id
    before = snapshot(app)
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static" or not rule.arguments:
            continue
        kind = "spy" if rule.rule.startswith("/spy") else "black-spy"
        real = {"game_id": games[kind], "watch_id": watch, "number": "1", "player_id": "1", "link": games["link"]}
        for method in sorted({"GET", "POST"} & set(rule.methods or ())):
            for name in rule.arguments:
                url = fill_rule(rule.rule, {key: real.get(key, "x") + ("%00" if key == name else "") for key in rule.arguments})
                response = client.open(url, method=method, data={"name": "x"} if method == "POST" else None)
                assert response.status_code == 404, (method, url, response.status_code)
    assert snapshot(app) == before
    deal = {"mode": "points", "points-0": "20", "points-1": "15", "points-2": "25", "points-3": "0"}
    for rule, arguments in post_routes(app):
        kind = "spy" if rule.startswith("/spy") else "black-spy"
        url = fill_rule(
            rule,
            {name: {"game_id": games[kind], "number": "1", "player_id": "1", "link": games["link"]}[name] for name in arguments},
        )
        for field in LOOKED_UP:
            response = client.post(url, data={**deal, field: "ab\x00cd"})
            assert response.status_code < 500, (url, field)
            if response.status_code >= 400:
                assert snapshot(app) == before, (url, field)
            else:
                before = snapshot(app)
        everything = {field: "x\x00" for field in FIELDS}
        assert client.post(url, data=everything).status_code < 500, url
        before = snapshot(app)
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or rule.endpoint == "static":
            continue
        kind = "spy" if rule.rule.startswith("/spy") else "black-spy"
        url = fill_rule(
            rule.rule,
            {
                "game_id": games[kind],
                "watch_id": watch,
                "number": "1",
                "player_id": "1",
                "filename": "css/app.css",
                "link": games["link"],
            },
        )
        response = client.get(url, query_string={name: "a\x00b" for name in QUERY_NAMES})
        assert response.status_code < 500, url
    assert snapshot(app) == before
