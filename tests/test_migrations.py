"""Every schema change ships a migration: the migrated database matches the models."""

from __future__ import annotations

from datetime import datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import JSON, Integer, MetaData, Table, text

from companion import create_app
from companion.store.base import db


def test_the_migrations_build_exactly_the_schema_the_models_describe(app: Flask) -> None:
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def row_for(table: Table, **given: object) -> dict[str, object]:
    """A row any schema accepts: the given values, and a plain value for every other required column."""
    row = dict(given)
    for column in table.columns:
        if column.name in row or column.nullable or column.default is not None or column.server_default is not None:
            continue
        if column.primary_key and isinstance(column.type, Integer) and len(table.primary_key.columns) == 1:
            continue
        kind = column.type.python_type if not isinstance(column.type, JSON) else dict
        row[column.name] = {int: 0, str: f"{column.name[:4]}1", bool: False, datetime: datetime(2026, 1, 1), dict: {}}.get(kind)
    return row


def test_players_kept_before_names_had_keys_get_their_casefolded_key(databases) -> None:
    url = databases.empty()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        directory = app.extensions["migrate"].directory
        upgrade(directory=directory, revision="2994bab3371d")
        with db.engine.begin() as connection:
            for name in ("Əli", "ÁLVARO", "Bob"):
                connection.execute(
                    text("INSERT INTO players (name, created_at) VALUES (:name, :now)"),
                    {"name": name, "now": datetime(2026, 1, 1)},
                )
            # a player sitting in a game: rebuilding the players table must not trip on it
            tables = MetaData()
            tables.reflect(connection)
            connection.execute(tables.tables["games"].insert().values(row_for(tables.tables["games"], id="g1")))
            player = connection.execute(text("SELECT id FROM players WHERE name = 'Bob'")).scalar_one()
            seats = tables.tables["seats"]
            connection.execute(seats.insert().values(row_for(seats, game_id="g1", player_id=player, position=0)))
        upgrade(directory=directory)
        with db.engine.connect() as connection:
            keys = dict(connection.execute(text("SELECT name, key FROM players")).all())
        db.engine.dispose()
    assert keys == {"Əli": "əli", "ÁLVARO": "álvaro", "Bob": "bob"}


def figures_shown(client) -> dict[str, str]:
    """Every figure the list of players and each player's page show, by page."""
    import re

    players = client.get("/players").get_data(as_text=True)
    shown = {"/players": re.sub(r"\s+", " ", players.split('id="standings"', 1)[1].split("</table>", 1)[0])}
    for player_id in re.findall(r'href="/players/(\d+)"', players):
        page = client.get(f"/players/{player_id}").get_data(as_text=True)
        shown[player_id] = re.sub(r"\s+", " ", page.split("</form>", 2)[-1].split('<p class="actions">', 1)[0])
    return shown


def test_moving_each_kinds_statistics_into_its_own_tables_keeps_every_figure(databases, tmp_path, monkeypatch) -> None:
    """A database of the head before the move (b7c8d9e0f1a2), holding finished games of all
    three kinds: its figures, as the shared tables counted them, are every page's after it."""
    import importlib
    import io
    import json

    from flask_migrate import downgrade

    from tests.helpers import make_app
    from tests.test_list_pages_queries import games_of_each_kind

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    url = databases.fresh()
    app = make_app(url)
    client = app.test_client()
    upload = {"file": (io.BytesIO(json.dumps({"format": "companion/1", "games": games_of_each_kind(6)}).encode()), "f.json")}
    assert client.post("/import", data=upload, content_type="multipart/form-data").status_code == 303
    before = figures_shown(client)
    assert len(before) > 5 and any("Golf" in page for page in before.values())
    moved = importlib.import_module("migrations.versions.c4d5e6f7a8b9_each_kind_keeps_its_own_statistics")
    old = importlib.import_module("migrations.versions.2994bab3371d_statistics_kept_per_player_per_day_when_")
    with app.app_context():
        directory = app.extensions["migrate"].directory
        downgrade(directory=directory, revision=moved.down_revision)
        with db.engine.begin() as connection:
            kept = sorted(map(tuple, connection.execute(text("SELECT * FROM player_days"))))
            # the shared table as the app of that head counted it from the games themselves
            connection.execute(text("DELETE FROM player_days"))
            connection.execute(text("DELETE FROM rival_days"))
            connection.execute(text(old._PLAYER_DAYS))
            connection.execute(text(old._RIVAL_DAYS))
            counted = sorted(map(tuple, connection.execute(text("SELECT * FROM player_days"))))
        assert kept == counted and kept
        upgrade(directory=directory)
        db.engine.dispose()
    assert figures_shown(client) == before


def test_open_games_let_their_deal_scores_go_and_a_downgrade_gives_them_back(databases) -> None:
    from flask_migrate import downgrade

    from tests.helpers import post_points, start_game

    url = databases.empty()
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "SQLALCHEMY_DATABASE_URI": url, "WTF_CSRF_ENABLED": False})
    with app.app_context():
        directory = app.extensions["migrate"].directory
        upgrade(directory=directory)
    client = app.test_client()
    open_game, finished = start_game(client), start_game(client, end_value="30")
    for game in (open_game, finished):
        assert post_points(client, game, [20, 15, 25, 0]).status_code == 303
        assert post_points(client, game, [0, 35, 25, 0]).status_code == 303

    def kept(game: str) -> list[tuple[int, int, int, int, bool]]:
        with db.engine.connect() as connection:
            return [
                tuple(row)
                for row in connection.execute(
                    text("SELECT number, seat, raw, score, shot FROM deal_scores WHERE game_id = :game ORDER BY number, seat"),
                    {"game": game},
                )
            ]

    scored = [(1, 0, 20, 20, False), (1, 1, 15, 15, False), (1, 2, 25, 25, False), (1, 3, 0, 0, False)]
    scored += [(2, 0, 0, 0, False), (2, 1, 35, 35, False), (2, 2, 25, 25, False), (2, 3, 0, 0, False)]
    with app.app_context():
        assert (kept(open_game), kept(finished)) == ([], scored)
        downgrade(directory=directory, revision="b5c6d7e8f9a0")
        assert (kept(open_game), kept(finished)) == (scored, scored)
        upgrade(directory=directory)
        assert (kept(open_game), kept(finished)) == ([], scored)
        db.engine.dispose()
