"""Writes that meet other writes: they wait their turn, and a lock that outlasts the wait
is a clear "busy" with nothing lost, never a server error."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from sqlalchemy import func, select
from sqlalchemy.engine import make_url

from tests.databases import Databases
from tests.helpers import game_state, make_app, post_points, snapshot, start_game


@pytest.fixture
def sqlite_url(tmp_path: Path) -> Iterator[str]:
    """A migrated SQLite database whichever database the rest of the suite runs on:
    the write lock under test is SQLite's."""
    databases = Databases(tmp_path, server="")
    yield databases.fresh()
    databases.close()


class HeldLock:
    """Another writer (a second process, a backup, an import) holding SQLite's write lock."""

    def __init__(self, url: str, seconds: float) -> None:
        self.path = make_url(url).database
        self.seconds = seconds
        self.taken = threading.Event()
        self.thread = threading.Thread(target=self._hold)

    def _hold(self) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        # a real write, so that whoever read before it commits reads an old snapshot
        connection.execute("UPDATE players SET last_seen = last_seen")
        self.taken.set()
        time.sleep(self.seconds)
        connection.execute("COMMIT")
        connection.close()

    def __enter__(self) -> HeldLock:
        self.thread.start()
        assert self.taken.wait(5)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.thread.join()


def test_a_deal_waits_for_another_write_to_finish_and_is_recorded(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(sqlite_url)
    client = app.test_client()
    game_id = start_game(client)
    with HeldLock(sqlite_url, seconds=0.5):
        response = post_points(client, game_id, [20, 15, 25, 0])
    assert response.status_code == 303
    assert len(game_state(app, game_id).deals) == 1


def test_a_lock_held_longer_than_the_wait_is_a_clear_busy_and_nothing_is_written(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(sqlite_url, SQLITE_BUSY_TIMEOUT_MS=100)
    client = app.test_client()
    game_id = start_game(client)
    before = snapshot(app)
    with HeldLock(sqlite_url, seconds=1.5):
        page = post_points(client, game_id, [20, 15, 25, 0])
        fragment = post_points(client, game_id, [20, 15, 25, 0], htmx=True)
    assert page.status_code == 503 and page.headers["Retry-After"]
    assert "Nothing was saved: try again in a moment." in page.get_data(as_text=True)
    # htmx swaps the notice in above the page, leaving the typed numbers in the form
    assert fragment.status_code == 503 and fragment.headers["HX-Retarget"] == "#busy"
    assert 'id="busy"' in fragment.get_data(as_text=True) and "<html" not in fragment.get_data(as_text=True)
    assert snapshot(app) == before
    # and once the lock is gone the same deal goes through
    assert post_points(client, game_id, [20, 15, 25, 0]).status_code == 303


def test_pages_that_only_read_do_not_wait_for_a_writer(sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app: Flask = make_app(sqlite_url, SQLITE_BUSY_TIMEOUT_MS=100)
    client = app.test_client()
    game_id = start_game(client)
    with HeldLock(sqlite_url, seconds=1.0):
        response = client.get(f"/black-spy/{game_id}")
    assert response.status_code == 200


def test_two_tables_that_share_a_player_never_refuse_each_other(app: Flask) -> None:
    from companion.kinds.black_spy.stats import PlayerDay, rebuild_all
    from companion.store.base import db

    client = app.test_client()
    # two finished games that share Alex: each change to either recounts Alex's day (the
    # statistics count finished games only, so a deal of a game still going recounts nothing)
    tables = [start_game(client, names=names, end_value="50") for names in (("Alex", "Dee", "Eli"), ("Fay", "alex", "Gus"))]
    for table in tables:
        assert post_points(client, table, [60, 0, 0], shoot="none").status_code == 303
    rounds = 12
    barrier = threading.Barrier(len(tables))
    statuses: dict[str, list[int]] = {table: [] for table in tables}

    def play(table: str) -> None:
        phone = app.test_client()
        for turn in range(rounds):
            barrier.wait()
            # the table corrects deal 1, back and forth: who took the 60 points
            points = [60, 0, 0] if turn % 2 else [0, 60, 0]
            form = {"mode": "points", "shoot": "none", **{f"points-{seat}": str(value) for seat, value in enumerate(points)}}
            statuses[table].append(phone.post(f"/black-spy/{table}/deals/1/edit", data=form).status_code)

    threads = [threading.Thread(target=play, args=(table,)) for table in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == {table: [303] * rounds for table in tables}
    for table in tables:
        assert game_state(app, table).finished and len(game_state(app, table).deals) == 1

    def buckets() -> list[tuple]:
        with app.app_context():
            rows = db.session.scalars(select(PlayerDay).order_by(PlayerDay.player_id, PlayerDay.day)).all()
            return [(row.player_id, row.day, row.games, row.wins, row.deals, row.score_sum) for row in rows]

    kept = buckets()
    with app.app_context():
        rebuild_all()
        db.session.commit()
    assert buckets() == kept


def test_two_phones_starting_games_with_the_same_new_player_both_start(app: Flask) -> None:
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def begin(others: tuple[str, str]) -> None:
        phone = app.test_client()
        barrier.wait()
        form = {"player-0": "Newcomer", "player-1": others[0], "player-2": others[1], "first_dealer": "0"}
        statuses.append(phone.post("/black-spy/new", data=form).status_code)

    threads = [threading.Thread(target=begin, args=(pair,)) for pair in (("Ana", "Ben"), ("Cy", "Dee"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert statuses == [303, 303]
    with app.app_context():
        from companion.store.base import db
        from companion.store.players import Player

        assert db.session.scalar(select(func.count()).select_from(Player).where(Player.name == "Newcomer")) == 1


def test_a_deal_holds_the_write_lock_until_its_commit_and_renders_its_answer_without_it(
    sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from sqlalchemy import event

    from companion.store.base import db

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(sqlite_url)
    client = app.test_client()
    game_id = start_game(client)
    with app.app_context():
        engine = db.engine
    begun: list[str] = []

    def note(_connection, _cursor, statement, *_rest) -> None:
        if statement.startswith("BEGIN"):
            begun.append(statement)

    # while the answer is rendered, another writer (a second table) can take the lock at once
    from flask import before_render_template

    others_could_write: list[bool] = []

    def another_writer(_app: Flask, **_extra: object) -> None:
        other = sqlite3.connect(make_url(sqlite_url).database, timeout=0, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            other.execute("ROLLBACK")
            others_could_write.append(True)
        except sqlite3.OperationalError:
            others_could_write.append(False)
        finally:
            other.close()

    event.listen(engine, "before_cursor_execute", note)
    before_render_template.connect(another_writer, app)
    try:
        response = post_points(client, game_id, [20, 15, 25, 0], htmx=True)
    finally:
        event.remove(engine, "before_cursor_execute", note)
        before_render_template.disconnect(another_writer, app)
    assert response.status_code == 200 and "Deal 1 recorded." in response.get_data(as_text=True)
    # the write's own transaction takes the lock; the fragment after the commit shows the
    # objects as written, and whatever it still reads, it reads as a reader
    assert begun[0] == "BEGIN IMMEDIATE" and all(statement == "BEGIN" for statement in begun[1:]), begun
    assert others_could_write and all(others_could_write), others_could_write


RACES = 15


def _version(app: Flask, game_id: str) -> str:
    from companion.store.base import db
    from companion.store.games import Game

    with app.app_context():
        return str(db.session.get(Game, game_id).version)


@pytest.mark.parametrize("kind", ["black-spy", "scorepad"])
def test_an_edit_racing_an_undo_from_another_phone_is_refused_in_words_never_a_fault(app: Flask, kind: str) -> None:
    """Two phones at once: one changes the last deal (or round), the other undoes it. Either
    may win; the other is told another phone changed the game, and nothing is half-done."""
    from tests.helpers import post_round, start_pad

    client = app.test_client()
    if kind == "black-spy":
        game_id = start_game(client)
        record = lambda: post_points(client, game_id, [20, 15, 25, 0])  # noqa: E731
        edit = (
            f"/black-spy/{game_id}/deals/2/edit",
            {"mode": "points", **{f"points-{seat}": str(p) for seat, p in enumerate([15, 20, 25, 0])}},
        )
        count = lambda: len(game_state(app, game_id).deals)  # noqa: E731
    else:
        game_id = start_pad(client)
        record = lambda: post_round(client, game_id, (3, 4, 5))  # noqa: E731
        edit = (f"/scorepad/{game_id}/rounds/2/edit", {"points-0": "7", "points-1": "8", "points-2": "9"})
        count = lambda: exported_rounds(client, game_id)  # noqa: E731
    assert record().status_code == 303
    outcomes: list[tuple[int, int]] = []
    for _ in range(RACES):
        while count() < 2:
            assert record().status_code == 303
        version = _version(app, game_id)
        statuses = _race(app, edit, version, f"/{kind}/{game_id}/undo")
        outcomes.append((statuses["edit"], statuses["undo"]))
        assert statuses["edit"] in (303, 409) and statuses["undo"] in (303, 409), statuses
        assert client.get(f"/{kind}/{game_id}").status_code == 200
    # every race ended in one of the ways a table can read: an edit refused as late, or an undo
    assert all(edit in (303, 409) and undo in (303, 409) for edit, undo in outcomes)


def _race(app, edit: tuple[str, dict[str, str]], version: int, undo_address: str) -> dict[str, int]:
    """Send the edit and the undo from two phones at the same instant; their statuses."""
    barrier = threading.Barrier(2)
    statuses: dict[str, int] = {}

    def editing() -> None:
        phone = app.test_client()
        barrier.wait()
        statuses["edit"] = phone.post(edit[0], data={**edit[1], "version": version}).status_code

    def undoing() -> None:
        phone = app.test_client()
        barrier.wait()
        statuses["undo"] = phone.post(undo_address, data={"number": "2"}).status_code

    threads = [threading.Thread(target=editing), threading.Thread(target=undoing)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def exported_rounds(client, game_id: str) -> int:
    return len(client.get(f"/scorepad/{game_id}/export.json").get_json()["games"][0]["rounds"])


def test_a_deal_that_waited_for_another_phone_s_edit_keeps_the_totals_that_edit_left(app: Flask) -> None:
    """Another phone changes deal 1 while this one records deal 2: this one waits for the
    game, then reads it as the edit left it, seats and all. (On PostgreSQL a locked read of
    the game with its seats joined gave the game's row after the edit but its seats from
    before: a total the edit changed, and the new deal did not, was kept as before the edit.)"""
    from companion.kinds.black_spy.models import Deal
    from companion.store.base import db
    from companion.store.games import Game, Seat

    client = app.test_client()
    game_id = start_game(client)
    assert post_points(client, game_id, [20, 15, 25, 0]).status_code == 303
    answers: list[int] = []
    with app.app_context():
        games, seats, deals = Game.__table__, Seat.__table__, Deal.__table__
        with db.engine.connect() as other, other.begin():
            # the other phone's edit of deal 1 to 0, 15, 25, 20, as its write makes it
            other.execute(select(games.c.id).where(games.c.id == game_id).with_for_update())
            other.execute(deals.update().where(deals.c.game_id == game_id, deals.c.number == 1).values(raw=[0, 15, 25, 20]))
            for position, total in enumerate([0, 15, 25, 20]):
                other.execute(seats.update().where(seats.c.game_id == game_id, seats.c.position == position).values(total=total))
            other.execute(games.update().where(games.c.id == game_id).values(version=games.c.version + 1))
            phone = threading.Thread(
                target=lambda: answers.append(post_points(app.test_client(), game_id, [20, 0, 40, 0]).status_code)
            )
            phone.start()
            time.sleep(0.5)  # the deal waits for the game meanwhile
        phone.join()
        kept = db.session.scalars(select(Seat.total).where(Seat.game_id == game_id).order_by(Seat.position)).all()
    assert answers == [303]
    assert list(game_state(app, game_id).totals) == [20, 15, 65, 20] == kept
