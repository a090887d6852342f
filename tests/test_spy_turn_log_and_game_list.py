"""A Spy game's turns so far are listed latest first, in the words the table was told; the
home page lists Spy games with whose turn it is or who won; a Spy page is not a Black Spy one.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import start_game, start_spy
from tests.spy_app_helpers import page, play, text, won_by_cy


def turn_log(html: str) -> list[tuple[str, str]]:
    """The turn log's entries as the page lists them: (number, words)."""
    found = re.search(r'<details id="turns" class="card turn-log"[^>]*>(.*?)</details>', html, re.S)
    if found is None:
        return []
    return [(number, text(words)) for number, words in re.findall(r'<li value="(\d+)">(.*?)</li>', found.group(1), re.S)]


# --- the turns so far -------------------------------------------------------------------


def test_the_turns_so_far_are_listed_latest_first_in_the_words_the_table_was_told(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client)
    assert turn_log(page(client, game_id)) == []
    play(client, game_id, ("1:3", "safe"), ("", None), ("0:2", "bomb"), ("1:1", "target"))
    html = page(client, game_id)
    assert "4 turns so far" in text(html)
    assert turn_log(html) == [
        ("4", "Ana exposed Ben's Safe 1."),
        ("3", "Cy found one of Ana's bombs: tssss! It is lit."),
        ("2", "Ben did not spy."),
        ("1", "Ana spied on Ben: a Safe."),
    ]

    # a follower reads the same log; an undo takes the last turn out of it
    from tests.helpers import watch_url

    assert turn_log(client.get(watch_url(app, game_id)).get_data(as_text=True)) == turn_log(html)
    assert client.post(f"/spy/{game_id}/undo", data={"number": "4"}).status_code == 303
    assert [number for number, _ in turn_log(page(client, game_id))] == ["3", "2", "1"]


def test_the_last_turn_in_the_log_names_the_winner(client: FlaskClient) -> None:
    game_id = won_by_cy(client)
    html = page(client, game_id)
    assert turn_log(html)[0] == ("5", "Ben found Cy's lit bomb and is blown up. Cy wins!")
    assert "5 turns played" in text(html) and "so far" not in text(html)


def test_exposing_the_last_target_says_so_once(client: FlaskClient) -> None:
    game_id = start_spy(client, players=(("Ana", "green"), ("Ben", "red")))
    # Ana exposes Ben's targets one by one; Ben does not spy in between
    exposures = [f"1:{card}" for card in (1, 2, 3, 4)]
    for number, look in enumerate(exposures, start=1):
        play(client, game_id, (look, "target"))
        if number < len(exposures):
            play(client, game_id, ("", None))
    html = page(client, game_id)
    # the news of the last turn, and the same words in the turns so far
    news = text(re.search(r'<div class="messages[^"]*"[^>]*>(.*?)</div>', html, re.S).group(1))
    assert news == "Ana exposed Ben's Top Secret 2: Ben is found out. Ana wins!"
    assert turn_log(html)[0] == ("7", news)


# --- the list of games ------------------------------------------------------------------


def test_the_home_page_lists_spy_games_with_whose_turn_it_is_and_the_winner(client: FlaskClient, app: Flask) -> None:
    going = start_spy(client, first_player=0)
    play(client, going, ("1:1", "safe"))
    done = start_spy(client, (("Dee", "green"), ("Eve", "red")))
    play(client, done, ("1:3", "bomb"), ("0:1", "safe"), ("1:3", None))
    html = client.get("/").get_data(as_text=True)
    in_progress, finished = html.split('id="finished"')
    in_progress_words = text(in_progress)
    finished_words = text(finished)
    assert f'href="/spy/{going}"' in in_progress
    assert "Spy · Ana, Ben, Cy" in in_progress_words
    assert "Turn 2: Ben to play" in in_progress_words
    assert f'href="/spy/{done}"' in finished
    assert "Spy · Dee, Eve" in finished_words
    assert "Winner: Eve · 3 turns" in finished_words
    assert f"/spy/{done}" not in in_progress


def test_a_spy_page_is_not_a_black_spy_page_and_the_other_way_round(client: FlaskClient) -> None:
    spy_id = start_spy(client)
    black_spy_id = start_game(client)
    assert client.get(f"/black-spy/{spy_id}").status_code == 404
    assert client.get(f"/spy/{black_spy_id}").status_code == 404
    assert client.get("/spy/nosuchgame").status_code == 404
