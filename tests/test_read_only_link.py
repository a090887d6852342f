"""The read-only link that lets others follow a game.

The game page shows the link and its QR code; the read-only page shows the game live, for
Black Spy and Spy alike, with nothing to change it, and a follower sees an undo of a finished
game; every write route refuses a read-only id and changes nothing.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from companion.web.sharing import qr_svg_file
from tests.helpers import TWO_SPIES, fill_rule, post_points, snapshot, start_game, start_spy
from tests.history_helpers import get_html, post_routes_with_game_id, watch_id_of


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
