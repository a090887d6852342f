"""Games out and back in as companion/1 files, from the pages and from the command line."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.cli import ScriptInfo
from flask.testing import FlaskClient
from sqlalchemy import select

from companion import cli, create_app
from companion.exchange import writing
from companion.store.base import db
from companion.store.games import Game
from tests.databases import Databases
from tests.helpers import exported, make_app, post_cards, post_points, snapshot, start_game


def play_a_mixed_history(client: FlaskClient) -> list[str]:
    """A finished game, one with a shoot and a by-cards deal, and a house-rules one."""
    finished = start_game(client, names=("Eve", "Fay", "Gus"), end_value="50")
    mixed = start_game(client, first_dealer=2)
    classic = start_game(
        client, names=("Hal", "Ida", "Jo", "Kim", "Lu"), preset="classic", shoot_rule="on", first_lead="dealer-right"
    )
    recorded = [
        post_points(client, finished, [60, 0, 0], shoot="none"),
        post_points(client, mixed, [20, 15, 25, 0]),
        post_points(client, mixed, [65, -5, 0, 0], shoot="0"),
        post_cards(client, mixed, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3),
        post_points(client, classic, [80, 0, 0, 0, 0], shoot="0"),
    ]
    assert [response.status_code for response in recorded] == [303] * len(recorded)
    return [finished, mixed, classic]


def test_a_game_exports_its_inputs_and_what_they_derive(client: FlaskClient) -> None:
    game_id = start_game(client, first_dealer=1)
    post_points(client, game_id, [20, 15, 25, 0])
    data = json.loads(client.get(f"/black-spy/{game_id}/export.json").get_data(as_text=True))
    assert data["format"] == "companion/1"
    (game,) = data["games"]
    assert game["id"] == game_id and game["kind"] == "black-spy"
    assert game["rules"] == {"preset": "standard", "end_value": None, "shoot_rule": None, "first_lead": None}
    assert game["players"] == ["Ana", "Ben", "Cy", "Dee"] and game["first_dealer"] == "Ben"
    assert game["deals"] == [{"raw": {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0}, "shooter": None}]
    derived = game["derived"]
    assert derived["end_value"] == 150 and derived["deal_total"] == 60 and derived["finished"] is False
    assert derived["deals"][0]["dealer"] == "Ben" and derived["deals"][0]["pass"] == "left"
    assert derived["next"] == {"number": 2, "dealer": "Cy", "pass": "right", "cards_each": 15}


def test_export_then_import_then_export_gives_the_same_games(client: FlaskClient, databases: Databases) -> None:
    play_a_mixed_history(client)
    first = exported(client)
    other = make_app(databases.fresh()).test_client()
    upload = {"file": (io.BytesIO(json.dumps(first).encode()), "games.json")}
    response = other.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 303
    second = exported(other)
    assert second["games"] == first["games"]
    assert [game["derived"]["finished"] for game in second["games"]] == [True, False, False]


def test_a_file_with_one_bad_deal_is_refused_whole_naming_the_game_and_deal(client: FlaskClient, app: Flask) -> None:
    play_a_mixed_history(client)
    data = exported(client)
    for game in data["games"]:
        game["id"] = game["id"][::-1]  # new ids, so only the bad deal is wrong
    data["games"][1]["deals"][0]["raw"]["Ana"] = 21
    before = snapshot(app)
    upload = {"file": (io.BytesIO(json.dumps(data).encode()), "games.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Nothing was imported" in html
    assert f"Game 2 ({data['games'][1]['id']}): Deal 1: The points add up to 61, not 60" in html
    assert snapshot(app) == before


def test_an_id_already_here_is_refused_not_overwritten(client: FlaskClient, app: Flask) -> None:
    play_a_mixed_history(client)
    data = exported(client)
    before = snapshot(app)
    upload = {"file": (io.BytesIO(json.dumps(data).encode()), "games.json")}
    response = client.post("/import", data=upload, content_type="multipart/form-data")
    assert response.status_code == 422
    assert "a game with this id is already here" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_an_import_without_ids_makes_new_games(client: FlaskClient, app: Flask) -> None:
    data = {
        "format": "companion/1",
        "games": [
            {
                "kind": "black-spy",
                "players": ["Ana", "Ben", "Cy"],
                "first_dealer": "Cy",
                "deals": [{"raw": {"Ana": 60, "Ben": 0, "Cy": 0}, "shooter": "Ana"}],
            }
        ],
    }
    upload = {"file": (io.BytesIO(json.dumps(data).encode()), "games.json")}
    assert client.post("/import", data=upload, content_type="multipart/form-data").status_code == 303
    (game,) = exported(client)["games"]
    assert game["derived"]["totals"] == {"Ana": 0, "Ben": 60, "Cy": 60}


def test_files_that_are_not_games_are_refused_in_words(client: FlaskClient, app: Flask) -> None:
    before = snapshot(app)
    for content, message in [
        (b"\xff\xfe not json", "the file is not JSON text"),
        (b"[1, 2, 3]", "is not a companion/1 file"),
        (b'{"format": "companion/1", "games": [{"players": "Ana"}]}', "players must be a list of names"),
        (
            b'{"format": "companion/1", "games": [{"players": ["A", "B", "C"], "first_dealer": "A", "deals": [{"raw": {"A": true, "B": 30, "C": 30}}]}]}',
            "A&#39;s points must be a whole number",
        ),
    ]:
        upload = {"file": (io.BytesIO(content), "games.json")}
        response = client.post("/import", data=upload, content_type="multipart/form-data")
        assert response.status_code == 422
        assert message in response.get_data(as_text=True)
    assert snapshot(app) == before


# --- the command line ------------------------------------------------------------------


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


def companion(tmp_path: Path, database: str, *args: str) -> Ran:
    """The ``companion`` command run in this process, as the installed one runs it (its click
    group, its app factory reading the environment): a fraction of a second where a new
    process takes two. One test below runs the installed command itself.

    A command that ends in an exception it did not turn into words fails the test with it:
    a person at the command line would have seen a traceback."""
    env = {"DATABASE_URL": database, "COMPANION_INSTANCE": str(tmp_path / "instance")}
    made: list[Flask] = []

    def the_commands_app() -> Flask:
        made.append(create_app())
        return made[-1]

    try:
        result = CliRunner().invoke(cli.main, list(args), env=env, obj=ScriptInfo(create_app=the_commands_app))
    finally:
        for app in made:  # its connections closed, as a process's are when it ends
            with app.app_context():
                db.engine.dispose()
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"companion {' '.join(args)} ended in a traceback:\n{result.stderr}") from result.exception
    return Ran(result.exit_code, result.stdout, result.stderr)


def installed_companion(tmp_path: Path, database: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database, "COMPANION_INSTANCE": str(tmp_path / "instance")}
    command = [str(Path(sys.executable).with_name("companion")), *args]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=60, check=False)


def test_the_command_line_imports_and_exports_on_a_fresh_database(
    client: FlaskClient, tmp_path: Path, empty_database: str
) -> None:
    play_a_mixed_history(client)
    source = exported(client)
    file = tmp_path / "games.json"
    file.write_text(json.dumps(source))
    # the installed command, in a process of its own, as a person at the machine runs it
    imported = installed_companion(tmp_path, empty_database, "import", str(file))
    assert imported.returncode == 0, imported.stderr
    assert "Imported 3 game(s)" in imported.stdout and "Traceback" not in imported.stderr
    out = tmp_path / "out.json"
    assert installed_companion(tmp_path, empty_database, "export", "-o", str(out)).returncode == 0
    assert json.loads(out.read_text())["games"] == source["games"]
    one = companion(tmp_path, empty_database, "export", "--game", source["games"][1]["id"])
    assert [game["id"] for game in json.loads(one.stdout)["games"]] == [source["games"][1]["id"]]


def test_the_command_line_refuses_a_bad_file_with_a_non_zero_status_and_writes_nothing(
    client: FlaskClient, tmp_path: Path, empty_database: str
) -> None:
    play_a_mixed_history(client)
    data = exported(client)
    data["games"][2]["deals"].append({"raw": {"Hal": 1, "Ida": 2, "Jo": 3, "Kim": 4, "Lu": 5}, "shooter": None})
    file = tmp_path / "bad.json"
    file.write_text(json.dumps(data))
    refused = companion(tmp_path, empty_database, "import", str(file))
    assert refused.returncode == 1
    assert f"Game 3 ({data['games'][2]['id']}): Deal 2: The points add up to 15, not 80" in refused.stderr
    after = companion(tmp_path, empty_database, "export")
    assert json.loads(after.stdout)["games"] == []


def test_a_backup_taken_while_the_app_runs_holds_every_game(client: FlaskClient, tmp_path: Path, database_url: str) -> None:
    import sqlite3

    from sqlalchemy.engine import make_url

    games = play_a_mixed_history(client)
    file = tmp_path / "backup"
    made = companion(tmp_path, database_url, "backup", str(file))
    assert made.returncode == 0, made.stderr
    if make_url(database_url).get_backend_name() == "sqlite":
        with sqlite3.connect(file) as copy:
            assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            stored = {row[0] for row in copy.execute("SELECT id FROM games")}
    else:
        stored = {game["id"] for game in json.loads(file.read_text())["games"]}
    assert stored == set(games)


def test_a_backup_of_a_database_that_is_not_there_is_refused_and_creates_nothing(tmp_path: Path, databases: Databases) -> None:
    mistyped = tmp_path / "companoin.sqlite3"
    refused = companion(tmp_path, f"sqlite:///{mistyped}", "backup", str(tmp_path / "backup"))
    assert refused.returncode == 1 and "There is no database at" in refused.stderr and "Traceback" not in refused.stderr
    assert not mistyped.exists() and not (tmp_path / "backup").exists()
    # a database with no companion tables in it is no source either
    other = databases.empty()
    if other.startswith("sqlite"):
        import sqlite3

        with sqlite3.connect(other.removeprefix("sqlite:///")) as connection:
            connection.execute("CREATE TABLE notes (text)")
    empty = companion(tmp_path, other, "backup", str(tmp_path / "backup"))
    assert empty.returncode == 1 and "has no companion games" in empty.stderr, empty.stderr
    assert not (tmp_path / "backup").exists()


def test_a_backup_into_a_folder_that_is_not_there_says_so(client: FlaskClient, tmp_path: Path, database_url: str) -> None:
    play_a_mixed_history(client)
    refused = companion(tmp_path, database_url, "backup", str(tmp_path / "no" / "such" / "backup"))
    assert refused.returncode == 1 and "does not exist" in refused.stderr and "Traceback" not in refused.stderr


def test_a_file_exported_before_game_kinds_were_one_shape_imports_unchanged(client: FlaskClient) -> None:
    # exported by the companion at commit 5740512, before the registry of kinds and the score pad
    fixture = Path(__file__).parent / "fixtures" / "companion-1-from-5740512.json"
    before = json.loads(fixture.read_text(encoding="utf-8"))
    assert {game["kind"] for game in before["games"]} == {"black-spy", "spy"}
    response = client.post(
        "/import", data={"file": (io.BytesIO(fixture.read_bytes()), "old.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 303
    assert exported(client)["games"] == before["games"]


# --- a club's whole history, in bounded memory ---------------------------------------------


def many_games(count: int) -> dict:
    """Black Spy games over by their last deal, and score pads ended, on several days."""
    names = ["Ana", "Ben", "Cy"]
    games = [
        {
            "kind": "black-spy",
            "players": names,
            "first_dealer": "Ana",
            "created_at": f"2025-03-{1 + n % 28:02d}T20:{n % 60:02d}:00Z",
            "rules": {"end_value": 25 * (1 + n % 3)},
            "deals": [{"raw": {"Ana": 20, "Ben": 25, "Cy": 15}}] * (1 + n % 3),
        }
        if n % 3
        else {
            "kind": "scorepad",
            "name": "Golf",
            "players": names,
            "created_at": f"2025-04-{1 + n % 28:02d}T21:00:00Z",
            "ended": True,
            "rounds": [{"Ana": 1, "Ben": 2, "Cy": 3}] * (n % 4),
        }
        for n in range(count)
    ]
    return {"format": "companion/1", "games": games}


def held_games() -> int:
    return sum(isinstance(item, Game) for item in db.session.identity_map.values())


@pytest.mark.parametrize("address", ["/export.json", "/export.csv"])
def test_an_export_of_every_game_is_made_as_it_is_sent_a_batch_of_games_at_a_time(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch, address: str
) -> None:
    monkeypatch.setattr(writing, "EXPORT_BATCH", 5)
    file = many_games(23)
    imported = client.post(
        "/import", data={"file": (io.BytesIO(json.dumps(file).encode()), "games.json")}, content_type="multipart/form-data"
    )
    assert imported.status_code == 303
    response = client.get(address, buffered=False)
    assert response.status_code == 200 and response.is_streamed
    chunks, most = [], 0
    for chunk in response.response:
        chunks.append(chunk if isinstance(chunk, bytes) else chunk.encode())
        most = max(most, held_games())
    # never more than a batch of games in memory at once, though all 23 went out
    assert 0 < most <= 5
    body = b"".join(chunks).decode()
    with app.app_context():
        games = db.session.scalars(select(Game).order_by(Game.created_at, Game.id)).all()
        if address.endswith(".json"):
            whole = writing.export_file(games)
        else:
            whole_csv = writing.csv_text(games)
    if address.endswith(".json"):
        streamed = json.loads(body)
        assert streamed["games"] == whole["games"] and len(streamed["games"]) == 23
    else:
        assert body == whole_csv and body.count("\n") > 23


def test_the_command_line_export_and_backup_are_whole_or_not_there_and_private(
    client: FlaskClient, tmp_path: Path, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stat

    play_a_mixed_history(client)
    out = tmp_path / "out.json"
    made = companion(tmp_path, database_url, "export", "-o", str(out))
    assert made.returncode == 0 and len(json.loads(out.read_text())["games"]) == 3
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    backup = tmp_path / "backup"
    assert companion(tmp_path, database_url, "backup", str(backup)).returncode == 0
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    # an export that fails half way leaves the file that was there, and no half of a new one
    out.write_text("before")

    def failing(games):
        yield '{"format": "companion/1", "games": ['
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli, "export_chunks", failing)
    refused = companion(tmp_path, database_url, "export", "-o", str(out))
    assert refused.returncode == 1 and "No space left on device" in refused.stderr and "Nothing was written" in refused.stderr
    assert out.read_text() == "before"
    assert [path.name for path in tmp_path.iterdir() if path.name.endswith(".partial")] == []


def test_the_instance_folder_and_every_database_file_in_it_are_its_owners_alone(tmp_path: Path) -> None:
    import stat

    instance = tmp_path / "instance"
    instance.mkdir(mode=0o755)
    instance.chmod(0o755)
    database = instance / "companion.sqlite3"
    # a database made by the migrations, as `make serve` makes it on a first start
    made = companion(tmp_path, f"sqlite:///{database}", "db", "upgrade")
    assert made.returncode == 0, made.stderr
    assert stat.S_IMODE(instance.stat().st_mode) == 0o700
    files = [path for path in instance.iterdir() if path.name.startswith("companion.sqlite3")]
    assert database in files
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
    # an older install's wider files are narrowed at the next start
    database.chmod(0o644)
    assert companion(tmp_path, f"sqlite:///{database}", "export").returncode == 0
    assert stat.S_IMODE(database.stat().st_mode) == 0o600


def test_the_count_of_wrong_passcodes_is_kept_in_a_file_of_its_owners_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import stat

    monkeypatch.setenv("COMPANION_INSTANCE", str(tmp_path / "instance"))
    app = make_app(f"sqlite:///{tmp_path / 'db.sqlite3'}", PASSCODE="secret", WTF_CSRF_ENABLED=False)
    assert app.test_client().post("/passcode", data={"passcode": "wrong"}).status_code == 401
    counts = [path for path in (tmp_path / "instance").iterdir() if path.name.startswith("ratelimits.sqlite3")]
    assert counts
    for path in counts:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path.name
