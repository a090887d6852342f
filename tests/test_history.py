"""History across games: players, the list of games, statistics, and what leaves the game page.

Players persist across games and can be renamed; the history lists games a page at a
time; a player's statistics come from the figures kept beside each game, which must equal
the fold of its deals; a rematch, a read-only link, a CSV export, a BG Stats link and the
score chart. Every expected figure below is worked out by hand, in a comment, from the
deals the test posts.
"""

from __future__ import annotations

import csv
import html as htmllib
import io
import itertools
import json
import re
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from companion.kinds.black_spy.models import DealScore
from companion.kinds.black_spy.stats import head_to_head, player_stats
from companion.store.base import db
from companion.store.games import Game, Seat
from companion.store.players import Player
from companion.store.statistics import Period
from companion.web.sharing import qr_svg_file
from tests.helpers import TWO_SPIES, fill_rule, post_points, snapshot, start_game, start_pad, start_spy, text

# --- helpers ----------------------------------------------------------------------------


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


# --- 1. players persist across games ------------------------------------------------------


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


# --- 2. history -----------------------------------------------------------------------------


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


# --- 3. statistics ---------------------------------------------------------------------------


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


@pytest.fixture
def small_history(client: FlaskClient, app: Flask) -> dict[str, str]:
    return play_small_history(client, app)


def test_a_players_statistics_over_a_small_history(client: FlaskClient, app: Flask, small_history: dict[str, str]) -> None:
    ana = player_id(app, "Ana")
    with app.app_context():
        stats = player_stats(ana)
        rivals = head_to_head(ana)
    # games: G1-G4 (G5 is not finished) = 4; wins: G2 alone, G3 shared = 2, 1 shared
    assert (stats.games, stats.wins, stats.shared_wins) == (4, 2, 1)
    assert stats.win_rate == pytest.approx(0.5)
    # final totals 45, 0, 0, 105: average 150 / 4 = 37.5, best 0
    assert stats.average_total == pytest.approx(37.5)
    assert stats.best_total == 0
    # deals 2 + 1 + 1 + 3 = 7; scores 20 + 25 + 0 (shot) + 0 + 35 + 40 + 30 = 150; 150 / 7 = 21.43
    assert stats.deals == 7
    assert stats.average_per_deal == pytest.approx(150 / 7)
    # one shoot (G2); raw 30 or more: G2's 60, G4's 35, 40 and 30 = 4
    assert stats.shoots == 1
    assert stats.heavy_deals == 4
    # Ben: G1 45>15 higher, G2 0<60 lower, G3 0=0 level, G4 105>60 higher
    # Cy: G1 45<60, G2 0<60, G3 0<60, all lower; Dee: G4 105>15 higher
    assert [(r.opponent, r.games, r.lower, r.higher, r.level) for r in rivals] == [
        ("Ben", 4, 1, 2, 1),
        ("Cy", 3, 3, 0, 0),
        ("Dee", 1, 0, 1, 0),
    ]

    page = get_html(client, f"/players/{ana}")
    shown = stats_shown(page)
    assert shown["Games played"] == "4"
    assert shown["Wins"] == "2 (1 shared)"
    assert shown["Win rate"] == "50%"
    assert shown["Average final total"] == "37.5"
    assert shown["Best (lowest) final total"] == "0"
    assert shown["Average points per deal"] == "21.4 over 7 deals"
    assert shown["Shoots made (all 16 black cards)"] == "1"
    assert shown["Heavy deals (30 or more raw points)"] == "4"
    assert sorted(rivals_shown(page)) == [("Ben", 4, 1, 2, 1), ("Cy", 3, 3, 0, 0), ("Dee", 1, 0, 1, 0)]


def test_the_other_players_see_their_own_side_of_the_same_history(
    client: FlaskClient, app: Flask, small_history: dict[str, str]
) -> None:
    with app.app_context():
        ben = player_stats(player_id(app, "Ben"))
        dee = player_stats(player_id(app, "Dee"))
        ben_rivals = {r.opponent: (r.games, r.lower, r.higher, r.level) for r in head_to_head(player_id(app, "Ben"))}
    # Ben: totals 15, 60, 0, 60; wins G1 alone and G3 shared
    assert (ben.games, ben.wins, ben.shared_wins, ben.best_total) == (4, 2, 1, 0)
    assert ben.average_total == pytest.approx(135 / 4)
    # Ben's scores 10 + 5 + 60 (Ana shot) + 0 + 15 + 20 + 25 = 135 over 7 deals; no raw of 30+
    assert ben.average_per_deal == pytest.approx(135 / 7)
    assert (ben.shoots, ben.heavy_deals) == (0, 0)
    # Ana's mirror image: against Ben, Ben lower twice, higher once, level once
    assert ben_rivals["Ana"] == (4, 2, 1, 1)
    # Ben vs Cy: G1 15<60, G2 60=60, G3 0<60 -> lower 2, level 1; Ben vs Dee: G4 60>15
    assert ben_rivals["Cy"] == (3, 2, 0, 1)
    assert ben_rivals["Dee"] == (1, 0, 1, 0)
    # Dee: one game, won alone, 15; scores 10, 0, 5
    assert (dee.games, dee.wins, dee.shared_wins, dee.best_total, dee.deals) == (1, 1, 0, 15, 3)
    assert dee.average_per_deal == pytest.approx(5.0)


def test_a_period_that_leaves_out_a_game_changes_the_figures(client: FlaskClient, app: Flask) -> None:
    play_small_history(client, app, old_g4=True)
    ana = player_id(app, "Ana")
    with app.app_context():
        # all time, the old game counts as any other: the same figures as above
        assert (player_stats(ana).games, player_stats(ana).deals, player_stats(ana).heavy_deals) == (4, 7, 4)
    with app.app_context():
        since = player_stats(ana, Period(datetime(2021, 1, 1).date(), None))
        then = player_stats(ana, Period(datetime(2020, 1, 15).date(), datetime(2020, 1, 15).date()))
        then_rivals = head_to_head(ana, Period(datetime(2020, 1, 15).date(), datetime(2020, 1, 15).date()))
    # without G4: games 3, wins 2 (1 shared); totals 45, 0, 0 -> 15.0; deals 4 scoring 45
    assert (since.games, since.wins, since.shared_wins, since.best_total) == (3, 2, 1, 0)
    assert since.win_rate == pytest.approx(2 / 3)
    assert since.average_total == pytest.approx(15.0)
    assert (since.deals, since.shoots, since.heavy_deals) == (4, 1, 1)
    assert since.average_per_deal == pytest.approx(45 / 4)
    # only G4 (the day of its creation counts, both ends included): 105, no win, 3 heavy deals
    assert (then.games, then.wins, then.best_total, then.deals, then.shoots, then.heavy_deals) == (1, 0, 105, 3, 0, 3)
    assert then.average_per_deal == pytest.approx(35.0)
    assert [(r.opponent, r.games, r.lower, r.higher, r.level) for r in then_rivals] == [("Ben", 1, 0, 1, 0), ("Dee", 1, 0, 1, 0)]

    page = get_html(client, f"/players/{ana}?from=2021-01-01")
    shown = stats_shown(page)
    assert shown["Games played"] == "3"
    assert shown["Win rate"] == "67%"
    assert shown["Average final total"] == "15.0"
    assert shown["Heavy deals (30 or more raw points)"] == "1"
    assert "Dee" not in {name for name, *_ in rivals_shown(page)}
    page = get_html(client, f"/players/{ana}?from=2020-01-15&to=2020-01-15")
    shown = stats_shown(page)
    assert shown["Games played"] == "1"
    assert shown["Win rate"] == "0%"
    assert shown["Best (lowest) final total"] == "105"
    assert shown["Average points per deal"] == "35.0 over 3 deals"
    assert sorted(rivals_shown(page)) == [("Ben", 1, 0, 1, 0), ("Dee", 1, 0, 1, 0)]


@pytest.mark.parametrize("query", ["from=notadate", "to=2024-13-45", "from=2024-01-01&to=yesterday"])
def test_a_bad_date_is_refused_in_words_not_with_a_server_error(client: FlaskClient, app: Flask, query: str) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    page = get_html(client, f"/players/{player_id(app, 'Ana')}?{query}", status=422)
    assert "Dates are written YYYY-MM-DD." in page


# --- 4. the kept figures equal the fold ---------------------------------------------------


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


def assert_statistics_equal_the_fold(app: Flask, game_id: str) -> None:
    """Each player's statistics, for players who sat at this game alone, follow its fold."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = game.state()
        size = state.setup.size
        ids = [seat.player_id for seat in game.seats]
        for seat in range(size):
            stats = player_stats(ids[seat])
            rivals = {rival.opponent: (rival.games, rival.lower, rival.higher, rival.level) for rival in head_to_head(ids[seat])}
            if not state.finished:
                assert (stats.games, stats.wins, stats.deals, stats.shoots, stats.heavy_deals) == (0, 0, 0, 0, 0)
                assert rivals == {}
                continue
            total = state.totals[seat]
            won = seat in state.winners
            scores = [deal.scores[seat] for deal in state.deals]
            assert (stats.games, stats.wins, stats.shared_wins) == (1, int(won), int(won and len(state.winners) > 1))
            assert (stats.average_total, stats.best_total) == (pytest.approx(total), total)
            assert stats.deals == len(state.deals)
            assert stats.average_per_deal == pytest.approx(sum(scores) / len(scores))
            assert stats.shoots == sum(deal.shooter == seat for deal in state.deals)
            assert stats.heavy_deals == sum(deal.raw[seat] >= 30 for deal in state.deals)
            assert rivals == {
                state.setup.players[other]: (
                    1,
                    int(total < state.totals[other]),
                    int(total > state.totals[other]),
                    int(total == state.totals[other]),
                )
                for other in range(size)
                if other != seat
            }


@st.composite
def deal_form(draw: st.DrawFn, size: int) -> dict[str, str]:
    """A valid deal for ``size`` players under the standard rules, as the deal form sends it."""
    kind = draw(st.sampled_from(["points", "points", "shoot", "cards"]))
    if kind == "shoot":
        shooter = draw(st.integers(0, size - 1))
        # all 16 blacks (80) less 5 per coloured Spy the shooter took; the others hold the rest
        kept = draw(st.integers(0, 4))
        raw = [0] * size
        raw[shooter] = 80 - 5 * kept
        for _ in range(4 - kept):
            raw[draw(st.sampled_from([seat for seat in range(size) if seat != shooter]))] -= 5
        form = {f"points-{seat}": str(points) for seat, points in enumerate(raw)}
        return {"mode": "points", **form, "shoot": str(shooter)}
    if kind == "cards":
        taker = draw(st.integers(0, size - 1))
        rest = draw(st.sampled_from([seat for seat in range(size) if seat != taker]))
        form = {
            "mode": "cards",
            "rest": str(rest),
            f"black_spies-{taker}": str(draw(st.integers(0, 6))),
            f"low_blacks-{taker}": str(draw(st.integers(0, 6))),
            f"coloured_spies-{taker}": str(draw(st.integers(0, 4))),
        }
        for card in (8, 9, 10, 11):
            form[f"high-{card}"] = str(draw(st.sampled_from([taker, rest])))
        return form
    # 60 split at random, then a few points moved to make negatives possible
    cuts = sorted(draw(st.lists(st.integers(0, 60), min_size=size - 1, max_size=size - 1)))
    raw = [b - a for a, b in zip([0, *cuts], [*cuts, 60], strict=True)]
    giver, taker = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
    moved = draw(st.sampled_from([0, 5, 10]))
    raw[giver] -= moved
    raw[taker] += moved
    return {"mode": "points", **{f"points-{seat}": str(points) for seat, points in enumerate(raw)}, "shoot": "none"}


TABLES = itertools.count(1)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_kept_figures_equal_the_fold_after_every_change(app: Flask, client: FlaskClient, data: st.DataObject) -> None:
    size = data.draw(st.integers(3, 6), label="players")
    end_value = data.draw(st.sampled_from(["40", "80", "150", ""]), label="end value")
    # players new to this database, so that their statistics are this game's alone
    table = next(TABLES)
    names = tuple(f"{name} {table}" for name in ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")[:size])
    game_id = start_game(client, names=names, first_dealer=data.draw(st.integers(0, size - 1)), end_value=end_value)
    assert_kept_figures_equal_the_fold(app, game_id)
    deals = 0
    for _ in range(data.draw(st.integers(1, 10), label="steps")):
        action = data.draw(st.sampled_from(["deal", "deal", "deal", "undo", "edit"]), label="action")
        if action == "deal":
            response = client.post(f"/black-spy/{game_id}/deals", data=data.draw(deal_form(size), label="deal"))
        elif action == "undo":
            response = client.post(f"/black-spy/{game_id}/undo")
        else:
            number = data.draw(st.integers(1, max(deals, 1)), label="edit number")
            response = client.post(f"/black-spy/{game_id}/deals/{number}/edit", data=data.draw(deal_form(size), label="edit"))
        # refusals are fine (a deal after the end, an edit that ends the game early, nothing to undo)
        assert response.status_code in (303, 404, 409, 422), (action, response.status_code)
        event(f"{action} answered {response.status_code}")
        with app.app_context():
            deals = db.session.scalar(select(Game.rounds).where(Game.id == game_id))
        assert_kept_figures_equal_the_fold(app, game_id)
        assert_statistics_equal_the_fold(app, game_id)
    with app.app_context():
        event("ended finished" if db.session.scalar(select(Game.finished).where(Game.id == game_id)) else "ended open")


# --- 5. rematch ---------------------------------------------------------------------------


def test_a_rematch_seats_the_same_players_with_the_same_rules_and_the_next_dealer(client: FlaskClient, app: Flask) -> None:
    old = start_game(
        client, names=("Ana", "Ben", "Cy", "Dee"), first_dealer=3, end_value="50", shoot_rule="off", first_lead="dealer-right"
    )
    # shoot rule off: 60 is simply 60, and reaches 50
    assert post_points(client, old, [60, 0, 0, 0]).status_code == 303
    with app.app_context():
        players_before = db.session.scalar(select(func.count()).select_from(Player))
    response = client.post(f"/black-spy/{old}/rematch")
    assert response.status_code == 303
    match = re.search(r"/black-spy/([A-Za-z0-9]+)$", response.location)
    assert match
    new = match.group(1)
    assert new != old
    with app.app_context():
        before, after = db.session.get(Game, old), db.session.get(Game, new)
        assert [(s.position, s.player_id) for s in after.seats] == [(s.position, s.player_id) for s in before.seats]
        assert (after.kind, after.preset, after.end_value, after.shoot_rule, after.first_lead) == (
            "black-spy",
            "standard",
            50,
            False,
            "dealer-right",
        )
        # Dee (seat 3) dealt first; the seat after hers is Ana's (seat 0)
        assert after.first_seat == 0
        assert after.deals == [] and not after.finished
        assert db.session.scalar(select(func.count()).select_from(Player)) == players_before
    page = get_html(client, f"/black-spy/{new}")
    assert 'Deal 1: <span class="who">Ana</span> deals' in page
    assert "game ends at 50" in page


def test_a_second_tap_on_rematch_goes_to_the_rematch_already_made(client: FlaskClient, app: Flask) -> None:
    old = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50", shoot_rule="off")
    assert post_points(client, old, [60, 0, 0]).status_code == 303
    first = client.post(f"/black-spy/{old}/rematch")
    second = client.post(f"/black-spy/{old}/rematch", follow_redirects=True)
    assert second.request.path == first.location
    assert "The rematch is already on: here it is." in second.get_data(as_text=True)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 2
    # the finished game now leads to its rematch instead of offering another
    page = get_html(client, f"/black-spy/{old}")
    assert f'href="{first.location}"' in page and f"/black-spy/{old}/rematch" not in page


# --- 6. the read-only link -------------------------------------------------------------------


def test_the_game_page_shows_the_read_only_link_and_its_qr_code(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    watch = watch_id_of(app, game_id)
    assert watch != game_id
    page = get_html(client, f"/black-spy/{game_id}")
    link = re.search(rf'<a href="(https?://[^"]*/watch/{watch})">', page)
    assert link, "no read-only link on the game page"
    follow = re.search(r'<details class="card follow">(.*?)</details>', page, re.S).group(1)
    # the code is an image of its own, loaded when the panel opens: the page carries none of it
    image = re.search(r'<img src="(/watch/[^"]+/qr\.svg)"[^>]*loading="lazy"[^>]*alt="QR code of the read-only link"', follow)
    assert image, "no QR code of the read-only link"
    assert "<svg" not in follow
    drawn = client.get(image.group(1))
    assert drawn.status_code == 200 and drawn.mimetype == "image/svg+xml"
    assert drawn.get_data(as_text=True).startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in drawn.get_data(
        as_text=True
    )
    # it draws this game's link at the address the phone used
    assert drawn.get_data() == qr_svg_file(link.group(1))
    other = watch_id_of(app, start_game(client))
    assert client.get(f"/watch/{other}/qr.svg").get_data() != drawn.get_data()
    assert client.get("/watch/nosuchgame/qr.svg").status_code == 404


def assert_read_only(page: str, game_id: str) -> None:
    assert game_id not in page
    # the one form is the reader's own language, which changes nothing in the game
    assert re.findall(r'<form[^>]*action="([^"]*)"', page) in ([], ["/language"])
    assert page.count("<form") == len(re.findall(r'<form[^>]*action="/language"', page))
    for attribute in ("hx-post", "hx-put", "hx-patch", "hx-delete"):
        assert attribute not in page
    for word in ("/edit", "/undo", "/rematch", "/deals"):
        assert word not in page


def test_the_read_only_page_shows_the_game_live_and_nothing_to_change_it(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, first_dealer=0, end_value="50")
    post_points(client, game_id, [20, 15, 25, 0])
    watch = watch_id_of(app, game_id)
    page = get_html(client, f"/watch/{watch}")
    assert "Standings" in page
    # deal 1 was Ana's; deal 2 is Ben's, passing right, and the totals so far 20, 15, 25, 0
    assert 'Deal 2: <span class="who">Ben</span> deals' in page
    assert "Pass 3 cards right" in page
    assert re.search(r'<span class="name">Cy.*?</span>\s*<span class="total">25</span>', page, re.S)
    assert_read_only(page, game_id)
    assert re.search(r'<div id="live"[^>]*hx-trigger="every \d+s"', page)
    fragment = get_html(client, f"/watch/{watch}", headers={"HX-Request": "true"})
    assert fragment.lstrip().startswith('<div id="live"')
    assert "<html" not in fragment and 'hx-trigger="every' in fragment
    assert_read_only(fragment, game_id)
    # the watch id opens no page that can change the game
    assert client.get(f"/black-spy/{watch}").status_code == 404
    assert client.get(f"/black-spy/{watch}/deals/1/edit").status_code == 404
    # 20+40 = 60 reaches 50: the game is over, and the page still asks for news (an undo)
    assert post_points(client, game_id, [40, 15, 5, 0]).status_code == 303
    page = get_html(client, f"/watch/{watch}")
    assert "Game over" in page
    assert poll_seconds(page) is not None
    assert_read_only(page, game_id)
    fragment = get_html(client, f"/watch/{watch}", headers={"HX-Request": "true"})
    assert fragment.lstrip().startswith('<div id="live"') and poll_seconds(fragment) is not None


def poll_seconds(page: str) -> int | None:
    """How often the follow page's live region asks for news, None if it never does."""
    opening = page.split('<div id="live"', 1)[1].split(">", 1)[0]
    match = re.search(r'hx-trigger="every (\d+)s"', opening)
    return int(match.group(1)) if match else None


def test_a_follower_sees_the_undo_of_a_finished_black_spy_game(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [20, 15, 25, 0])
    watch = watch_id_of(app, game_id)
    live = poll_seconds(get_html(client, f"/watch/{watch}"))
    assert post_points(client, game_id, [40, 15, 5, 0]).status_code == 303
    over = get_html(client, f"/watch/{watch}", headers={"HX-Request": "true"})
    assert "Game over" in over
    # a finished game is asked about as often as one in play: an undo reopens it for the
    # followers as soon as a deal would reach them
    assert poll_seconds(over) is not None and poll_seconds(over) <= live
    assert client.post(f"/black-spy/{game_id}/undo").status_code == 303
    news = get_html(client, f"/watch/{watch}", headers={"HX-Request": "true"})
    assert "Game over" not in news and 'Deal 2: <span class="who">Ben</span> deals' in news
    assert poll_seconds(news) == live


def test_a_follower_sees_the_undo_of_a_finished_spy_game(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, players=TWO_SPIES)
    for look, answer in (("1:3", "bomb"), ("", None), ("1:3", None)):
        form = {"number": "", "look": look, **({"answer": answer} if answer else {})}
        assert client.post(f"/spy/{game_id}/turns", data=form).status_code == 303
    watch = watch_id_of(app, game_id)
    over = get_html(client, f"/watch/{watch}", headers={"HX-Request": "true"})
    assert "Game over" in over and "Ben" in over
    assert poll_seconds(over) is not None
    assert client.post(f"/spy/{game_id}/undo").status_code == 303
    news = get_html(client, f"/watch/{watch}", headers={"HX-Request": "true"})
    assert "Game over" not in news and "Turn 3:" in news
    # asked about at the in-game pace, over or not
    assert poll_seconds(over) <= poll_seconds(news)


def test_a_spy_game_has_a_read_only_page_too(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, players=TWO_SPIES)
    assert client.post(f"/spy/{game_id}/turns", data={"number": "1", "look": ""}).status_code == 303
    game_page = get_html(client, f"/spy/{game_id}")
    watch = watch_id_of(app, game_id)
    assert f"/watch/{watch}" in game_page
    page = get_html(client, f"/watch/{watch}")
    assert "Ana" in page and "Ben" in page
    # turn 1 was Ana's; turn 2 is Ben's
    assert 'Turn 2: <span class="who">Ben</span>' in page
    assert_read_only(page, game_id)
    assert re.search(r'<div id="live"[^>]*hx-trigger="every \d+s"', page)


def test_every_write_route_refuses_a_read_only_id_and_changes_nothing(client: FlaskClient, app: Flask) -> None:
    black_spy = start_game(client)
    post_points(client, black_spy, [20, 15, 25, 0])
    spy = start_spy(client, players=TWO_SPIES)
    routes = post_routes_with_game_id(app)
    rules = {rule for rule, _ in routes}
    assert {
        "/black-spy/<game_id>/deals",
        "/black-spy/<game_id>/undo",
        "/black-spy/<game_id>/rematch",
        "/spy/<game_id>/turns",
    } <= rules
    # forms that would be accepted with the game's own id
    form = {"mode": "points", "points-0": "20", "points-1": "15", "points-2": "25", "points-3": "0", "number": "1", "look": ""}
    for game_id in (black_spy, spy):
        watch = watch_id_of(app, game_id)
        for rule, arguments in routes:
            url = fill_rule(rule, {name: {"game_id": watch, "number": "1"}.get(name, "1") for name in arguments})
            before = snapshot(app)
            response = client.post(url, data=form)
            assert response.status_code >= 400, (url, response.status_code)
            assert snapshot(app) == before, url
            htmx = client.post(url, data=form, headers={"HX-Request": "true"})
            assert htmx.status_code >= 400, (url, htmx.status_code)
            assert snapshot(app) == before, url
        assert client.post(f"/watch/{watch}", data=form).status_code >= 400


# --- 7. CSV export -----------------------------------------------------------------------------

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


# --- 8. a bad upload writes nothing -------------------------------------------------------------


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


# --- 9. BG Stats ---------------------------------------------------------------------------------


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


# --- 10. the score chart -------------------------------------------------------------------------


def test_the_score_chart_has_a_line_per_player_the_end_line_and_a_mark_per_shoot(client: FlaskClient) -> None:
    game_id = start_game(client, names=("Ana", "Ben", "Cy", "Dee"))
    assert '<svg class="chart"' not in get_html(client, f"/black-spy/{game_id}")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [65, -5, 0, 0], shoot="0")
    post_points(client, game_id, [0, 0, 80, -20], shoot="2")
    page = get_html(client, f"/black-spy/{game_id}")
    chart = re.search(r'<svg class="chart"[^>]*>(.*?)</svg>', page, re.S)
    assert chart, "no chart"
    lines = re.findall(r'<polyline [^>]*points="([^"]*)"', chart.group(1))
    assert len(lines) == 4
    # each line starts at 0 and has a point after each of the 3 deals
    assert all(len(points.split()) == 4 for points in lines)
    # deal 3, Cy shot: totals 20, 75, 85, 60 then 80, 135, 85, 120: four different lines
    assert len(set(lines)) == 4
    end = re.findall(r'<line class="end-line"[^>]*>', chart.group(1))
    assert len(end) == 1
    assert "end 150" in chart.group(1)
    assert len(re.findall(r'<circle class="shoot"', chart.group(1))) == 2
    css = client.get(re.search(r'href="(/static/css/app\.css[^"]*)"', page).group(1)).get_data(as_text=True)
    assert re.search(r"\.end-line\s*\{[^}]*stroke-dasharray", css), "the end line is not dashed"


@pytest.mark.parametrize("again", ["Əli", "əli", "ƏLİ".replace("İ", "I")])
def test_a_name_beyond_ascii_is_the_same_player_in_any_case(client: FlaskClient, app: Flask, again: str) -> None:
    start_game(client, names=("Əli", "Ben", "Cy"))
    start_game(client, names=(again, "Ben", "Cy"))
    with app.app_context():
        names = db.session.scalars(select(Player.name)).all()
    assert sorted(names) == ["Ben", "Cy", "Əli"]


def test_followers_of_a_finished_game_are_shown_the_way_to_its_rematch(client: FlaskClient, app: Flask) -> None:
    from tests.helpers import post_points, start_game

    game_id = start_game(client, names=("Ana", "Ben", "Cy"), end_value="50")
    post_points(client, game_id, [60, 0, 0], shoot="none")
    with app.app_context():
        watch = db.session.scalar(select(Game.watch_id).where(Game.id == game_id))
    assert "follow it" not in client.get(f"/watch/{watch}").get_data(as_text=True)
    again = client.post(f"/black-spy/{game_id}/rematch").location.rsplit("/", 1)[1]
    with app.app_context():
        again_watch = db.session.scalar(select(Game.watch_id).where(Game.id == again))
    html = client.get(f"/watch/{watch}", headers={"HX-Request": "true"}).get_data(as_text=True)
    assert f'href="/watch/{again_watch}"' in html and "The table started a rematch: follow it" in html


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


def test_a_players_page_shows_the_kinds_they_finished_a_game_of_and_no_empty_others(client: FlaskClient, app: Flask) -> None:
    pad = start_pad(client, "Golf", ("Vic", "Wes", "Xia"))
    client.post(f"/scorepad/{pad}/end", data={})
    page = get_html(client, f"/players/{player_id(app, 'Vic')}")
    assert 'id="scorepad-stats"' in page
    # no Black Spy nor Spy game: no block of zeros for them
    assert 'id="black-spy-stats"' not in page and 'id="spy-stats"' not in page
    # a period with none of the player's games: said once
    assert "No finished game yet." in get_html(client, f"/players/{player_id(app, 'Vic')}?from=2001-01-01&to=2001-12-31")
