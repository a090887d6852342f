"""The score pad through its pages: start, rounds, the end, undo, edit, rematch, follow, files."""

from __future__ import annotations

import csv
import io
import json
import re
from urllib.parse import unquote

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.store.base import db
from companion.store.games import Game
from tests.helpers import exported, game_state, news_and_its_undo, post_round, snapshot, start_pad


def test_a_pad_starts_with_a_game_name_and_its_players(client: FlaskClient) -> None:
    game_id = start_pad(client)
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert "Wingspan" in html and "Record round 1" in html and "the highest total wins" in html
    assert "Wingspan" in client.get("/").get_data(as_text=True)


def test_a_pad_that_cannot_start_is_refused_by_its_field_and_nothing_is_saved(client: FlaskClient, app: Flask) -> None:
    before = snapshot(app)
    for form, words in [
        ({"pad-name": "", "pad-player-0": "Ana"}, "Name the game you are playing."),
        ({"pad-name": "Golf", "pad-player-0": "Ana", "pad-player-1": "ana"}, "Two players are called ana."),
        ({"pad-name": "Golf", "pad-player-0": "Ana", "target": "-3"}, "A target is a whole number from 1 to"),
        ({"pad-name": "Golf", "pad-player-0": "Ana", "target": "9" * 40}, "A target is a whole number from 1 to"),
        ({"pad-name": "Golf"}, "1 to 12 players; 0 are named"),
    ]:
        response = client.post("/scorepad/new", data=form)
        assert response.status_code == 422, form
        assert words in response.get_data(as_text=True), form
    assert snapshot(app) == before


def test_a_new_pad_names_every_box_at_fault_at_once(client: FlaskClient, app: Flask) -> None:
    before = snapshot(app)
    form = {"pad-name": "", "pad-player-0": "Ana", "pad-player-1": "ana", "target": "ten"}
    response = client.post("/scorepad/new", data=form)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    for words in ("Name the game you are playing.", "Two players are called ana.", "A target is a whole number from 1 to"):
        assert words in page, words
    # what was typed stays, to mend
    assert 'value="ten"' in page and 'value="ana"' in page
    assert snapshot(app) == before


def test_a_new_pad_with_no_players_says_so_beside_its_other_faults(client: FlaskClient, app: Flask) -> None:
    before = snapshot(app)
    response = client.post("/scorepad/new", data={"pad-name": "", "target": "ten"})
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    for words in ("Name the game you are playing.", "A score pad is for 1 to 12 players; 0 are named.", "A target is a whole"):
        assert words in page, words
    first = re.search(r'<input id="pad-player-0"[^>]*>', page)
    assert first and 'aria-describedby="players-error"' in first.group(0)
    assert snapshot(app) == before


def test_rounds_add_up_negatives_count_and_the_highest_total_leads(client: FlaskClient) -> None:
    game_id = start_pad(client)
    assert post_round(client, game_id, (10, -5, "−3")).status_code == 303
    assert post_round(client, game_id, (2, 30, 4)).status_code == 303
    game = exported(client, f"/scorepad/{game_id}/export.json")["games"][0]
    assert game["rounds"] == [{"Ana": 10, "Ben": -5, "Cy": -3}, {"Ana": 2, "Ben": 30, "Cy": 4}]
    assert game["derived"] == {"totals": {"Ana": 12, "Ben": 25, "Cy": 1}, "finished": False, "winners": []}


def test_a_round_with_a_blank_or_a_fraction_is_refused_whole(client: FlaskClient, app: Flask) -> None:
    game_id = start_pad(client)
    before = snapshot(app)
    blank = post_round(client, game_id, (10, "", 3))
    assert blank.status_code == 422 and "Give Ben&#39;s points, 0 if none." in blank.get_data(as_text=True)
    fraction = post_round(client, game_id, (10, "2.5", "9" * 30))
    refused = fraction.get_data(as_text=True)
    # the fraction's sentence names its player, as the table reads it away from the box
    assert fraction.status_code == 422 and "Ben: &#39;2.5&#39; is not a whole number." in refused
    assert refused.count("Cy: points are a whole number from -1,000,000 to 1,000,000.") == 1
    # a number past the bound names its player too, and a doubled sign is no number at all
    huge = post_round(client, game_id, ("1000001", "--5", 3)).get_data(as_text=True)
    assert "Ana: points are a whole number from -1,000,000 to 1,000,000." in huge
    assert "Ben: &#39;--5&#39; is not a whole number." in huge
    assert snapshot(app) == before


def test_with_a_target_the_round_that_reaches_it_ends_the_game_and_the_lowest_wins(client: FlaskClient, app: Flask) -> None:
    game_id = start_pad(client, "Hearts", lowest_wins="yes", target="100")
    post_round(client, game_id, (60, 10, 30))
    post_round(client, game_id, (45, 20, 5))
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert "Game over" in html and "Ana reached the target of 100." in html and "Ben wins with 30 points." in html
    before = snapshot(app)
    late = post_round(client, game_id, (1, 1, 1))
    assert late.status_code == 409 and "Ana reached the target of 100" in late.get_data(as_text=True)
    assert snapshot(app) == before
    game = exported(client, f"/scorepad/{game_id}/export.json")["games"][0]
    assert game["derived"]["finished"] is True and game["derived"]["winners"] == ["Ben"] and game["ended"] is False


def test_without_a_target_the_table_ends_it_and_undo_reopens_it(client: FlaskClient) -> None:
    game_id = start_pad(client)
    post_round(client, game_id, (10, 30, 30))
    page = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    number = re.search(r'action="/scorepad/\w+/end".*?name="number" value="(\d+)"', page, re.S).group(1)
    assert client.post(f"/scorepad/{game_id}/end", data={"number": number}).status_code == 303
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert "Ben and Cy share the win with 30 points each." in html and "The table ended the game." in html
    assert exported(client, f"/scorepad/{game_id}/export.json")["games"][0]["ended"] is True
    undone = client.post(f"/scorepad/{game_id}/undo", data={"number": "2"}, headers={"HX-Request": "true"})
    assert "The end undone: the game is open again." in undone.get_data(as_text=True)
    reopened = exported(client, f"/scorepad/{game_id}/export.json")["games"][0]
    assert reopened["ended"] is False and reopened["derived"]["winners"] == [] and len(reopened["rounds"]) == 1


def test_an_undo_puts_the_undone_rounds_points_back_in_the_form_to_mend_and_record_again(client: FlaskClient) -> None:
    game_id = start_pad(client)
    post_round(client, game_id, (10, 30, 30))
    post_round(client, game_id, (7, -2, 12))
    answer = client.post(f"/scorepad/{game_id}/undo", data={"number": "2"}, headers={"HX-Request": "true"})
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "Round 2 undone: its points are back in the form, to mend and record again." in html
    typed = [re.search(rf'name="points-{seat}"[^>]*value="([^"]*)"', html, re.S).group(1) for seat in range(3)]
    assert typed == ["7", "-2", "12"] and "Record round 2" in html
    # an undo meant to drop the round, not mend it, drops its points in one tap
    assert re.search(rf'<a href="/scorepad/{game_id}">Discard these numbers</a>', html)
    assert len(exported(client, f"/scorepad/{game_id}/export.json")["games"][0]["rounds"]) == 1
    # the pad's page, for any phone, has an empty form; without JavaScript an undo says only that
    fresh = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert re.search(r'name="points-0"[^>]*value=""', fresh, re.S)
    post_round(client, game_id, (7, 2, 12))
    assert client.post(f"/scorepad/{game_id}/undo", data={"number": "2"}).status_code == 303
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert "Round 2 undone." in html and "are back in the form" not in html


def test_an_edit_follows_through_and_may_not_reach_the_target_before_the_last_round(client: FlaskClient, app: Flask) -> None:
    game_id = start_pad(client, "Hearts", lowest_wins="yes", target="100")
    for _ in range(3):
        post_round(client, game_id, (30, 10, 20))
    form = client.get(f"/scorepad/{game_id}/rounds/1/edit").get_data(as_text=True)
    assert 'value="30"' in form
    # the page says which pad's round it changes, as the pad's own page names it
    assert re.search(r"<h1[^>]*>\s*Hearts\b", form) and "<title>Change round 1 · Hearts" in form
    assert (
        client.post(f"/scorepad/{game_id}/rounds/1/edit", data={"points-0": "40", "points-1": "10", "points-2": "20"}).status_code
        == 303
    )
    assert exported(client, f"/scorepad/{game_id}/export.json")["games"][0]["derived"]["totals"] == {
        "Ana": 100,
        "Ben": 30,
        "Cy": 60,
    }
    before = snapshot(app)
    refused = client.post(f"/scorepad/{game_id}/rounds/1/edit", data={"points-0": "95", "points-1": "10", "points-2": "20"})
    assert refused.status_code == 422 and "would be reached before the last round" in refused.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_phone_left_behind_by_three_rounds_is_told_of_them_all(client: FlaskClient) -> None:
    game_id = start_pad(client)
    for number, points in (("1", (1, 2, 3)), ("2", (4, 5, 6)), ("3", (7, 8, 9))):
        assert post_round(client, game_id, points, number=number).status_code == 303
    stale = post_round(client, game_id, (10, 11, 12), htmx=True, number="1")
    html = stale.get_data(as_text=True)
    assert stale.status_code == 409 and 'value="10"' in html
    assert "Rounds 1, 2, and 3 were just recorded from another phone, so yours was not." in html
    assert "record them as round 4" in html
    # the same points as round 3, sent from round 1's page: counted once, not kept for round 4
    same = post_round(client, game_id, (7, 8, 9), htmx=True, number="1").get_data(as_text=True)
    assert "Round 3 was just recorded from another phone with the same points as yours: it counts once." in same
    assert "record them as round 4" not in same


def test_a_repeated_submission_is_counted_once_and_a_stale_page_keeps_its_numbers(client: FlaskClient) -> None:
    game_id = start_pad(client)
    assert post_round(client, game_id, (1, 2, 3), submission="s-1", number="1").status_code == 303
    assert post_round(client, game_id, (1, 2, 3), submission="s-1", number="1").status_code == 303
    assert len(exported(client, f"/scorepad/{game_id}/export.json")["games"][0]["rounds"]) == 1
    stale = post_round(client, game_id, (7, 8, 9), htmx=True, submission="s-2", number="1")
    html = stale.get_data(as_text=True)
    # it says which round came first from the other phone, and what this one's would be
    assert stale.status_code == 409 and 'value="7"' in html
    assert "Round 1 was just recorded from another phone, so yours was not." in html and "record them as round 2" in html
    assert len(exported(client, f"/scorepad/{game_id}/export.json")["games"][0]["rounds"]) == 1
    # the same round sent again from a second phone: counted once, and not kept for round 2
    same = post_round(client, game_id, (1, 2, 3), htmx=True, submission="s-4", number="1").get_data(as_text=True)
    assert "Round 1 was just recorded from another phone with the same points as yours: it counts once." in same
    assert "record them as round 2" not in same and 'value="1"' not in same.split('id="points-0"', 1)[1][:80]
    assert len(exported(client, f"/scorepad/{game_id}/export.json")["games"][0]["rounds"]) == 1
    # a page out of date for another reason (an undo elsewhere) says only that the game changed
    assert client.post(f"/scorepad/{game_id}/undo", data={"number": "1"}).status_code == 303
    behind = post_round(client, game_id, (7, 8, 9), htmx=True, submission="s-3", number="2").get_data(as_text=True)
    assert "Another phone changed this game just now, so nothing was recorded." in behind


def test_a_round_refused_because_another_phone_ended_the_game_says_so(client: FlaskClient) -> None:
    game_id = start_pad(client, "Hearts", target="10")
    assert post_round(client, game_id, (10, 2, 3), submission="s-1", number="1").status_code == 303
    late = post_round(client, game_id, (1, 2, 3), htmx=True, submission="s-2", number="1")
    assert late.status_code == 409
    assert "Round 1 was just recorded from another phone, and the game is over; yours was not recorded." in late.get_data(
        as_text=True
    )


def test_a_rematch_opens_a_new_pad_once(client: FlaskClient, app: Flask) -> None:
    game_id = start_pad(client, target="10")
    assert client.post(f"/scorepad/{game_id}/rematch").status_code == 409  # not over yet
    post_round(client, game_id, (10, 0, 0))
    first = client.post(f"/scorepad/{game_id}/rematch")
    second = client.post(f"/scorepad/{game_id}/rematch")
    assert first.status_code == second.status_code == 303 and first.location == second.location
    again = exported(client, f"/scorepad/{first.location.rsplit('/', 1)[1]}/export.json")["games"][0]
    assert (again["name"], again["players"], again["target"], again["rounds"]) == ("Wingspan", ["Ana", "Ben", "Cy"], 10, [])


def test_a_pad_reopened_by_an_undo_after_its_rematch_began_still_leads_to_the_rematch(client: FlaskClient) -> None:
    game_id = start_pad(client, target="10")
    post_round(client, game_id, (10, 0, 0))
    rematch = client.post(f"/scorepad/{game_id}/rematch").location.rsplit("/", 1)[1]
    assert client.post(f"/scorepad/{game_id}/undo", data={"number": "1"}).status_code == 303
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert "Record round 1" in html
    assert f'href="/scorepad/{rematch}">Go to the rematch</a>' in html
    assert "This game's rematch has started." in html


def test_the_follow_link_shows_the_pad_and_nothing_to_change_it(client: FlaskClient, app: Flask) -> None:
    game_id = start_pad(client)
    post_round(client, game_id, (3, 4, 5))
    with app.app_context():
        watch = db.session.scalar(select(Game.watch_id).where(Game.id == game_id))
    html = client.get(f"/watch/{watch}").get_data(as_text=True)
    assert "<title>Following a score pad" in html and '<h2 class="pad-name">Wingspan</h2>' in html
    assert "Record round" not in html and "/rounds/1/edit" not in html and "/undo" not in html
    assert re.search(r'class="total">\s*5\s*<', html)


def test_a_finished_pad_links_to_bg_stats_under_its_own_name(client: FlaskClient) -> None:
    game_id = start_pad(client, target="10")
    post_round(client, game_id, (10, 0, 0))
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    link = unquote(
        re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', html).group(1).replace("&amp;", "&")
    )
    play = json.loads(link.split("data=", 1)[1])
    assert play["game"] == {"sourceGameId": "scorepad", "name": "Wingspan", "highestWins": True}
    assert [(p["name"], p["score"], p["winner"]) for p in play["players"]] == [
        ("Ana", 10, True),
        ("Ben", 0, False),
        ("Cy", 0, False),
    ]


def test_a_pad_exports_to_csv_with_names_a_spreadsheet_reads_as_text(client: FlaskClient) -> None:
    game_id = start_pad(client, "=Golf", players=("Ana", "+Ben"))
    post_round(client, game_id, (3, -4))
    rows = list(csv.DictReader(io.StringIO(client.get(f"/scorepad/{game_id}/export.csv").get_data(as_text=True))))
    assert [(row["game"], row["player"], row["points"], row["running_total"]) for row in rows] == [
        ("'=Golf", "Ana", "3", "3"),
        ("'=Golf", "'+Ben", "-4", "-4"),
    ]


def test_the_companion_1_contract_round_trips_and_refuses_what_the_rules_refuse(
    client: FlaskClient, app: Flask, databases
) -> None:
    from tests.helpers import make_app

    game_id = start_pad(client, "Hearts", lowest_wins="yes", target="50")
    post_round(client, game_id, (20, 30, 10))
    post_round(client, game_id, (40, 5, 0))
    game = exported(client, f"/scorepad/{game_id}/export.json")["games"][0]
    assert set(game) == {"id", "kind", "name", "players", "lowest_wins", "target", "ended", "rounds", "created_at", "derived"}
    assert game["derived"] == {"totals": {"Ana": 60, "Ben": 35, "Cy": 10}, "finished": True, "winners": ["Cy"]}
    other = make_app(databases.fresh()).test_client()
    file = {"format": "companion/1", "games": [game]}
    response = other.post(
        "/import", data={"file": (io.BytesIO(json.dumps(file).encode()), "g.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 303
    assert json.loads(other.get("/export.json").get_data(as_text=True))["games"] == [game]

    def refused(change: dict, words: str) -> None:
        bad = {**game, "id": None, **change}
        answer = other.post(
            "/import",
            data={"file": (io.BytesIO(json.dumps({"format": "companion/1", "games": [bad]}).encode()), "g.json")},
            content_type="multipart/form-data",
        )
        assert answer.status_code == 422 and words in answer.get_data(as_text=True), (
            change,
            answer.get_data(as_text=True)[-3000:],
        )

    refused({"rounds": game["rounds"] + [{"Ana": 1, "Ben": 1, "Cy": 1}]}, "reached the target of 50")
    refused({"rounds": [{"Ana": 1, "Ben": 1}]}, "must give points to exactly the players")
    refused({"rounds": [{"Ana": 1, "Ben": 1, "Cy": 1, "Dee": 1}]}, "must give points to exactly the players")
    refused({"rounds": [{"Ana": 1.5, "Ben": 1, "Cy": 1}]}, "must be a whole number")
    refused({"players": ["Ana", "ana", "Cy"]}, "Two players are called ana")
    refused({"players": [f"P{n}" for n in range(13)], "rounds": []}, "1 to 12 players; 13 are named")


def test_a_players_page_counts_their_finished_pads_by_game_name(client: FlaskClient, app: Flask) -> None:
    from companion.store.players import Player

    for name, points in (("Wingspan", (10, 0)), ("Wingspan", (0, 10)), ("Golf", (10, 0))):
        game_id = start_pad(client, name, players=("Ana", "Ben"), target="10")
        post_round(client, game_id, points)
    start_pad(client, "Cribbage", players=("Ana", "Ben"))  # not finished: not counted
    with app.app_context():
        ana = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
    html = client.get(f"/players/{ana}").get_data(as_text=True)
    section = html.split('id="scorepad-stats"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r'<th scope="row">([^<]+)</th><td>(\d+)</td><td>(\d+)</td>', section)
    assert rows == [("Wingspan", "2", "1"), ("Golf", "1", "1")]


def standings(client: FlaskClient, game_id: str) -> list[tuple[str, str, str]]:
    """The totals as listed, top to bottom: (rank, name, total)."""
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    listed = html.split('<ol class="standings">', 1)[1].split("</ol>", 1)[0]
    return re.findall(
        r'<span class="rank"[^>]*>(\d+)</span>\s*<span class="name">([^<]+?)\s*(?:<span|</span>).*?<span class="total">([^<]+)</span>',
        listed,
        re.S,
    )


def test_the_totals_are_listed_best_first_and_a_tie_shares_its_rank(client: FlaskClient) -> None:
    highest = start_pad(client)
    post_round(client, highest, (10, 30, 30))
    assert standings(client, highest) == [("1", "Ben", "30"), ("1", "Cy", "30"), ("3", "Ana", "10")]
    lowest = start_pad(client, name="Hearts", lowest_wins="yes")
    post_round(client, lowest, (10, 30, 20))
    assert [name for _, name, _ in standings(client, lowest)] == ["Ana", "Cy", "Ben"]


def test_a_round_sent_as_round_0_is_refused_as_out_of_date_and_nothing_is_written(client: FlaskClient, app: Flask) -> None:
    # no page shows a round 0: a crafted form, or a page broken on the way
    for rounds in ((), ((1, 2, 3),)):
        game_id = start_pad(client)
        for points in rounds:
            assert post_round(client, game_id, points).status_code == 303
        before = snapshot(app)
        response = post_round(client, game_id, (4, 5, 6), number="0")
        assert response.status_code == 409
        html = response.get_data(as_text=True)
        assert "Another phone changed this game" in html and "Round 0" not in html
        assert snapshot(app) == before


def test_the_rounds_table_says_what_its_cells_hold_and_that_a_round_number_changes_it(client: FlaskClient, app: Flask) -> None:
    game_id = start_pad(client)
    assert post_round(client, game_id, (1, 2, 3)).status_code == 303
    html = client.get(f"/scorepad/{game_id}").get_data(as_text=True)
    assert "Each cell: the round's points, and below it the running total. Tap a round number to change it." in html
    # a follower's copy changes nothing: it is not told to tap
    from tests.helpers import watch_url

    followed = client.get(watch_url(app, game_id)).get_data(as_text=True)
    assert "Each cell: the round's points" in followed and "Tap a round number" not in followed


def test_changing_a_past_round_shows_the_totals_it_adds_to_not_the_final_ones(client: FlaskClient) -> None:
    pad = start_pad(client, "Golf", ("Vic", "Wes", "Xia"))
    for points in ((3, 4, 5), (50, 1, 1), (2, 2, 2)):
        post_round(client, pad, points)

    def so_far(number: int) -> list[str]:
        page = client.get(f"/scorepad/{pad}/rounds/{number}/edit").get_data(as_text=True)
        return re.findall(r'so-far">(-?\d+) so far', page)

    assert so_far(1) == []
    assert so_far(2) == ["3", "4", "5"]
    assert so_far(3) == ["53", "5", "6"]
    assert re.findall(r'so-far">(-?\d+) so far', client.get(f"/scorepad/{pad}").get_data(as_text=True)) == ["55", "7", "8"]


def test_two_pads_in_the_list_of_games_are_told_apart_by_their_names(client: FlaskClient) -> None:
    start_pad(client, "Golf", ("Vic", "Wes"))
    start_pad(client, "Hearts", ("Vic", "Wes"))
    home = client.get("/").get_data(as_text=True)
    titles = re.findall(r"<strong>([^<]+)</strong> · Vic, Wes", home)
    assert sorted(titles) == ["Golf", "Hearts"]
    # a name is the table's text, shown as typed, never as markup
    start_pad(client, "<b>Rummy", ("Vic", "Wes"))
    home = client.get("/").get_data(as_text=True)
    assert "<strong>&lt;b&gt;Rummy</strong>" in home and "<b>Rummy" not in home


def test_the_list_of_players_counts_each_pad_game_under_its_own_name(client: FlaskClient) -> None:
    def finished_pad(name: str, points: tuple[int, int]) -> None:
        pad = start_pad(client, name, ("Vic", "Wes"), target="5")
        post_round(client, pad, points)

    finished_pad("Golf", (6, 1))
    finished_pad("Golf", (1, 6))
    finished_pad("Hearts", (9, 0))
    players = client.get("/players").get_data(as_text=True)
    headings = re.findall(r'<th scope="col">([^<]+)</th>', players)
    assert headings[-4:] == ["Golf: games", "Golf: wins", "Hearts: games", "Hearts: wins"]
    vic = re.search(r">Vic</a></th>\s*((?:<td>[^<]*</td>)+)", players).group(1)
    assert re.findall(r"<td>([^<]*)</td>", vic)[-4:] == ["2", "1", "1", "1"]


def test_the_news_of_a_round_just_recorded_carries_its_undo(client: FlaskClient, app: Flask) -> None:
    pad = start_pad(client)
    post_round(client, pad, (1, 2, 3))
    answer = post_round(client, pad, (4, 5, 6), htmx=True).get_data(as_text=True)
    news, undo, number = news_and_its_undo(answer)
    assert "Round 2 recorded." in news and "Undo it" in news
    assert number == "2"
    assert client.post(undo, data={"number": "2"}).status_code == 303
    assert len(game_state(app, pad).rounds) == 1
    # a refusal's news carries none
    assert "undo-here" not in post_round(client, pad, ("many", 1, 1), htmx=True).get_data(as_text=True)
    # the end's carries its own, as a round's: an end tapped by mistake is one tap from open again
    ended = client.post(f"/scorepad/{pad}/end", data={"number": "2"}, headers={"HX-Request": "true"}).get_data(as_text=True)
    news, undo, number = news_and_its_undo(ended)
    assert "The game is over." in news and 'hx-confirm="Undo the end? The game opens again."' in news and number == "2"
    assert client.post(undo, data={"number": number}, headers={"HX-Request": "true"}).status_code == 200
    assert not game_state(app, pad).ended


def test_the_changes_name_an_undone_end_as_the_end_and_not_as_a_round(client: FlaskClient) -> None:
    pad = start_pad(client)
    post_round(client, pad, (1, 2, 3))
    assert client.post(f"/scorepad/{pad}/end", data={"number": "2"}).status_code == 303
    assert client.post(f"/scorepad/{pad}/undo", data={"number": "2"}).status_code == 303
    assert post_round(client, pad, (4, 5, 6)).status_code == 303
    assert client.post(f"/scorepad/{pad}/undo", data={"number": "2"}).status_code == 303
    changes = re.search(r'<section id="changes".*?</section>', client.get(f"/scorepad/{pad}").get_data(as_text=True), re.S)
    said = re.findall(r"<li>([^:<]+) at ", changes.group(0))
    # newest first: round 2 was a round, the end before it was no round 2
    assert said == ["Round 2 undone", "The end undone"], said


def test_a_round_edit_is_saved_when_only_another_round_was_recorded_meanwhile(client: FlaskClient) -> None:
    game_id = start_pad(client)
    assert post_round(client, game_id, (10, -5, 3)).status_code == 303
    page = client.get(f"/scorepad/{game_id}/rounds/1/edit").get_data(as_text=True)
    sent = {name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1) for name in ("version", "shown")}
    assert post_round(client, game_id, (2, 30, 4)).status_code == 303
    edited = client.post(f"/scorepad/{game_id}/rounds/1/edit", data={"points-0": "1", "points-1": "2", "points-2": "3", **sent})
    assert edited.status_code == 303
    game = exported(client, f"/scorepad/{game_id}/export.json")["games"][0]
    assert game["rounds"] == [{"Ana": 1, "Ben": 2, "Cy": 3}, {"Ana": 2, "Ben": 30, "Cy": 4}]
