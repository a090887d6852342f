"""A worker keeps the input log its last write of a game left, for its next write of that
game (companion/store/kept_logs.py): found again only for the game's row as that write left
it, so that a deal another worker wrote, an edit, an undo or a restore is read, never missed."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select, update

from companion.kinds.black_spy.models import Deal
from companion.store.base import db
from companion.store.games import Game, InputLog
from companion.store.kept_logs import KEPT_LOGS, KeptLogs
from tests.helpers import game_state, post_points, start_game


@contextmanager
def deals_read(app: Flask) -> Iterator[list[str]]:
    """The statements that read a game's deals, while the block runs."""
    read: list[str] = []

    def note(_connection, _cursor, statement: str, *_rest) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM deals" in statement:
            read.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield read
    finally:
        event.remove(engine, "before_cursor_execute", note)


def kept(game_id: str) -> tuple[object, InputLog] | None:
    return KEPT_LOGS._logs.get(game_id)


def test_the_worker_that_wrote_a_deal_writes_the_next_without_reading_the_deals(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    assert post_points(client, game_id, [20, 15, 25, 0]).status_code == 303
    with deals_read(app) as read:
        assert post_points(client, game_id, [0, 5, 55, 0], htmx=True).status_code == 200
    assert read == []
    assert game_state(app, game_id).totals == (20, 20, 80, 0)


def test_a_deal_another_worker_wrote_meanwhile_is_read_not_the_log_kept_here(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    this_worker = kept(game_id)
    assert this_worker is not None and this_worker[1].count == 1
    # another worker records deal 2; this one still holds the log of deal 1
    post_points(client, game_id, [0, 5, 55, 0])
    KEPT_LOGS.keep(game_id, *this_worker)  # type: ignore[arg-type]
    with deals_read(app) as read:
        assert post_points(client, game_id, [10, 10, 10, 30]).status_code == 303
    assert read  # the game's row is not as this worker's write left it
    assert game_state(app, game_id).totals == (30, 30, 90, 30)
    with app.app_context():
        assert db.session.scalars(select(Deal.number).where(Deal.game_id == game_id).order_by(Deal.number)).all() == [1, 2, 3]


def test_a_game_at_the_same_version_changed_at_another_moment_is_read_again(app: Flask, client: FlaskClient) -> None:
    """A game deleted and restored, or imported again, starts its versions again from 1: the
    same version with other deals. The moment of its last change tells them apart."""
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [0, 5, 55, 0])
    with app.app_context():
        # the same version, other deals, another moment: as a restore that came back to it
        db.session.execute(update(Deal).where(Deal.game_id == game_id, Deal.number == 2).values(raw=[0, 0, 60, 0]))
        moment = db.session.scalar(select(Game.updated_at).where(Game.id == game_id))
        db.session.execute(update(Game).where(Game.id == game_id).values(updated_at=moment + timedelta(seconds=1)))
        db.session.commit()
    assert post_points(client, game_id, [10, 10, 10, 30]).status_code == 303
    assert game_state(app, game_id).totals == (30, 25, 95, 30)


def test_an_edit_or_an_undo_between_two_deals_is_read_by_the_next(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [0, 5, 55, 0])
    with app.app_context():
        version = db.session.scalar(select(Game.version).where(Game.id == game_id))
    edited = client.post(
        f"/black-spy/{game_id}/deals/1/edit",
        data={"mode": "points", "version": str(version), **{f"points-{seat}": str(p) for seat, p in enumerate([30, 10, 10, 10])}},
    )
    assert edited.status_code == 303, edited.get_data(as_text=True)
    post_points(client, game_id, [10, 10, 10, 30])
    assert game_state(app, game_id).totals == (40, 25, 75, 40)
    assert client.post(f"/black-spy/{game_id}/undo", data={"number": "3"}).status_code == 303
    post_points(client, game_id, [15, 15, 15, 15])
    assert game_state(app, game_id).totals == (45, 30, 80, 25)


def test_a_worker_keeps_the_logs_of_its_latest_games_alone() -> None:
    from datetime import datetime

    logs = KeptLogs(size=2)
    moment = datetime(2026, 12, 5, 20, 0)
    for number in range(3):
        logs.keep(f"game{number}", moment, InputLog(2, 1, frozenset(), ((),)))
    assert logs.find("game0", 2, moment) is None  # the least recently kept, let go
    assert logs.find("game2", 2, moment) is not None
    assert logs.find("game2", 3, moment) is None and logs.find("game2", 2, moment + timedelta(microseconds=1)) is None
