"""Helpers shared by the tests of the Spy pages, driven as a phone's browser would.

Read a Spy game's page: the page itself, what it says, a hidden field, a player's base and
the places shown in it, the answers offered; send a turn as the page's form holds it, or a
row of turns that must each be accepted; read the game's state from the database; and play
the two games that tests in more than one module start from: a tracked opening of three
Spies, and a three-player game that Cy wins. ANA, BEN and CY are the seats of the players
the tests seat.
"""

from __future__ import annotations

import html as htmllib
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from companion.kinds.spy.rules import SpyState
from companion.store.base import db
from tests.helpers import snapshot, start_spy

ANA, BEN, CY = 0, 1, 2


def page(client: FlaskClient, game_id: str, **query: str) -> str:
    response = client.get(f"/spy/{game_id}", query_string=query)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def text(html: str) -> str:
    """What the page says, tags dropped, entities read, spaces collapsed."""
    return " ".join(htmllib.unescape(re.sub(r"<[^>]+>", "", html)).split())


def hidden(html: str, name: str) -> str:
    match = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)
    assert match, f"no hidden {name} in the page"
    return match.group(1)


def take_turn(
    client: FlaskClient,
    game_id: str,
    look: str = "",
    answer: str | None = None,
    htmx: bool = False,
    **extra: str,
):
    """Send the turn form as the game page holds it: its turn number and one-time id."""
    html = page(client, game_id)
    form = {"number": hidden(html, "number"), "submission": hidden(html, "submission"), "look": look}
    if answer is not None:
        form["answer"] = answer
    form.update(extra)
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(f"/spy/{game_id}/turns", data=form, headers=headers)


def play(client: FlaskClient, game_id: str, *turns: tuple[str, str | None]) -> None:
    """Record ``turns`` (look, answer) in order; each must be accepted."""
    for number, (look, answer) in enumerate(turns, start=1):
        response = take_turn(client, game_id, look, answer)
        assert response.status_code == 303, (number, text(response.get_data(as_text=True)))


def spy_state(app: Flask, game_id: str) -> SpyState:
    from companion.store.games import Game

    with app.app_context():
        game = db.session.scalar(select(Game).where(Game.id == game_id))
        return game.state()


def base_section(html: str, seat: int) -> str:
    match = re.search(rf'<section [^>]*aria-labelledby="base-{seat}">(.*?)</section>', html, re.S)
    assert match, f"no base {seat} on the page"
    return match.group(1)


def slots(html: str, seat: int) -> list[tuple[set[str], str]]:
    """Each place shown in a base: its classes and its words."""
    found = re.findall(r'<li class="([^"]*)">(.*?)</li>', base_section(html, seat), re.S)
    return [
        (set(classes.split()), " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", inner)).split())) for classes, inner in found
    ]


def answers_offered(html: str) -> list[str]:
    return re.findall(r'<input type="(?:radio|hidden)" name="answer" value="([^"]*)"', html)


def play_a_tracked_opening(client: FlaskClient, app: Flask) -> str:
    """Three tracked Spies; after three turns Ana's Spy faces her own exposed Safe 1.

    Bases hold 7 slots. Ana's Spy stands in slot 1 facing right, Ben's in slot 7 facing
    left, Cy's in slot 4 facing right.
    """
    game_id = start_spy(client, spies=[(1, "right"), (7, "left"), (4, "right")])
    html = page(client, game_id)
    # Ana faces her slot 2; opposite is slot 6 of each base: Ben's card 6, Cy's card 5
    assert "Ana's Spy looks at: Ben's card 6, Cy's card 5." in text(html)
    assert re.findall(r'name="look" value="([^"]*)"', base_section(html, BEN)) == ["1:6"]
    assert re.findall(r'name="look" value="([^"]*)"', base_section(html, CY)) == ["2:5"]
    assert "Spy →" in text(base_section(html, ANA)) and "Spy ←" in text(base_section(html, BEN))

    before = snapshot(app)
    response = take_turn(client, game_id, "1:4", "safe")
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    assert "Ana's Spy looks at Ben's card 6, not card 4." in text(refused)
    assert 'id="card-error"' in refused
    assert snapshot(app) == before

    play(client, game_id, ("1:6", "safe"))
    # Ben faces his slot 6; opposite is slot 2: Ana's card 1, Cy's card 2
    assert "Ben's Spy looks at: Ana's card 1, Cy's card 2." in text(page(client, game_id))
    play(client, game_id, ("0:1", "target"), ("", None))
    return game_id


def won_by_cy(client: FlaskClient) -> str:
    """A three-player game that Cy wins: Ana and Ben each spy on a bomb of Cy's twice."""
    game_id = start_spy(client, first_player=ANA)
    play(client, game_id, ("2:1", "bomb"), ("2:2", "bomb"), ("", None), ("2:1", None), ("2:2", None))
    return game_id
