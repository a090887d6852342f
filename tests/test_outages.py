"""When the database or the disk fails, the table is told in words, nothing is half-written,
and the same entry sent again once the server can take it is stored once."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import text as sql
from sqlalchemy.exc import OperationalError

from companion.store.base import db
from tests.clusters import Cluster, SmallDisk
from tests.databases import Databases
from tests.helpers import exported, post_points, running_app, snapshot, start_game
from tests.servers import Server, free_port

DISK_FULL = "The server is out of disk space, so nothing was saved."
UNREACHABLE = "The server cannot reach its database just now, so nothing was saved."


def deal(client: FlaskClient, game: str, number: int, htmx: bool = False):
    """Deal ``number``, with a submission id of its own: the same deal sent again is the same submission."""
    return post_points(client, game, [20, 15, 25, 0], htmx=htmx, number=str(number), submission=f"{game}-deal-{number}")


def deals_of(client: FlaskClient, game: str) -> list[int]:
    return [deal["number"] for deal in exported(client, f"/black-spy/{game}/export.json")["games"][0]["derived"]["deals"]]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[SmallDisk]:
    if not SmallDisk.can_mount():
        pytest.skip("a small disk to fill is a tmpfs mounted for the test, which takes root")
    disk = SmallDisk(tmp_path / "disk")
    yield disk
    disk.remove()


class FullDisk:
    """A disk that fills and empties under the app's database: SQLite's file on a small tmpfs,
    or, on PostgreSQL, every write refused with the server's own "disk full" (SQLSTATE 53100),
    as PostgreSQL refuses it when its data folder's disk is full."""

    def __init__(self, app: Flask, disk: SmallDisk | None) -> None:
        self.app, self.disk = app, disk

    def fill(self) -> None:
        if self.disk is not None:
            self.disk.fill()
            return
        with self.app.app_context(), db.engine.begin() as connection:
            connection.execute(
                sql(
                    "CREATE FUNCTION disk_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                    "RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$"
                )
            )
            connection.execute(sql("CREATE TRIGGER disk_full BEFORE INSERT OR UPDATE ON games EXECUTE FUNCTION disk_full()"))

    def free(self) -> None:
        if self.disk is not None:
            self.disk.free()
            return
        with self.app.app_context(), db.engine.begin() as connection:
            connection.execute(sql("DROP TRIGGER disk_full ON games"))
            connection.execute(sql("DROP FUNCTION disk_full()"))


@pytest.fixture
def full_disk(
    request: pytest.FixtureRequest, databases: Databases, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Flask, FullDisk]]:
    disk = None
    url = databases.fresh()
    if databases.kind == "sqlite":
        disk = request.getfixturevalue("small_disk")
        moved = disk.path / "companion.sqlite3"
        shutil.copy(url.removeprefix("sqlite:///"), moved)
        url = f"sqlite:///{moved}"
    with running_app(url, tmp_path / "instance", monkeypatch) as app:
        yield app, FullDisk(app, disk)
    databases.drop(url)


def test_a_full_disk_refuses_a_deal_in_words_and_the_same_deal_is_stored_once_when_there_is_room(
    full_disk: tuple[Flask, FullDisk],
) -> None:
    app, disk = full_disk
    client = app.test_client()
    game = start_game(client)
    assert deal(client, game, 1).status_code == 303
    disk.fill()
    before = snapshot(app)
    for htmx in (False, True):
        refused = deal(client, game, 2, htmx=htmx)
        assert refused.status_code == 507
        assert DISK_FULL in refused.get_data(as_text=True)
        assert int(refused.headers["Retry-After"]) > 0
    # nothing half-written, and the game still reads
    assert snapshot(app) == before
    assert client.get(f"/black-spy/{game}").status_code == 200
    disk.free()
    assert deal(client, game, 2).status_code == 303
    assert deal(client, game, 2).status_code in (200, 303)  # the phone's queue sending it again
    assert deals_of(client, game) == [1, 2]


def test_a_database_on_a_disk_that_cannot_be_written_is_a_503_and_nothing_is_written(
    small_disk: SmallDisk, sqlite_databases: Databases, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved = small_disk.path / "companion.sqlite3"
    shutil.copy(sqlite_databases.fresh().removeprefix("sqlite:///"), moved)
    with running_app(f"sqlite:///{moved}", tmp_path / "instance", monkeypatch) as app:
        client = app.test_client()
        game = start_game(client)
        assert deal(client, game, 1).status_code == 303
        # as the kernel leaves a disk after an error: read-only under a running server (its
        # files closed first: a disk with files open for writing cannot be made read-only)
        with app.app_context():
            db.engine.dispose()
        small_disk.read_only()
        try:
            refused = deal(client, game, 2)
            assert refused.status_code == 503
            assert UNREACHABLE in refused.get_data(as_text=True)
            assert refused.headers["Retry-After"].isdigit()
        finally:
            small_disk.read_only(False)
        assert deal(client, game, 2).status_code == 303
        assert deals_of(client, game) == [1, 2]


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    made = Cluster()
    yield made
    made.remove()


@pytest.fixture
def on_cluster(cluster: Cluster, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    from tests.databases import migrate

    migrate(cluster.url)
    with running_app(cluster.url, tmp_path / "instance", monkeypatch) as app:
        yield app
    with app.app_context():
        db.drop_all()
        db.session.execute(sql("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()


@pytest.mark.parametrize("mode", ["fast", "immediate"])
def test_a_postgresql_restart_under_a_recording_table_is_invisible_once_it_is_back(
    on_cluster: Flask, cluster: Cluster, mode: str
) -> None:
    client = on_cluster.test_client()
    game = start_game(client)
    for number in (1, 2):
        assert deal(client, game, number).status_code == 303
    cluster.restart(mode)
    # every pooled connection was ended by the restart: none of them reaches a request
    statuses = [deal(client, game, number).status_code for number in (3, 4)]
    statuses += [client.get(f"/black-spy/{game}").status_code, client.get("/").status_code, client.get("/history").status_code]
    assert statuses == [303, 303, 200, 200, 200]
    assert deals_of(client, game) == [1, 2, 3, 4]


def test_a_pooled_connection_the_server_ended_while_it_waited_is_replaced_before_a_request_uses_it(
    on_cluster: Flask, cluster: Cluster
) -> None:
    from sqlalchemy import create_engine

    client = on_cluster.test_client()
    game = start_game(client)
    assert deal(client, game, 1).status_code == 303
    with on_cluster.app_context():
        pooled = db.session.execute(sql("SELECT pg_backend_pid()")).scalar()
    # an administrator (or an idle timeout) ends the connection the pool holds for the next request
    admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as connection:
            assert connection.execute(sql("SELECT pg_terminate_backend(:pid, 5000)"), {"pid": pooled}).scalar() is True
    finally:
        admin.dispose()
    assert deal(client, game, 2).status_code == 303
    assert deals_of(client, game) == [1, 2]


def test_a_connection_the_database_ends_once_the_answer_is_made_leaves_the_answer_as_it_is(
    on_cluster: Flask, cluster: Cluster
) -> None:
    from sqlalchemy import create_engine

    admin = create_engine(cluster.url, isolation_level="AUTOCOMMIT")

    # what a restart does to a request that has read what it needed: its connection ends
    # after the page is made, before the request lets go of it
    @on_cluster.after_request
    def connection_ended(response):
        pid = db.session.execute(sql("SELECT pg_backend_pid()")).scalar()
        with admin.connect() as connection:
            connection.execute(sql("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        return response

    client = on_cluster.test_client()
    game = start_game(client)
    try:
        page = client.get(f"/black-spy/{game}")
        assert page.status_code == 200 and "Ana" in page.get_data(as_text=True)
    finally:
        admin.dispose()


def test_a_stopped_postgresql_is_a_503_in_words_and_the_health_check_says_so(on_cluster: Flask, cluster: Cluster) -> None:
    client = on_cluster.test_client()
    game = start_game(client)
    assert deal(client, game, 1).status_code == 303
    assert client.get("/healthz").status_code == 200
    cluster.stop()
    try:
        for htmx in (False, True):
            refused = deal(client, game, 2, htmx=htmx)
            assert refused.status_code == 503, refused.get_data(as_text=True)
            assert UNREACHABLE in refused.get_data(as_text=True)
            assert refused.headers["Retry-After"].isdigit()
        page = client.get(f"/black-spy/{game}")
        assert page.status_code == 503 and UNREACHABLE in page.get_data(as_text=True)
        health = client.get("/healthz")
        assert health.status_code == 503
        assert health.get_data(as_text=True) == "unavailable\n"
    finally:
        cluster.start()
    assert deal(client, game, 2).status_code == 303
    assert deals_of(client, game) == [1, 2]
    assert client.get("/healthz").status_code == 200


def test_the_health_check_asks_no_passcode_counts_no_try_and_says_nothing_more(
    database_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = {"COMPANION_PASSCODE": "open sesame", "COMPANION_HOSTS": "games.example.org"}
    with running_app(database_url, tmp_path / "instance", monkeypatch, **env) as app:
        client = app.test_client()
        site = {"base_url": "http://games.example.org"}
        assert client.get("/", **site).status_code == 303  # every other page asks for the passcode
        answers = [client.get("/healthz", **site) for _ in range(30)]
        # a proxy asks each instance at its own address, which is no name of the site's
        at_the_instance = client.get("/healthz", base_url="http://10.0.0.11:8000")
        assert client.get("/", base_url="http://10.0.0.11:8000").status_code == 400
    assert at_the_instance.status_code == 200 and at_the_instance.get_data(as_text=True) == "ok\n"
    assert {answer.status_code for answer in answers} == {200}
    assert answers[0].get_data(as_text=True) == "ok\n"
    assert answers[0].mimetype == "text/plain"
    assert answers[0].headers["Cache-Control"] == "no-store"
    assert "Set-Cookie" not in answers[0].headers


def test_a_database_error_that_is_no_outage_is_still_a_fault(page_client: FlaskClient) -> None:
    # a table that is not there (an empty database) is the companion's own fault, not a state
    # to wait out: it is not said to the table as one (the test app raises what a server logs)
    with pytest.raises(OperationalError, match="no such table"):
        page_client.get("/history")


def test_an_export_and_a_backup_to_a_full_disk_are_refused_in_words_and_leave_no_file(
    small_disk: SmallDisk, client: FlaskClient, tmp_path: Path, database_url: str
) -> None:
    from tests.test_exchange import companion, play_a_mixed_history

    play_a_mixed_history(client)
    small_disk.fill()
    for command in (["export", "-o", str(small_disk.path / "games.json")], ["backup", str(small_disk.path / "backup.file")]):
        refused = companion(tmp_path, database_url, *command)
        assert refused.returncode == 1, refused
        assert f"The disk holding {small_disk.path} is full" in refused.stderr
        assert "Nothing was written" in refused.stderr or "Nothing was backed up" in refused.stderr
        assert not [path.name for path in small_disk.path.iterdir() if not path.name.startswith(".filler")]
    small_disk.free()
    done = companion(tmp_path, database_url, "export", "-o", str(small_disk.path / "games.json"))
    assert done.returncode == 0, done
    assert json.loads((small_disk.path / "games.json").read_text())["games"]


def test_serve_warns_at_start_of_a_disk_with_little_room(small_disk: SmallDisk) -> None:
    server = Server(small_disk.path / "instance", free_port()).start()
    try:
        printed = (server.folder / "server.log").read_text()
    finally:
        server.stop()
    assert re.search(rf"Warning: the disk holding {re.escape(str(server.folder))} has only \d MB free\.", printed), printed
