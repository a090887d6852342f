"""A deal or a turn added after the last is written as statements (companion/store/appending.py):
the same rows as the session's flush would write, refused when another phone wrote first,
and the flush's where the game ends with it."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from companion.kinds.black_spy.models import BlackSpyGame, Deal, DealScore
from companion.store import appending
from companion.store.base import db
from companion.store.games import Game, Seat
from tests.helpers import game_state, post_points, start_game, start_spy


def rows_of(app: Flask, game_id: str) -> dict[str, Any]:
    """What the database holds of a game, without its ids and moments."""
    with app.app_context():
        game = db.session.execute(
            select(Game.version, Game.finished, Game.rounds, Game.next_seat, BlackSpyGame.entry_mode).where(Game.id == game_id)
        ).one()
        return {
            "game": tuple(game),
            "seats": db.session.execute(
                select(Seat.position, Seat.total, Seat.won).where(Seat.game_id == game_id).order_by(Seat.position)
            ).all(),
            "deals": db.session.execute(
                select(Deal.number, Deal.raw, Deal.cards, Deal.shooter).where(Deal.game_id == game_id).order_by(Deal.number)
            ).all(),
            "scores": db.session.execute(
                select(DealScore.number, DealScore.seat, DealScore.raw, DealScore.score, DealScore.shot)
                .where(DealScore.game_id == game_id)
                .order_by(DealScore.number, DealScore.seat)
            ).all(),
        }


DEALS = ([20, 15, 25, 0], [0, 5, 55, 0], [10, 10, 10, 30], [45, 5, 5, 5], [30, 10, 10, 10])


def test_a_deal_written_as_statements_leaves_the_rows_the_flush_leaves(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    written = []
    real = appending.append
    monkeypatch.setattr(appending, "append", lambda *args: written.append(real(*args)) or written[-1])
    by_statements = start_game(client, end_value="100")
    for points in DEALS:
        assert post_points(client, by_statements, points).status_code == 303
    # every deal but the one that ends the game (its statistics are the commit's) by statements
    assert written == [True, True, True, True, None]
    monkeypatch.setattr(appending, "append", lambda *args: None)
    by_flush = start_game(client, end_value="100")
    for points in DEALS:
        assert post_points(client, by_flush, points).status_code == 303
    assert rows_of(app, by_statements) == rows_of(app, by_flush)
    assert rows_of(app, by_statements)["game"][1] is True  # the last deal ended it


def test_a_deal_is_refused_when_another_write_bumped_the_game_first_and_writes_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    before = rows_of(app, game_id)
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        state = game.played(game.entries()[0])
        row = game.input_row(game.entries()[0])
        row.number, row.game_id = 2, game_id
        # another phone's write, behind this session's objects: the version it read is old
        games = appending.GAMES
        db.session.execute(update(games).where(games.c.id == game_id).values(version=games.c.version + 1))
        assert appending.append(game, row, state) is False
    assert rows_of(app, game_id) == before


def test_after_a_deal_written_as_statements_the_session_holds_what_the_rows_hold(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        version = game.version
        entry = game.entries()[0]
        row = game.input_row(entry)
        row.number, row.game_id = 2, game_id
        assert appending.append(game, row, game.played(entry)) is True
        assert game.version == version + 1 and game.rounds == 2
        assert [deal.number for deal in game.deals] == [1, 2] and row.id is not None
        assert [seat.total for seat in game.seats] == [40, 30, 50, 0]
        # nothing is left for a flush to write: the next write of the game is not refused
        assert not db.session.dirty and not db.session.new
        assert game.state().totals == (40, 30, 50, 0)
    assert game_state(app, game_id).totals == (40, 30, 50, 0)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Deal).where(Deal.game_id == game_id)) == 2


def test_a_game_whose_deals_the_session_holds_holds_the_new_deal_among_them(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    with app.test_request_context():
        game = db.session.get(Game, game_id)
        assert len(game.deals) == 1  # read as objects before the write
        entry = game.entries()[0]
        row = game.input_row(entry)
        row.number, row.game_id = 2, game_id
        assert appending.append(game, row, game.played(entry)) is True
        assert [deal.number for deal in game.deals] == [1, 2]
        assert game.input_log().count == 2 and game.state().totals == (40, 30, 50, 0)


def test_a_spy_turn_is_written_as_statements_too(client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    written = []
    real = appending.append
    monkeypatch.setattr(appending, "append", lambda *args: written.append(real(*args)) or written[-1])
    game_id = start_spy(client)
    response = client.post(f"/spy/{game_id}/turns", data={"number": "1"})
    assert response.status_code == 303, response.get_data(as_text=True)
    assert written == [True]
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert (game.rounds, game.version) == (1, 2) and len(game.inputs()) == 1


def spy_rows(app: Flask, game_id: str) -> dict[str, Any]:
    from companion.kinds.spy.models import SpyTurn

    with app.app_context():
        return {
            "game": tuple(
                db.session.execute(
                    select(Game.version, Game.finished, Game.rounds, Game.next_seat).where(Game.id == game_id)
                ).one()
            ),
            "turns": db.session.execute(
                select(SpyTurn.number, SpyTurn.player, SpyTurn.move, SpyTurn.spy)
                .where(SpyTurn.game_id == game_id)
                .order_by(SpyTurn.number)
            ).all(),
        }


def test_spy_turns_written_as_statements_leave_the_rows_the_flush_leaves(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_statements = start_spy(client)
    for number in range(1, 6):
        assert client.post(f"/spy/{by_statements}/turns", data={"number": str(number)}).status_code == 303
    monkeypatch.setattr(appending, "append", lambda *args: None)
    by_flush = start_spy(client)
    for number in range(1, 6):
        assert client.post(f"/spy/{by_flush}/turns", data={"number": str(number)}).status_code == 303
    assert spy_rows(app, by_statements) == spy_rows(app, by_flush)
    assert spy_rows(app, by_flush)["game"][2] == 5
