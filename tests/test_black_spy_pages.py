"""What the Black Spy pages show, and how they reach a phone.

One url is the whole page or, to htmx, the game's fragment, and a deal recorded through htmx
answers with what it changed; a long game shows its latest deals, every deal a tap away; the
deal form sits under whose deal it is and the pass; a leader is marked only once one is ahead;
a reload where a refused post was sent shows its game; the home page lists games in progress
first; pages are compressed and static files cached for a year.
"""

from __future__ import annotations

import re

from flask.testing import FlaskClient

from tests.black_spy_app_helpers import page
from tests.helpers import post_points, start_game


def test_htmx_gets_the_game_fragment_and_a_browser_the_whole_page(client: FlaskClient) -> None:
    game_id = start_game(client)
    fragment = client.get(f"/black-spy/{game_id}", headers={"HX-Request": "true"})
    # the next deal's card in its own place, the game's other regions out of band
    assert fragment.get_data(as_text=True).lstrip().startswith('<div id="game-now" hx-target="this" hx-swap="outerHTML" ')
    assert "HX-Request" in [value.strip() for value in fragment.headers["Vary"].split(",")]
    whole = client.get(f"/black-spy/{game_id}")
    assert whole.get_data(as_text=True).startswith("<!doctype html>")
    restore = client.get(f"/black-spy/{game_id}", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    assert restore.get_data(as_text=True).startswith("<!doctype html>")


def test_a_deal_recorded_through_htmx_answers_with_what_it_changed(client: FlaskClient) -> None:
    game_id = start_game(client)
    response = post_points(client, game_id, [20, 15, 25, 0], htmx=True)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<div id="game-now"')
    assert "Deal 1 recorded." in html and "Record deal 2" in html
    # the standings, the deals, the chart and the undo button come out of band, each whole
    for region in ("standings", "deals", "chart", "game-actions"):
        assert re.search(rf'<section id="{region}"[^>]* hx-swap-oob="true"', html), region
    assert "Undo deal 1" in html
    # and nothing a deal does not change: the follow panel, the scripts
    assert "<script" not in html and "follow" not in html.lower().split("game-actions")[-1]


def deal_rows(html: str) -> list[str]:
    """The deal numbers of the deals table in a page, as shown, newest first."""
    table = html[html.index('<table class="deals">') : html.index("</table>")]
    return re.findall(r'<th scope="row"><(?:a|span)[^>]*>(\d+)<', table)


def test_a_long_game_shows_its_latest_deals_and_every_deal_is_a_tap_away(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="1000")
    for _ in range(11):
        post_points(client, game_id, [20, 15, 25, 0])
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert deal_rows(page) == [str(number) for number in range(11, 3, -1)]
    assert f'href="/black-spy/{game_id}/all">All 11 deals</a>' in page
    assert "3 earlier deals are not shown here." in page
    every = client.get(f"/black-spy/{game_id}/all").get_data(as_text=True)
    assert deal_rows(every) == [str(number) for number in range(11, 0, -1)]
    # each opens its edit page, as on the game page
    assert f'href="/black-spy/{game_id}/deals/1/edit"' in every
    # a short game shows them all, with no link
    short = start_game(client)
    post_points(client, short, [20, 15, 25, 0])
    assert "/all" not in client.get(f"/black-spy/{short}").get_data(as_text=True)


def test_every_deal_of_an_unknown_game_is_not_found(client: FlaskClient) -> None:
    assert client.get("/black-spy/nosuchgame/all").status_code == 404


def test_the_deal_form_sits_in_the_deals_card_right_under_whose_deal_and_the_pass(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    html = page(client, game_id)
    card = re.search(r'<section class="card next-deal deal-card".*?</section>', html, re.S).group(0)
    assert (
        card.index("Deal 2:") < card.index("Pass 3 cards right") < card.index('<form method="post"') < card.index('id="points-0"')
    )
    assert html.index('id="points-0"') < html.index("Standings") < html.index("Standard rules")


def test_a_table_all_level_has_no_leader_marked_and_the_first_one_ahead_is(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [15, 15, 15, 15])
    level = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert 'class="badge"' not in level and 'class="leader"' not in level
    post_points(client, game_id, [20, 15, 25, 0])
    ahead = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert re.search(r'<li class="leader" data-seat="3"', ahead) and ahead.count('class="badge"') == 1


def test_a_reload_at_the_address_a_refused_deal_was_posted_to_shows_its_game(client: FlaskClient) -> None:
    # without JavaScript a refused deal is shown at /black-spy/<id>/deals; a reload asks for it
    game_id = start_game(client)
    reloaded = client.get(f"/black-spy/{game_id}/deals")
    assert reloaded.status_code == 303 and reloaded.location == f"/black-spy/{game_id}"
    # and so does a refused undo's; a post to a page that is not one still says so in words
    assert client.get(f"/black-spy/{game_id}/undo").location == f"/black-spy/{game_id}"
    refused = client.put(f"/black-spy/{game_id}/deals")
    assert refused.status_code == 405 and "That address does not take this kind of request." in refused.get_data(as_text=True)


def test_the_home_page_lists_games_in_progress_first_with_the_next_dealer(client: FlaskClient) -> None:
    finished = start_game(client, names=("Eve", "Fay", "Gus"), end_value="10")
    post_points(client, finished, [60, 0, 0], shoot="none")
    start_game(client, names=("Ana", "Ben", "Cy"), first_dealer=2)
    html = client.get("/").get_data(as_text=True)
    assert html.index("In progress") < html.index("Ana, Ben, Cy") < html.index("Finished") < html.index("Eve, Fay, Gus")
    assert "Deal 1: Cy deals" in html
    assert "Winners: Fay and Gus" in html


def test_pages_are_compressed_and_static_files_cached_for_a_year_under_a_versioned_url(client: FlaskClient) -> None:
    home = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert home.headers["Content-Encoding"] == "gzip"
    css = re.search(r'href="(/static/css/app\.css\?v=[0-9a-f]{12})"', client.get("/").get_data(as_text=True)).group(1)
    response = client.get(css)
    assert response.status_code == 200
    assert response.cache_control.max_age == 365 * 24 * 3600


def test_the_deals_table_says_what_the_line_under_each_deal_number_is(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [15, 15, 15, 15])
    html = page(client, game_id)
    # "Ana · left" under a deal's number is its dealer and its pass, and the table says so
    assert re.search(r'<span class="meta">Ana · left</span></th>', html)
    assert "Under each deal's number: who dealt it, and which way the cards were passed." in html
    assert "Under each deal's number" in client.get(f"/black-spy/{game_id}/all").get_data(as_text=True)
