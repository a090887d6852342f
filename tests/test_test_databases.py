"""The databases the tests get are as the migrations build them, every time: on PostgreSQL a
database one test is done with is emptied and given to the next (tests/databases.py), and it
must then hold what a new copy of the template holds, its counters started again."""

from __future__ import annotations

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from tests.databases import Databases


def contents(url: str) -> tuple[str, dict[str, int], int]:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar_one()
            counts = {
                table: connection.execute(text(f'SELECT count(*) FROM "{table}"')).scalar_one() for table in ("players", "games")
            }
            made = connection.execute(
                text("INSERT INTO players (name, key, created_at) VALUES ('Ana', 'ana', CURRENT_TIMESTAMP) RETURNING id")
            ).scalar_one()
            connection.commit()
    finally:
        engine.dispose()
    return version, counts, made


def test_a_database_a_test_is_done_with_comes_to_the_next_as_a_new_copy_would(databases: Databases) -> None:
    first = databases.fresh()
    version, counts, first_id = contents(first)
    assert counts == {"players": 0, "games": 0}
    databases.release(first)
    second = databases.fresh()
    again = contents(second)
    # no row of the test before, the same version, and the first row numbered as in a new copy
    assert again == (version, counts, first_id)
    databases.release(second)


def test_a_database_whose_tables_a_test_changed_is_not_given_again(databases: Databases) -> None:
    url = databases.fresh()
    engine = create_engine(url, poolclass=NullPool)
    with engine.begin() as connection:
        connection.execute(text("CREATE TABLE scratch (id integer)"))
    engine.dispose()
    databases.release(url)
    assert databases.fresh() != url
