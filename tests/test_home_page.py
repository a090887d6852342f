"""The home page: the latest games of each state, the same size however long the history."""

from __future__ import annotations

import re

from flask import Flask, template_rendered
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.store.base import db
from companion.store.players import Player
from companion.web.home import HOME_FINISHED, HOME_IN_PROGRESS
from tests.helpers import post_points, start_game
from tests.test_import_bounds import a_file, upload


def a_history(in_progress: int, finished: int) -> bytes:
    games = []
    for number in range(in_progress + finished):
        names = [f"Ann{number}", "Ben", "Cy"]
        done = number >= in_progress
        games.append(
            {
                "kind": "black-spy",
                "players": names,
                "first_dealer": "Ben",
                "rules": {"end_value": 50},
                "created_at": f"2025-01-01T{number // 60:02d}:{number % 60:02d}:00Z",
                # 60 points to Ann ends a game at 50
                "deals": [{"raw": {names[0]: 60, "Ben": 0, "Cy": 0}, "shooter": None}] if done else [],
            }
        )
    return a_file(games)


def listed(html: str, section: str) -> list[str]:
    part = html.split(f'id="{section}"', 1)[1].split("</section>", 1)[0]
    return re.findall(r"Ann(\d+)", part)


def test_the_home_page_shows_the_latest_games_of_each_state_and_links_to_the_rest(client: FlaskClient) -> None:
    assert upload(client, a_history(in_progress=30, finished=20)).status_code == 303
    html = client.get("/").get_data(as_text=True)
    # newest first: in progress 29 down to 18, finished 49 down to 42
    assert listed(html, "in-progress") == [str(n) for n in range(29, 29 - HOME_IN_PROGRESS, -1)]
    assert listed(html, "finished") == [str(n) for n in range(49, 49 - HOME_FINISHED, -1)]
    assert 'href="/history?state=in-progress"' in html and 'href="/history?state=finished"' in html


def test_a_short_history_is_shown_whole_without_links_to_more(client: FlaskClient) -> None:
    assert upload(client, a_history(in_progress=2, finished=3)).status_code == 303
    html = client.get("/").get_data(as_text=True)
    assert listed(html, "in-progress") == ["1", "0"] and listed(html, "finished") == ["4", "3", "2"]
    assert "state=in-progress" not in html and "state=finished" not in html


def test_the_home_page_is_made_once_for_every_phone_and_shows_each_change_at_once(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, end_value="70")
    phones = [app.test_client() for _ in range(3)]
    first = phones[0].get("/")
    tag = first.headers["ETag"]
    rendered: list[str] = []

    def note(_app: Flask, template, context) -> None:
        rendered.append(template.name)

    template_rendered.connect(note, app)
    try:
        assert [phone.get("/").status_code for phone in phones[1:]] == [200, 200]
        assert rendered == [], "the home page made for the first phone was made again"
        assert phones[0].get("/", headers={"If-None-Match": tag}).status_code == 304
    finally:
        template_rendered.disconnect(note, app)
    # a deal, a rename, a new game, the game's end: each is on every phone's next look
    post_points(client, game_id, [20, 15, 25, 0])
    assert "deal 2" in phones[1].get("/").get_data(as_text=True).lower()
    with app.app_context():
        ana = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
    assert client.post(f"/players/{ana}/rename", data={"name": "Anabel"}).status_code == 303
    assert "Anabel" in phones[2].get("/").get_data(as_text=True)
    start_game(client, names=("Eve", "Fay", "Gus"))
    assert "Eve" in phones[1].get("/").get_data(as_text=True)
    post_points(client, game_id, [60, 0, 0, 0], shoot="none")  # Anabel at 80: the game is over
    home = phones[0].get("/", headers={"If-None-Match": tag})
    finished = home.get_data(as_text=True).split('id="finished"', 1)[1]
    assert home.status_code == 200 and "Anabel" in finished


def test_a_name_too_long_is_refused_in_words_on_every_new_game_form_and_kept_to_mend(client: FlaskClient) -> None:
    # the box takes it whole (a browser's maxlength cut it without a word, and counted an
    # emoji as two): the rules say what is wrong, beside it
    long = "Bartholomew Fitzgerald-Montgomery the 3rd"
    assert len(long) == 41
    for path, form in [
        ("/black-spy/new", {"player-0": long, "player-1": "Ben", "player-2": "Cy", "first_dealer": "draw"}),
        (
            "/spy/new",
            {"spy-player-0": long, "spy-colour-0": "green", "spy-player-1": "Ben", "spy-colour-1": "red", "first_player": "draw"},
        ),
        ("/scorepad/new", {"pad-name": "Golf", "pad-player-0": long, "pad-player-1": "Ben"}),
    ]:
        answer = client.post(path, data=form)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 422, path
        assert "A name can be at most 40 characters." in page, path
        assert f'value="{long}"' in page, path
        assert "maxlength" not in re.sub(r'<input[^>]*inputmode="numeric"[^>]*>', "", page), path


def test_two_games_of_the_same_players_are_told_apart_by_their_rules_on_home(client: FlaskClient) -> None:
    start_game(client, preset="standard")
    start_game(client, preset="classic")
    lines = re.findall(r'<span class="meta">([^<]*)</span>', client.get("/").get_data(as_text=True))
    assert [line for line in lines if line.startswith("Classic rules · Deal 1:")], lines
    assert [line for line in lines if line.startswith("Deal 1:")], lines
