"""What was changed, and when: every edit and undo is kept as a small history under the
game, carried in a companion/1 file, and never counted in a score."""

from __future__ import annotations

import io
import json
import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import exported, post_points, post_round, start_game, start_pad, text


def changes_shown(page: str) -> list[str]:
    section = re.search(r'<section id="changes"[^>]*>(.*?)</section>', page, re.S)
    return [text(item) for item in re.findall(r"<li>(.*?)</li>", section.group(1), re.S)] if section else []


def phones_named(page: str) -> list[str]:
    section = re.search(r'<section id="changes"[^>]*>(.*?)</section>', page, re.S)
    return re.findall(r'data-phone="([^"]*)"', section.group(1)) if section else []


def test_an_edit_and_an_undo_are_shown_under_the_game_with_the_values_they_changed(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [10, 10, 10, 30])
    assert changes_shown(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == []
    edit = {"mode": "points", "points-0": "15", "points-1": "20", "points-2": "25", "points-3": "0", "shoot": "none"}
    assert client.post(f"/black-spy/{game_id}/deals/1/edit", data=edit).status_code == 303
    client.post(f"/black-spy/{game_id}/undo", data={"number": "2"})
    shown = changes_shown(client.get(f"/black-spy/{game_id}").get_data(as_text=True))
    assert len(shown) == 2
    assert re.match(r"Deal 2 undone at .*: Ana 10, Ben 10, Cy 10, Dee 30$", shown[0]), shown[0]
    assert re.match(r"Deal 1 changed at .*: Ana 20 → 15, Ben 15 → 20$", shown[1]), shown[1]
    # each names its phone by id for the page to say "this phone" or "another" (app.js), never
    # in words a table reads: the same phone, the same id
    phones = phones_named(client.get(f"/black-spy/{game_id}").get_data(as_text=True))
    assert len(phones) == 2 and phones[0] == phones[1] and re.fullmatch(r"[0-9a-f]{8}", phones[0])
    # and the phone that made them is told its own id, to say which are its own
    assert client.get_cookie("phone").value == phones[0]
    # never counted: the totals are the deals'
    assert "15" in client.get(f"/black-spy/{game_id}").get_data(as_text=True)


def test_a_shoot_undone_is_shown_as_the_deals_table_says_it(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [65, -5, 0, 0], shoot="0")
    client.post(f"/black-spy/{game_id}/undo", data={"number": "1"})
    shown = changes_shown(client.get(f"/black-spy/{game_id}").get_data(as_text=True))
    assert re.match(r"Deal 1 undone at .*: Ana 65 \(shot\), Ben -5, Cy 0, Dee 0$", shown[0]), shown[0]
    # and kept as it was stored: a file carries the count
    assert exported(client, f"/black-spy/{game_id}/export.json")["games"][0]["changes"][0]["before"]["Ana"] == "65 (16)"


def test_a_pads_round_changed_is_shown_and_the_history_travels_in_a_file(client: FlaskClient) -> None:
    pad = start_pad(client, "Golf", ("Vic", "Wes"))
    post_round(client, pad, (3, 4))
    client.post(f"/scorepad/{pad}/rounds/1/edit", data={"points-0": "5", "points-1": "4"})
    assert len(changes_shown(client.get(f"/scorepad/{pad}").get_data(as_text=True))) == 1
    file = exported(client, f"/scorepad/{pad}/export.json")
    (change,) = file["games"][0]["changes"]
    assert change["number"] == 1 and change["what"] == "edit"
    assert change["before"] == {"Vic": "3", "Wes": "4"} and change["after"] == {"Vic": "5", "Wes": "4"}
    # a file without changes (an older one) still imports; one with them brings them back
    client.post(f"/games/{pad}/delete")
    client.post("/deleted/empty")
    answer = client.post(
        "/import", data={"file": (io.BytesIO(json.dumps(file).encode()), "games.json")}, content_type="multipart/form-data"
    )
    assert answer.status_code in (200, 303)
    assert len(changes_shown(client.get(f"/scorepad/{pad}").get_data(as_text=True))) == 1
    older = json.loads(json.dumps(file))
    del older["games"][0]["changes"]
    older["games"][0]["id"] = None
    answer = client.post(
        "/import", data={"file": (io.BytesIO(json.dumps(older).encode()), "games.json")}, content_type="multipart/form-data"
    )
    assert answer.status_code in (200, 303)
