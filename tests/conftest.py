"""An app per test, each on its own copy of a freshly migrated database.

SQLite by default; PostgreSQL when TEST_DATABASE_URL is set. make test runs every test on
SQLite, then on PostgreSQL only the tests marked ``database``: the marker is given here to
every test that reaches a database through these fixtures, so a new test gets it by using them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.databases import Databases
from tests.helpers import running_app

# every way a test reaches a database starts from one of these (a real server's fixture
# takes `databases`); pytest's fixture closure finds them however deep they are
DATABASE_FIXTURES = frozenset({"databases", "database_url", "app", "client"})

# a `companion serve` a test starts runs one worker process, not one per core: each worker
# builds the whole app (about a second of CPU on this machine), tests start some thirty
# servers, and no test's phones are more than one worker keeps busy. The run's own setting,
# if it has one, holds
os.environ.setdefault("WEB_CONCURRENCY", "1")


# the modules whose tests run for seconds each (servers started and stopped, processes and
# files built, the fuzz): handed to the parallel workers first, so that the run does not end
# with one worker on a long test while the others wait
LONG_FIRST = (
    "test_hostile_input.py",
    "test_serving.py",
    "test_two_instances.py",
    "test_server_under_stress.py",
    "test_import_bounds.py",
    "test_wheel.py",
    "test_outages.py",
    "test_behind_caddy.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.database)
    items.sort(key=lambda item: item.path.name not in LONG_FIRST)  # stable: the order within each is kept


@pytest.fixture(scope="session")
def databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    made = Databases(tmp_path_factory.mktemp("databases"))
    yield made
    made.close()


@pytest.fixture(scope="session")
def sqlite_databases(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Databases]:
    """SQLite files whatever the pass: for tests of the server process and the address it is
    reached at (listeners, certificates, connections, proxies), which do not vary by the
    database engine and so need no PostgreSQL pass."""
    made = Databases(tmp_path_factory.mktemp("sqlite-databases"), server="")
    yield made
    made.close()


@pytest.fixture
def sqlite_database_url(sqlite_databases: Databases) -> Iterator[str]:
    """A fresh migrated SQLite database, whatever the pass (see ``sqlite_databases``)."""
    url = sqlite_databases.fresh()
    yield url
    sqlite_databases.drop(url)


@pytest.fixture
def database_url(databases: Databases) -> Iterator[str]:
    """A fresh database built by the real migrations, for this test alone."""
    url = databases.fresh()
    yield url
    databases.release(url)


@pytest.fixture
def empty_database(databases: Databases) -> str:
    """A database with no tables yet, for a command that migrates it first."""
    return databases.empty()


@pytest.fixture
def app(tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    with running_app(database_url, tmp_path / "instance", monkeypatch) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def page_client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FlaskClient]:
    """A phone's view of an app with no database behind it (an empty one, in memory): for
    pages made from the rules and files alone, which need no PostgreSQL pass. A page that
    reads the database fails here, and its test belongs on ``client``."""
    with running_app("sqlite://", tmp_path / "instance", monkeypatch) as app:
        yield app.test_client()
