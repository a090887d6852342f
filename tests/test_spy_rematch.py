"""A won Spy game offers a rematch of the same players and colours, started once, its first
player named or drawn, its tracked Spies placed anew; one that cannot be made makes nothing.
"""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion.kinds.spy.rules import Facing, SpyPlace
from tests.helpers import snapshot, start_spy
from tests.spy_app_helpers import BEN, CY, page, play, spy_state, text, won_by_cy


def rematch_of(client: FlaskClient, game_id: str, **form: str) -> str:
    response = client.post(f"/spy/{game_id}/rematch", data=form)
    assert response.status_code == 303, text(response.get_data(as_text=True))
    match = re.search(r"/spy/([A-Za-z0-9]+)$", response.location)
    assert match, response.location
    return match.group(1)


def test_a_won_spy_game_offers_a_rematch_with_the_next_first_player_named_or_a_draw(client: FlaskClient, app: Flask) -> None:
    game_id = won_by_cy(client)
    assert spy_state(app, game_id).winner == CY
    html = page(client, game_id)
    assert '<select id="rematch-first-player" name="first_player">' in html
    assert '<option value="" selected>Ben, next after Ana</option>' in html
    assert '<option value="0">Ana</option>' in html and '<option value="2">Cy</option>' in html
    assert '<option value="draw">Draw for me' in html
    assert "rematch" not in page(client, start_spy(client))


def test_a_spy_rematch_seats_the_same_players_and_colours_and_is_started_once(client: FlaskClient, app: Flask) -> None:
    game_id = won_by_cy(client)
    new = rematch_of(client, game_id, first_player="2")
    state = spy_state(app, new)
    old = spy_state(app, game_id).setup
    assert (state.setup.players, state.setup.colours, state.to_play, state.turns) == (old.players, old.colours, CY, ())
    assert "Rematch! Cy plays first." in text(page(client, new))
    assert f'href="/spy/{new}">Go to the rematch' in page(client, game_id)

    # a second tap, or another phone's, goes to the rematch already made
    before = snapshot(app)
    assert rematch_of(client, game_id) == new
    assert snapshot(app) == before
    assert "The rematch is already on: here it is." in text(page(client, new))


def test_a_spy_game_reopened_by_an_undo_after_its_rematch_began_still_leads_to_the_rematch(client: FlaskClient) -> None:
    game_id = won_by_cy(client)
    new = rematch_of(client, game_id)
    assert client.post(f"/spy/{game_id}/undo", data={"number": "5"}).status_code == 303
    html = page(client, game_id)
    assert "Record the turn" in html
    assert f'<a class="button" href="/spy/{new}">Go to the rematch</a>' in html
    assert "This game's rematch has started." in html


def test_a_spy_rematch_by_default_and_by_draw_says_who_plays_first(client: FlaskClient, app: Flask) -> None:
    new = rematch_of(client, won_by_cy(client), first_player="")
    assert spy_state(app, new).to_play == BEN
    drawn = rematch_of(client, won_by_cy(client), first_player="draw")
    first = spy_state(app, drawn)
    assert f"The draw is made: {first.setup.players[first.to_play]} plays first." in text(page(client, drawn))


def test_a_spy_rematch_first_player_not_at_the_table_is_refused_and_nothing_is_made(client: FlaskClient, app: Flask) -> None:
    game_id = won_by_cy(client)
    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch", data={"first_player": "3"})
    assert response.status_code == 422
    assert "The first player must be one of the players." in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_a_crafted_rematch_of_a_spy_game_still_being_played_is_refused_and_nothing_is_made(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_spy(client)
    play(client, game_id, ("1:3", "safe"))
    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch")
    assert response.status_code == 409
    assert "The game is not over yet" in text(response.get_data(as_text=True))
    assert snapshot(app) == before


def test_a_tracked_spy_rematch_asks_where_the_spies_stand_then_starts_once(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "right"), (1, "right")])
    # Ana's Spy faces her slot 2, so she looks at Ben's card 6, twice: the second time it is lit
    play(client, game_id, ("1:6", "bomb"), ("", None), ("1:6", None))
    assert spy_state(app, game_id).winner == BEN

    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch", data={"first_player": ""})
    assert response.status_code == 200
    form = response.get_data(as_text=True)
    assert snapshot(app) == before  # nothing is started until the Spies are placed
    assert "Say where each Spy stands now, then start." in text(form)
    assert f'name="rematch_of" value="{game_id}"' in form
    assert 'name="spy-player-0" type="text"' in form and 'value="Ana"' in form and 'value="Ben"' in form
    assert re.search(r'name="track" value="1" checked', form)
    assert re.search(r'name="first_player" value="1" checked', form)

    placed = {
        "rematch_of": game_id,
        "track": "1",
        "first_player": "1",
        "spy-player-0": "Ana",
        "spy-colour-0": "green",
        "spy-player-1": "Ben",
        "spy-colour-1": "red",
        "spy-slot-0": "4",
        "spy-facing-0": "left",
        "spy-slot-1": "8",
        "spy-facing-1": "left",
    }
    response = client.post("/spy/new", data=placed)
    assert response.status_code == 303
    new = response.location.rsplit("/", 1)[1]
    state = spy_state(app, new)
    assert state.to_play == BEN and state.setup.spies == (SpyPlace(4, Facing.LEFT), SpyPlace(8, Facing.LEFT))
    assert "Rematch! Ben plays first." in text(page(client, new))
    assert f'href="/spy/{new}">Go to the rematch' in page(client, game_id)

    # the same form sent again (a double tap) finds the rematch made
    before = snapshot(app)
    again = client.post("/spy/new", data=placed)
    assert again.status_code == 303 and again.location.endswith(f"/spy/{new}")
    assert snapshot(app) == before


def test_a_tracked_rematch_form_that_seats_someone_else_starts_a_game_of_its_own(client: FlaskClient, app: Flask) -> None:
    game_id = start_spy(client, (("Ana", "green"), ("Ben", "red")), spies=[(1, "right"), (1, "right")])
    play(client, game_id, ("1:6", "bomb"), ("", None), ("1:6", None))
    form = {
        "rematch_of": game_id,
        "track": "1",
        "first_player": "0",
        "spy-player-0": "Ana",
        "spy-colour-0": "green",
        "spy-player-1": "Dee",
        "spy-colour-1": "red",
        "spy-slot-0": "1",
        "spy-facing-0": "right",
        "spy-slot-1": "1",
        "spy-facing-1": "right",
    }
    response = client.post("/spy/new", data=form)
    assert response.status_code == 303
    new = response.location.rsplit("/", 1)[1]
    assert spy_state(app, new).setup.players == ("Ana", "Dee")
    assert "Rematch!" not in text(page(client, new))
    assert "Go to the rematch" not in page(client, game_id)


def test_a_rematch_that_loses_a_race_to_an_undo_says_so_and_starts_nothing(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    # another phone undid the winning turn between this phone's look and its commit
    from companion import service

    game_id = won_by_cy(client)
    lost = lambda game, again: service.Written(service.Outcome.CONFLICT, game)  # noqa: E731
    monkeypatch.setattr(service, "rematch", lost)
    before = snapshot(app)
    response = client.post(f"/spy/{game_id}/rematch")
    assert response.status_code == 409
    assert "Another phone changed this game just now; no rematch was started." in text(response.get_data(as_text=True))
    assert snapshot(app) == before
