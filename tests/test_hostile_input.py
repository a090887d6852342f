"""Random and hostile form data sent to every POST route of the app.

Whatever arrives: never a server error, never a change on a refusal, never the
input echoed back unescaped.
"""

from __future__ import annotations

import io

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers import snapshot, start_game

FIELDS = [
    "csrf_token", "mode", "number", "version", "submission", "shoot", "rest", "look", "answer", "steps",
    "turn_before", "turn_after", "other_end", "preset", "end_value", "shoot_rule", "first_lead", "first_dealer",
    "first_player", "track", "passcode", "next",
    *[f"player-{row}" for row in range(7)], *[f"points-{seat}" for seat in range(7)],
    *[f"{key}-{seat}" for key in ("black_spies", "low_blacks", "coloured_spies") for seat in range(6)],
    *[f"high-{card}" for card in (7, 8, 9, 10, 11, 12)],
    *[f"spy-player-{row}" for row in range(5)], *[f"spy-colour-{row}" for row in range(5)],
    *[f"spy-slot-{row}" for row in range(5)], *[f"spy-facing-{row}" for row in range(5)],
]
MARKER = "<script>alert('x')</script>"
HOSTILE = st.sampled_from([
    MARKER, "<img src=x onerror=alert(1)>", "' OR 1=1 --", "\"; DROP TABLE games; --", "9" * 400, "-9" * 50,
    "1e309", "NaN", "-0", "\x00", "\u202e", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "ಠ_ಠ", "0:spy", "1:1", "99:99", "-1", "", " ", "true",
    "standard", "classic", "cards", "points", "none", "draw", "green", "red", "target", "bomb", "lit-bomb",
])
VALUES = st.one_of(HOSTILE, st.text(max_size=60), st.integers(-(10**30), 10**30).map(str))
FORMS = st.dictionaries(st.one_of(st.sampled_from(FIELDS), st.text(max_size=20)), VALUES, max_size=25)


def post_routes(app: Flask) -> list[tuple[str, tuple[str, ...]]]:
    """Every POST route, read from the app's url map, not listed by hand."""
    return sorted(
        (rule.rule, tuple(sorted(rule.arguments)))
        for rule in app.url_map.iter_rules()
        if "POST" in rule.methods
    )


def fill(rule: str, values: dict[str, str]) -> str:
    for name, value in values.items():
        rule = rule.replace(f"<{name}>", value).replace(f"<int:{name}>", value)
    return rule


@pytest.fixture
def games(client: FlaskClient) -> dict[str, str]:
    black_spy = start_game(client)
    client.post(f"/black-spy/{black_spy}/deals", data={"mode": "points", "points-0": "20", "points-1": "15", "points-2": "25", "points-3": "0"})
    spy = client.post("/spy/new", data={"spy-player-0": "Ana", "spy-player-1": "Ben", "spy-colour-0": "green", "spy-colour-1": "red", "first_player": "0"})
    return {"black-spy": black_spy, "spy": spy.location.rsplit("/", 1)[1]}


def test_the_app_has_the_post_routes_this_test_expects_to_cover(app: Flask) -> None:
    rules = [rule for rule, _ in post_routes(app)]
    assert "/black-spy/<game_id>/deals" in rules and "/spy/<game_id>/turns" in rules and "/import" in rules
    assert len(rules) >= 9


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hostile_forms_never_break_the_app_nor_change_it_when_refused(app: Flask, client: FlaskClient, games: dict[str, str], data: st.DataObject) -> None:
    for rule, arguments in post_routes(app):
        kind = "spy" if rule.startswith("/spy") else "black-spy"
        values = {
            "game_id": data.draw(st.sampled_from([games[kind], games["black-spy" if kind == "spy" else "spy"], "nope", "%3Cb%3E"])),
            "number": data.draw(st.sampled_from(["1", "0", "2", "99999999999999999999"])),
            "player_id": data.draw(st.sampled_from(["1", "2", "99999"])),
        }
        form = data.draw(FORMS)
        url = fill(rule, {name: values[name] for name in arguments})
        before = snapshot(app)
        if rule == "/import":
            payload = data.draw(st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode)))
            response = client.post(url, data={"file": (io.BytesIO(payload), "games.json")}, content_type="multipart/form-data")
        else:
            response = client.post(url, data=form)
        assert response.status_code < 500, (url, form)
        if response.status_code >= 400:
            assert snapshot(app) == before, (url, form, response.status_code)
        assert MARKER not in response.get_data(as_text=True), (url, form)


def test_a_ten_megabyte_field_is_refused_in_words_and_changes_nothing(app: Flask, client: FlaskClient, games: dict[str, str]) -> None:
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
