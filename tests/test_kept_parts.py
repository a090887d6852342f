"""A game's page is rendered once per version of the game for every phone, and never shows
a score older than the game's (companion/web/freshness.py, companion/web/parts.py); a kept
page carries the token and form id of the phone it is sent to."""

from __future__ import annotations

import re

from flask import Flask, template_rendered
from flask.testing import FlaskClient

from companion.web.parts import Kept
from tests.helpers import make_app, post_points, start_game


def deals_rows(client: FlaskClient, game_id: str, **headers: str) -> list[list[str]]:
    """Each row of the deals table, newest first: the deal's scores as shown."""
    html = client.get(f"/black-spy/{game_id}", headers=headers).get_data(as_text=True)
    body = html.split('<table class="deals">', 1)[1].split("</table>", 1)[0]
    return [re.findall(r'<span class="score">(-?\d+)', row) for row in re.split(r"<tr[ >]", body)[2:]]


def test_the_table_shows_every_write_at_once_a_deal_an_edit_and_an_undo(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    assert deals_rows(client, game_id) == [["20", "15", "25", "0"]]
    post_points(client, game_id, [10, 10, 10, 30])
    assert deals_rows(client, game_id) == [["10", "10", "10", "30"], ["20", "15", "25", "0"]]
    # an edit changes a deal in place: the page read just before it must not come back
    edited = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "points-0": "0", "points-1": "15", "points-2": "25", "points-3": "20"},
    )
    assert edited.status_code == 303
    assert deals_rows(client, game_id) == [["10", "10", "10", "30"], ["0", "15", "25", "20"]]
    assert client.post(f"/black-spy/{game_id}/undo", data={"number": "2"}).status_code == 303
    assert deals_rows(client, game_id) == [["0", "15", "25", "20"]]
    # and the answer htmx swaps in after a deal carries that deal
    swapped = post_points(client, game_id, [5, 5, 5, 45], htmx=True).get_data(as_text=True)
    assert '<span class="score">45' in swapped


def form_fields(html: str) -> tuple[str, str]:
    """The deal form's token and form id on a game page."""
    form = html.split('class="card deal-form"', 1)[1].split("</form>", 1)[0]
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    submission = re.search(r'name="submission" value="([^"]+)"', form).group(1)
    return token, submission


def test_a_kept_page_carries_each_phones_own_token_and_a_new_form_id_and_both_phones_can_score(database_url: str) -> None:
    app = make_app(database_url, WTF_CSRF_ENABLED=True)
    scorer = app.test_client()
    page = scorer.get("/black-spy/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    started = scorer.post(
        "/black-spy/new", data={"csrf_token": token, "player-0": "Ana", "player-1": "Ben", "player-2": "Cy", "first_dealer": "0"}
    )
    assert started.status_code == 303, started.get_data(as_text=True)
    url = started.location
    phones = [app.test_client() for _ in range(3)]
    pages = [phones[0].get(url).get_data(as_text=True)]
    rendered: list[str] = []

    def note(_app: Flask, template, context) -> None:
        rendered.append(template.name)

    template_rendered.connect(note, app)
    try:
        pages += [phone.get(url).get_data(as_text=True) for phone in phones[1:]]
        assert rendered == [], "the page made for the first phone was made again"
    finally:
        template_rendered.disconnect(note, app)
    fields = [form_fields(page) for page in pages]
    assert len({token for token, _ in fields}) == 3 and len({submission for _, submission in fields}) == 3
    assert "kept-token" not in pages[1] and "kept-submission" not in pages[2]
    # each phone's deal is taken with its own token, and none is mistaken for another's
    for number, (phone, (token, submission)) in enumerate(zip(phones, fields, strict=True), start=1):
        form = {"csrf_token": token, "submission": submission, "number": str(number), "mode": "points"}
        form.update({"points-0": "20", "points-1": "20", "points-2": "20"})
        answer = phone.post(f"{url}/deals", data=form)
        assert answer.status_code == 303, answer.get_data(as_text=True)
    # a token is this phone's alone: another phone's is refused
    refused = phones[0].post(f"{url}/deals", data={"csrf_token": fields[1][0], "mode": "points"})
    assert refused.status_code == 400
    assert deals_rows(phones[0], url.rsplit("/", 1)[1]) == [["20", "20", "20"]] * 3


def test_a_keeper_drops_the_least_recently_read_first_past_its_count_or_its_characters() -> None:
    kept: Kept[str] = Kept(3, budget=10)
    for key in "abc":
        kept.keep(key, "xx")
    assert kept.find("a") == "xx"  # read: now the most recent
    kept.keep("d", "xx")
    assert (kept.find("b"), len(kept)) == (None, 3)
    kept.keep("e", "x" * 7)  # 13 characters with c, a and d: the oldest go until 10 or fewer
    assert [key for key in "acde" if kept.find(key)] == ["d", "e"]
    kept.keep("f", "y" * 50)  # one copy over the budget is still kept: the page just made
    assert (kept.find("f"), len(kept)) == ("y" * 50, 1)
