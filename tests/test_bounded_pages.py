"""A game page shows the latest deals, turns or rounds, the rest a tap away, so that a page
and what a write swaps stay the same size however long the game (companion/web/fragments.py).
What a write answers is what it changed: the entry's region in its place, the others out of band."""

from __future__ import annotations

import re
from html import unescape

from flask import Flask
from flask.testing import FlaskClient

from companion.web.fragments import LATEST_ROWS
from tests.helpers import post_cards, post_points, post_round, start_game, start_pad, start_spy, watch_url

HTMX = {"HX-Request": "true"}


def row_numbers(html: str) -> list[int]:
    """The numbers of the rows a page's table shows, as shown, newest first."""
    table = html[html.index('<table class="deals">') : html.index("</table>")]
    return [int(number) for number in re.findall(r'<th scope="row"><(?:a|span)[^>]*>(\d+)<', table)]


def turn_numbers(html: str) -> list[int]:
    found = re.search(r'<(?:details id="turns"|section class="card turn-log")[^>]*>(.*?)</(?:details|section)>', html, re.S)
    assert found is not None
    return [int(number) for number in re.findall(r'<li value="(\d+)">', found.group(1))]


def elements(html: str) -> int:
    return len(re.findall(r"<[a-zA-Z]", html))


def test_a_long_score_pad_shows_its_latest_rounds_and_every_round_is_a_tap_away(app: Flask, client: FlaskClient) -> None:
    pad = start_pad(client)
    for _ in range(LATEST_ROWS + 4):
        post_round(client, pad, (1, 2, 3))
    page = client.get(f"/scorepad/{pad}").get_data(as_text=True)
    assert row_numbers(page) == list(range(LATEST_ROWS + 4, 4, -1))
    assert f'href="/scorepad/{pad}/all">All {LATEST_ROWS + 4} rounds</a>' in page
    every = client.get(f"/scorepad/{pad}/all").get_data(as_text=True)
    assert row_numbers(every) == list(range(LATEST_ROWS + 4, 0, -1))
    assert f'href="/scorepad/{pad}/rounds/1/edit"' in every
    # a follower reads the same latest rounds, and every round through the follow link
    follow = watch_url(app, pad)
    followed = client.get(follow).get_data(as_text=True)
    assert row_numbers(followed) == row_numbers(page) and f'href="{follow}/all"' in followed
    assert row_numbers(client.get(f"{follow}/all").get_data(as_text=True)) == row_numbers(every)
    assert "/edit" not in client.get(f"{follow}/all").get_data(as_text=True)


def test_a_long_spy_game_lists_its_latest_turns_and_every_turn_is_a_tap_away(app: Flask, client: FlaskClient) -> None:
    game_id = start_spy(client)
    for number in range(1, LATEST_ROWS + 6):
        response = client.post(f"/spy/{game_id}/turns", data={"number": str(number)})
        assert response.status_code == 303
    page = client.get(f"/spy/{game_id}").get_data(as_text=True)
    assert turn_numbers(page) == list(range(LATEST_ROWS + 5, 5, -1))
    assert f"{LATEST_ROWS + 5} turns so far" in page and f'href="/spy/{game_id}/all"' in page
    every = client.get(f"/spy/{game_id}/all").get_data(as_text=True)
    assert turn_numbers(every) == list(range(LATEST_ROWS + 5, 0, -1))
    assert "Ana did not spy." in every
    follow = watch_url(app, game_id)
    assert turn_numbers(client.get(f"{follow}/all").get_data(as_text=True)) == turn_numbers(every)


def test_a_black_spy_page_at_deal_41_is_no_bigger_than_at_deal_9(app: Flask, client: FlaskClient) -> None:
    names = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")
    short, long = start_game(client, names=names, end_value="5000"), start_game(client, names=names, end_value="5000")
    for number in range(40):
        if number < 8:
            post_points(client, short, [10] * 6)
        post_points(client, long, [10] * 6)
    sizes = [elements(client.get(f"/black-spy/{game}").get_data(as_text=True)) for game in (short, long)]
    # the same rows; the chart's axis may gain a tick or two
    assert sizes[1] - sizes[0] <= 10, sizes
    answers = [elements(post_points(client, game, [10] * 6, htmx=True).get_data(as_text=True)) for game in (short, long)]
    assert answers[1] - answers[0] <= 10, answers
    follows = [elements(client.get(watch_url(app, game), headers=HTMX).get_data(as_text=True)) for game in (short, long)]
    assert follows[1] - follows[0] <= 10, follows


def shown_pad_version(client: FlaskClient, pad: str) -> str:
    page = client.get(f"/scorepad/{pad}").get_data(as_text=True)
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def test_a_new_round_from_a_current_pad_adds_its_row_and_drops_the_oldest_shown(client: FlaskClient) -> None:
    pad = start_pad(client)
    for _ in range(LATEST_ROWS):
        post_round(client, pad, (1, 2, 3))
    version = shown_pad_version(client, pad)
    html = post_round(client, pad, (1, 2, 3), htmx=True, version=version).get_data(as_text=True)
    # the new round's row on top of the table, the row past the latest ones gone, nothing else of it
    assert re.search(r'<tbody hx-swap-oob="afterbegin:#round-rows">\s*<tr id="round-9">', html)
    assert '<tr id="round-1" hx-swap-oob="delete">' in html
    assert 'id="round-8"' not in html and '<section id="rounds"' not in html
    assert re.search(r'<div id="earlier-rounds" hx-swap-oob="true">', html) and "All 9 rounds" in html
    # a round is no edit nor undo: the changes shown stand
    assert 'id="changes"' not in html
    assert re.search(r'<section id="totals"[^>]* hx-swap-oob="true"', html) and "Record round 10" in html


def test_a_new_round_from_a_pad_that_missed_an_undo_gets_every_row_again(client: FlaskClient) -> None:
    pad = start_pad(client)
    for _ in range(3):
        post_round(client, pad, (1, 2, 3))
    version = shown_pad_version(client, pad)
    # another phone undoes round 3, and this one, which did not see it, records round 3 anew
    assert client.post(f"/scorepad/{pad}/undo", data={"number": "3"}).status_code == 303
    html = post_round(client, pad, (4, 5, 6), htmx=True, version=version).get_data(as_text=True)
    assert "Round 3 recorded." in html
    assert re.search(r'<section id="rounds"[^>]* hx-swap-oob="true"', html) and "afterbegin" not in html
    assert row_numbers(html) == [3, 2, 1]


def test_a_write_to_a_score_pad_answers_with_its_form_and_the_regions_it_changed(client: FlaskClient) -> None:
    pad = start_pad(client)
    html = post_round(client, pad, (1, 2, 3), htmx=True).get_data(as_text=True)
    assert html.lstrip().startswith('<div id="pad-now" hx-target="this" hx-swap="outerHTML"')
    assert "Record round 2" in html
    for region in ("totals", "rounds", "pad-actions"):
        assert re.search(rf'<section id="{region}"[^>]* hx-swap-oob="true"', html), region
    assert "Undo round 1" in html and "<script" not in html


def test_every_entry_of_a_game_unknown_to_a_link_is_not_found(client: FlaskClient) -> None:
    for address in ("/scorepad/nosuchgame/all", "/spy/nosuchgame/all", "/watch/nosuchwatch/all"):
        assert client.get(address).status_code == 404, address


def shown_version(client: FlaskClient, game_id: str) -> str:
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    return re.search(r'name="version" value="(\d+)"', page).group(1)


def test_a_new_deal_from_a_current_page_adds_its_row_and_drops_the_oldest_shown(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="1000")
    for _ in range(LATEST_ROWS):
        post_points(client, game_id, [20, 15, 25, 0])
    version = shown_version(client, game_id)
    html = post_points(client, game_id, [20, 15, 25, 0], htmx=True, version=version).get_data(as_text=True)
    # the new deal's row on top of the table, the row past the latest ones gone, nothing else of it
    assert re.search(r'<tbody hx-swap-oob="afterbegin:#deal-rows">\s*<tr id="deal-9">', html)
    assert '<tr id="deal-1" hx-swap-oob="delete">' in html
    assert 'id="deal-8"' not in html and '<section id="deals"' not in html
    assert re.search(r'<div id="earlier-deals" hx-swap-oob="true">', html) and "All 9 deals" in html
    # the chart, to be drawn once the rest is shown (static/js/swaps.js): with the new deal's point
    # as text (its markup escaped), which the phone parses once it draws it
    chart = re.search(r'<template id="chart-next" hx-swap-oob="true" data-draws="chart-drawing">(.*?)</template>', html, re.S)
    assert chart and "<polyline" not in chart.group(1) and "&lt;polyline" in chart.group(1)
    assert "Ana 180" in unescape(chart.group(1))
    # the game's rules for the form's script stay where the page carries them once
    assert 'data-rules-from="deal-rules"' in html and "data-checks" not in html and "offline-question" not in html
    # of the game's actions, the Undo alone changes: it undoes the new deal
    assert re.search(r'<form id="undo-last"[^>]* hx-swap-oob="true"', html) and "Undo deal 9" in html
    assert 'id="game-actions"' not in html and "Export (JSON)" not in html


def test_a_new_deal_that_ends_the_game_brings_the_game_s_actions_whole(client: FlaskClient) -> None:
    """A game over has other actions (the rematch, BG Stats): the answer brings them all."""
    game_id = start_game(client, end_value="50")
    post_points(client, game_id, [20, 15, 25, 0])
    version = shown_version(client, game_id)
    html = post_points(client, game_id, [0, 0, 30, 30], htmx=True, version=version).get_data(as_text=True)
    assert "The game is over." in html
    assert re.search(r'<section id="game-actions"[^>]* hx-swap-oob="true"', html)
    assert "Rematch" in html and "Undo deal 2" in html


def test_a_game_page_carries_its_deal_rules_once_outside_what_a_write_swaps(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="1000")
    post_points(client, game_id, [20, 15, 25, 0])
    page = client.get(f"/black-spy/{game_id}").get_data(as_text=True)
    assert page.count('id="deal-rules"') == 1 and page.count("data-checks=") == 1
    now = page[page.index('<div id="game-now"') : page.index('<div id="upcoming"')]
    assert "deal-rules" not in now.replace('data-rules-from="deal-rules"', "")
    assert '<template class="offline-question">' in page


def test_a_deal_that_changes_how_the_table_enters_deals_still_adds_only_its_row(client: FlaskClient) -> None:
    """The table's way of entering (kept with the game) changes with this deal: the game's
    version still moves by one, so the page that showed the one before gets the row alone."""
    game_id = start_game(client, end_value="1000")
    post_points(client, game_id, [20, 15, 25, 0])
    version = shown_version(client, game_id)
    html = post_cards(
        client,
        game_id,
        {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)},
        {8: 0, 9: 1, 10: 3, 11: 0},
        rest=3,
        version=version,
        htmx=True,
    ).get_data(as_text=True)
    assert "Deal 2 recorded." in html
    assert re.search(r'<tbody hx-swap-oob="afterbegin:#deal-rows">\s*<tr id="deal-2">', html)
    assert '<section id="deals"' not in html
    assert f'data-version="{int(version) + 1}"' in html


def test_a_new_deal_from_a_page_that_missed_an_edit_gets_every_row_again(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="1000")
    for _ in range(3):
        post_points(client, game_id, [20, 15, 25, 0])
    version = shown_version(client, game_id)
    # another phone changes deal 1: every running total after it changes
    edited = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "points-0": "0", "points-1": "15", "points-2": "25", "points-3": "20", "version": version},
    )
    assert edited.status_code == 303
    html = post_points(client, game_id, [20, 15, 25, 0], htmx=True, version=version).get_data(as_text=True)
    assert "Deal 4 recorded." in html
    assert re.search(r'<section id="deals"[^>]* hx-swap-oob="true"', html) and "afterbegin" not in html
    assert row_numbers(html) == [4, 3, 2, 1]
