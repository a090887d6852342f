"""Players persist across games, and the history lists the games.

A known name, typed in any case, reuses its player in a new game; players are listed most
recently seen first, are offered by the new-game form, and can be renamed in every game at
once (a clashing name or no name is refused, and nothing is saved); the players page is
their statistics, for each kind of game once any is finished. The history lists games newest
first, filtered by player and state, twenty to a page. Every expected figure below is worked
out by hand, in a comment, from the deals the test posts.
"""

from __future__ import annotations

import csv
import html as htmllib
import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.store.base import db
from companion.store.games import Seat
from companion.store.players import Player
from tests.helpers import TWO_SPIES, post_points, snapshot, start_game, start_pad, start_spy
from tests.history_helpers import (
    get_html,
    import_games,
    listed_game_ids,
    listed_players,
    player_id,
    players_named,
    small_history_fixture,  # noqa: F401  (pytest finds the small_history fixture here)
    standings_shown,
)

# --- players persist across games --------------------------------------------------------------


def test_a_known_name_reuses_its_player_in_a_new_game(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    start_game(client, names=("Dee", " Ana ", "Eve"))
    assert players_named(app, "Ana") == 1
    with app.app_context():
        # Ana, Ben, Cy, Dee, Eve: five players for six seats
        assert db.session.scalar(select(func.count()).select_from(Player)) == 5
        ana = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
        assert db.session.scalar(select(func.count()).select_from(Seat).where(Seat.player_id == ana)) == 2


def test_a_known_name_typed_in_another_case_is_the_same_player(client: FlaskClient, app: Flask) -> None:
    # renaming refuses a name that differs from another player's only in case, and one game
    # refuses "Ana" and "ana" together: the companion treats them as one person, so a new
    # game with "ana" must seat the known Ana, not make a second player
    start_game(client, names=("Ana", "Ben", "Cy"))
    start_game(client, names=("ana", "Ben", "Cy"))
    assert players_named(app, "Ana") == 1


@pytest.mark.parametrize("again", ["Əli", "əli", "ƏLİ".replace("İ", "I")])
def test_a_name_beyond_ascii_is_the_same_player_in_any_case(client: FlaskClient, app: Flask, again: str) -> None:
    start_game(client, names=("Əli", "Ben", "Cy"))
    start_game(client, names=(again, "Ben", "Cy"))
    with app.app_context():
        names = db.session.scalars(select(Player.name)).all()
    assert sorted(names) == ["Ben", "Cy", "Əli"]


def test_players_are_listed_most_recently_seen_first(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Eve", "Fay", "Gus"))
    start_game(client, names=("Ana", "Ben", "Cy"))
    start_game(client, names=("Gus", "Hal", "Ida"))
    # last seen: Gus, Hal, Ida in game 3; Ana, Ben, Cy in game 2; Eve, Fay only in game 1
    groups = [{"Gus", "Hal", "Ida"}, {"Ana", "Ben", "Cy"}, {"Eve", "Fay"}]
    shown = listed_players(get_html(client, "/players"))
    assert sorted(shown) == sorted(set().union(*groups))
    assert [set(shown[0:3]), set(shown[3:6]), set(shown[6:8])] == groups


def test_players_of_an_old_game_brought_in_from_a_backup_are_not_the_most_recent(client: FlaskClient) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    # a game played at a table on 2020-01-15, restored today: Xi, Yo and Zu were last seen then
    import_games(
        client,
        {
            "kind": "black-spy",
            "players": ["Xi", "Yo", "Zu"],
            "first_dealer": "Xi",
            "created_at": "2020-01-15T18:30:00Z",
            "deals": [{"raw": {"Xi": 20, "Yo": 10, "Zu": 30}, "shooter": None}],
        },
    )
    shown = listed_players(get_html(client, "/players"))
    assert [set(shown[:3]), set(shown[3:])] == [{"Ana", "Ben", "Cy"}, {"Xi", "Yo", "Zu"}]


def test_the_new_game_form_offers_known_players_most_recent_first(client: FlaskClient) -> None:
    start_game(client, names=("Eve", "Fay", "Gus"))
    start_game(client, names=("Ana", "Ben", "Cy"))
    page = get_html(client, "/new")
    datalist = re.search(r'<datalist id="([^"]+)">(.*?)</datalist>', page, re.S)
    assert datalist, "the new-game form offers no list of known players"
    offered = re.findall(r'<option value="([^"]*)"', datalist.group(2))
    assert set(offered[:3]) == {"Ana", "Ben", "Cy"} and set(offered[3:]) == {"Eve", "Fay", "Gus"}
    # every name box offers the list, and a new name can still be typed
    boxes = re.findall(r'<input id="player-\d" name="player-\d"[^>]*>', page)
    assert len(boxes) == 6
    assert all(f'list="{datalist.group(1)}"' in box and 'type="text"' in box for box in boxes)


def test_renaming_a_player_changes_every_game_they_are_in(client: FlaskClient, app: Flask) -> None:
    first = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    post_points(client, first, [20, 10, 30])
    second = start_game(client, names=("Dee", "Ana", "Eve"))
    post_points(client, second, [10, 20, 30])
    ana = player_id(app, "Ana")
    response = client.post(f"/players/{ana}/rename", data={"name": "  Zed  "})
    assert response.status_code == 303
    assert player_id(app, "Zed") == ana and players_named(app, "Ana") == 0
    assert "Zed, Ben, Cy</span>" in get_html(client, f"/black-spy/{first}")
    assert "Dee, Zed, Eve</span>" in get_html(client, f"/black-spy/{second}")
    games = {game["id"]: game for game in json.loads(get_html(client, "/export.json"))["games"]}
    assert games[first]["players"] == ["Zed", "Ben", "Cy"]
    assert games[second]["players"] == ["Dee", "Zed", "Eve"]
    rows = list(csv.DictReader(io.StringIO(get_html(client, "/export.csv"))))
    # deal 1 of each game: Zed (seat 1) took 20 in the first, Zed (seat 2) 20 in the second
    assert "Ana" not in {row["player"] for row in rows}
    assert sorted((row["game_id"], row["seat"], row["raw_points"]) for row in rows if row["player"] == "Zed") == sorted(
        [(first, "1", "20"), (second, "2", "20")]
    )
    assert "Zed" in listed_players(get_html(client, "/players"))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Ben", "There is already a player called Ben."),
        ("bEN", "There is already a player called Ben."),
        ("   ", "A player needs a name."),
        ("", "A player needs a name."),
        ("A" * 41, "at most 40 characters"),
    ],
)
def test_a_rename_that_clashes_or_is_not_a_name_is_refused_and_nothing_is_saved(
    client: FlaskClient, app: Flask, name: str, message: str
) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    ana = player_id(app, "Ana")
    before = snapshot(app)
    response = client.post(f"/players/{ana}/rename", data={"name": name})
    assert response.status_code == 422
    assert message in htmllib.unescape(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_the_players_page_is_their_statistics(client: FlaskClient, app: Flask, small_history: dict[str, str]) -> None:
    # finished Black Spy games (see play_small_history): Ana G1-G4, won G2 and G3 (shared), best 0;
    # Ben G1-G4, won G1 and G3, best 0; Cy G1-G3, none won, best 60; Dee G4, won, 15
    page = get_html(client, "/players")
    assert sorted(standings_shown(page)) == [
        ("Ana", "4", "2", "0"),
        ("Ben", "4", "2", "0"),
        ("Cy", "3", "0", "60"),
        ("Dee", "1", "1", "15"),
    ]
    # every name leads to that player's own page
    for name in ("Ana", "Ben", "Cy", "Dee"):
        assert f'<a href="/players/{player_id(app, name)}">{name}</a>' in page


def test_the_players_page_counts_spy_games_once_any_is_played(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    assert sorted(standings_shown(get_html(client, "/players"))) == [
        ("Ana", "0", "0", "—"),
        ("Ben", "0", "0", "—"),
        ("Cy", "0", "0", "—"),
    ]
    game_id = start_spy(client, players=TWO_SPIES)
    # Ana lights Ben's bomb at 3, Ben passes, Ana looks at it again and is blown up: Ben wins
    for look, answer in (("1:3", "bomb"), ("", None), ("1:3", None)):
        form = {"look": look, **({"answer": answer} if answer else {})}
        assert client.post(f"/spy/{game_id}/turns", data=form).status_code == 303
    shown = {row[0]: row[1:] for row in standings_shown(get_html(client, "/players"))}
    assert shown == {"Ana": ("0", "0", "—", "1", "0"), "Ben": ("0", "0", "—", "1", "1"), "Cy": ("0", "0", "—", "0", "0")}


def test_the_players_page_counts_finished_score_pads_once_any_is_played(client: FlaskClient, app: Flask) -> None:
    from tests.helpers import post_round

    start_game(client, names=("Ana", "Ben", "Cy"))
    game_id = start_pad(client, players=("Ana", "Ben", "Jo"))
    post_round(client, game_id, (10, 30, 40))
    # a pad not over yet counts for nobody
    assert ">Score pad</th>" not in get_html(client, "/players")
    page = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    number = re.search(r'action="/scorepad/\w+/end".*?name="number" value="(\d+)"', page, re.S).group(1)
    assert client.post(f"/scorepad/{game_id}/end", data={"number": number}).status_code == 303
    players = get_html(client, "/players")
    assert '<th scope="colgroup" colspan="2">Score pad</th>' in players
    # the pad's figures are headed by the game it was for: one game's are not another's
    assert '<th scope="col">Wingspan: games</th><th scope="col">Wingspan: wins</th>' in players
    shown = {row[0]: row[-2:] for row in standings_shown(players)}
    # the highest total wins a pad by default: Jo, who plays no Black Spy, is listed with it
    assert shown == {"Ana": ("1", "0"), "Ben": ("1", "0"), "Cy": ("0", "0"), "Jo": ("1", "1")}


def test_the_players_page_is_no_wall_of_rename_boxes(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    assert "<input" not in get_html(client, "/players").split("<main", 1)[1].split("</main>", 1)[0].replace(
        'name="csrf_token"', ""
    )
    # renaming is a small action on the player's page: closed until asked for, a plain form
    page = get_html(client, f"/players/{player_id(app, 'Ana')}")
    rename = re.search(r'<details class="rename-player">\s*<summary>Rename Ana</summary>(.*?)</details>', page, re.S)
    assert rename, "no closed rename on the player's page"
    assert f'<form method="post" action="/players/{player_id(app, "Ana")}/rename"' in rename.group(1)
    assert re.search(r'<input id="name" name="name" type="text"[^>]*value="Ana"', rename.group(1))


def test_a_refused_rename_opens_it_again_with_the_name_typed_and_why(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    response = client.post(f"/players/{player_id(app, 'Ana')}/rename", data={"name": "ben"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert '<details class="rename-player" open>' in page
    assert re.search(r'<input id="name" name="name" type="text"[^>]*value="ben" aria-invalid="true"', page)
    assert "There is already a player called Ben." in htmllib.unescape(page)
    # the player's figures are still there (none yet: the game is not over)
    assert "No finished game yet." in page


def test_a_rename_leads_back_to_the_players_own_page(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    ana = player_id(app, "Ana")
    response = client.post(f"/players/{ana}/rename", data={"name": "Zed"}, follow_redirects=True)
    assert response.request.path == f"/players/{ana}"
    assert "Ana is now Zed, in every game." in htmllib.unescape(response.get_data(as_text=True))


def test_a_forty_character_name_is_accepted(client: FlaskClient, app: Flask) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    ana = player_id(app, "Ana")
    assert client.post(f"/players/{ana}/rename", data={"name": "B" * 40}).status_code == 303
    assert player_id(app, "B" * 40) == ana


# --- history -----------------------------------------------------------------------------------


def test_history_lists_games_newest_first_filtered_and_twenty_to_a_page(client: FlaskClient, app: Flask) -> None:
    made = []
    for number in range(23):
        names = ("Ana", "Ben", "Cy") if number % 2 == 0 else ("Dee", "Eve", "Fay")
        game_id = start_game(client, names=names, end_value="50")
        if number % 3 == 0:
            # 60 reaches the end value of 50: finished
            assert post_points(client, game_id, [60, 0, 0], shoot="none").status_code == 303
        made.append(game_id)
    newest_first = made[::-1]
    first = get_html(client, "/history")
    second = get_html(client, "/history?page=2")
    assert listed_game_ids(first) == newest_first[:20]
    assert listed_game_ids(second) == newest_first[20:]
    assert (len(listed_game_ids(first)), len(listed_game_ids(second))) == (20, 3)
    # page 1 leads to the older page 2 only, and page 2 back to the newer page 1 only
    assert re.search(r'href="/history\?[^"]*page=2"[^>]*>Older', first) and "Newer" not in first
    assert re.search(r'href="/history\?[^"]*page=1"[^>]*>[^<]*Newer', second) and "Older" not in second
    assert listed_game_ids(get_html(client, "/history?page=3")) == []

    def shown(query: str) -> list[str]:
        page = get_html(client, f"/history?{query}")
        # fewer than 21 games: one page, no pager
        assert "Older" not in page and "Newer" not in page
        return listed_game_ids(page)

    ana = player_id(app, "Ana")
    # Ana sits in the even-numbered games: 0, 2, …, 22, twelve of them
    assert shown(f"player={ana}") == [made[n] for n in range(22, -1, -2)]
    # finished: numbers divisible by 3, 0 to 21: eight games; in progress: the other fifteen
    assert shown("state=finished") == [made[n] for n in (21, 18, 15, 12, 9, 6, 3, 0)]
    assert shown("state=in-progress") == [made[n] for n in range(22, -1, -1) if n % 3]
    # Ana's finished games: even and divisible by 3
    assert shown(f"player={ana}&state=finished") == [made[n] for n in (18, 12, 6, 0)]


def test_the_history_filter_applies_on_change_and_its_button_stays_for_pages_without_javascript(client: FlaskClient) -> None:
    finished = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    assert post_points(client, finished, [60, 0, 0], shoot="none").status_code == 303
    going = start_game(client, names=("Ana", "Ben", "Cy"))
    page = get_html(client, "/history")
    form = re.search(r'<form method="get" action="/history"[^>]*>', page).group(0)
    assert 'hx-get="/history"' in form and 'hx-trigger="change"' in form and 'hx-target="#history-games"' in form
    # the url follows the filter, so a reload or a shared link shows the same games
    assert 'hx-push-url="true"' in form
    assert re.search(r'<button type="submit"[^>]*>Show</button>', page)
    # what a change asks for: the list alone, the one region it swaps
    response = client.get("/history?player=&state=finished", headers={"HX-Request": "true"})
    fragment = response.get_data(as_text=True)
    assert response.status_code == 200 and "HX-Request" in response.headers["Vary"]
    assert fragment.lstrip().startswith('<div id="history-games" hx-target="this" hx-swap="outerHTML">')
    assert "<html" not in fragment and "<form" not in fragment
    assert listed_game_ids(fragment) == [finished]
    assert listed_game_ids(get_html(client, "/history?state=in-progress")) == [going]
