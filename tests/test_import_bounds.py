"""What an import file can do to a server: quick, bounded, never a server error.

A file is read and checked whole by the rules before the database is touched, then
written in one short transaction; what one file may hold is bounded; every malformed
shape is refused in words, and a refusal changes nothing.
"""

from __future__ import annotations

import io
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from companion.kinds.black_spy.codec import MAX_DEALS
from companion.kinds.black_spy.stats import PlayerDay, RivalDay, rebuild_all
from companion.kinds.spy.codec import MAX_TURNS
from companion.rules import files
from companion.store.base import db
from companion.store.games import Game
from tests.helpers import exported, post_points, snapshot, start_game
from tests.history_helpers import assert_kept_figures_equal_the_fold
from tests.test_exchange import companion, play_a_mixed_history


def upload(client: FlaskClient, content: bytes, **form: str):
    data: dict[str, Any] = {"file": (io.BytesIO(content), "games.json"), **form}
    return client.post("/import", data=data, content_type="multipart/form-data")


def a_file(games: list[dict[str, Any]]) -> bytes:
    return json.dumps({"format": "companion/1", "games": games}).encode()


def black_spy_game(number: int, deals: int = 0, **fields: Any) -> dict[str, Any]:
    names = [f"P{number % 50}", f"Q{number % 37}", f"R{number % 23}"]
    return {
        "kind": "black-spy",
        "players": names,
        "first_dealer": names[0],
        "created_at": f"2025-{1 + number % 12:02d}-{1 + number % 28:02d}T20:00:00Z",
        "deals": [{"raw": dict(zip(names, (20, 15, 25), strict=True)), "shooter": None}] * deals,
        **fields,
    }


def refused_in_words(client: FlaskClient, app: Flask, content: bytes, words: str) -> str:
    before = snapshot(app)
    response = upload(client, content)
    html = response.get_data(as_text=True)
    assert response.status_code == 422, html[:500]
    assert "Nothing was imported" in html and words in html, html[:2000]
    assert snapshot(app) == before
    return html


# --- 1. a large file, written in one short transaction --------------------------------------


def test_a_large_file_is_stored_whole_with_its_kept_figures_and_statistics(client: FlaskClient, app: Flask) -> None:
    games = [black_spy_game(number, deals=number % 9) for number in range(600)]
    response = upload(client, a_file(games))
    assert response.status_code == 303
    with app.app_context():
        ids = db.session.scalars(select(Game.id)).all()
        assert len(ids) == 600
        kept = db.session.execute(
            select(PlayerDay.player_id, PlayerDay.day, PlayerDay.games, PlayerDay.deals, PlayerDay.score_sum)
        ).all()
        rivals = db.session.execute(select(RivalDay.player_id, RivalDay.opponent_id, RivalDay.day, RivalDay.games)).all()
        rebuild_all()
        db.session.commit()
        assert sorted(map(tuple, kept)) == sorted(
            map(
                tuple,
                db.session.execute(
                    select(PlayerDay.player_id, PlayerDay.day, PlayerDay.games, PlayerDay.deals, PlayerDay.score_sum)
                ).all(),
            )
        )
        assert sorted(map(tuple, rivals)) == sorted(
            map(tuple, db.session.execute(select(RivalDay.player_id, RivalDay.opponent_id, RivalDay.day, RivalDay.games)).all())
        )
        assert kept, "the finished games count in the statistics"
    for game_id in ids[::50]:
        assert_kept_figures_equal_the_fold(app, game_id)


def test_another_table_keeps_recording_while_a_large_file_is_imported(app: Flask) -> None:
    scorer = app.test_client()
    table = start_game(scorer, end_value="5000")
    content = a_file([black_spy_game(number, deals=3) for number in range(3000)])
    imported: list[int] = []
    importer = threading.Thread(target=lambda: imported.append(upload(app.test_client(), content).status_code))
    importer.start()
    statuses = []
    while importer.is_alive() or not statuses:
        if len(statuses) % 150 == 149:
            # a new game before this one reaches its end: an import written in short
            # transactions leaves the table time for many deals
            table = start_game(scorer, end_value="5000")
        statuses.append(post_points(scorer, table, [20, 15, 25, 0]).status_code)
    importer.join()
    assert imported == [303]
    assert set(statuses) == {303}, statuses


def test_one_bad_game_among_thousands_refuses_the_file_whole(client: FlaskClient, app: Flask) -> None:
    games = [black_spy_game(number, deals=2) for number in range(2000)]
    games[500]["deals"][1] = {"raw": dict(zip(games[500]["players"], (20, 15, 26), strict=True)), "shooter": None}
    refused_in_words(client, app, a_file(games), "Game 501: Deal 2: The points add up to 61, not 60")


# --- 4. bounds on what one file may hold ----------------------------------------------------


def test_a_file_of_more_games_than_one_file_may_hold_is_refused_at_once_in_a_short_page(client: FlaskClient, app: Flask) -> None:
    content = b'{"format": "companion/1", "games": [' + b",".join([b"{}"] * 500_000) + b"]}"
    html = refused_in_words(client, app, content, f"one file may hold at most {files.MAX_GAMES:,}".replace(",", ","))
    assert len(html) < 20_000


def test_a_refusal_lists_the_first_problems_and_counts_the_rest(client: FlaskClient, app: Flask) -> None:
    html = refused_in_words(client, app, a_file([{"kind": "chess"}] * 150), "unknown kind")
    assert html.count("<li>") == files.MAX_PROBLEMS_LISTED
    assert f"and {150 - files.MAX_PROBLEMS_LISTED} more problems" in html


def test_a_spy_game_of_more_turns_than_a_game_may_have_is_refused(client: FlaskClient, app: Flask) -> None:
    game = {
        "kind": "spy",
        "players": ["Ana", "Ben"],
        "colours": {"Ana": "green", "Ben": "red"},
        "first_player": "Ana",
        "turns": [{"player": name, "spy": None} for _ in range(20_000) for name in ("Ana", "Ben")],
    }
    refused_in_words(client, app, a_file([game]), f"a game may have at most {MAX_TURNS:,} turns".replace(",", ","))


def test_a_black_spy_game_of_more_deals_than_a_game_may_have_is_refused(client: FlaskClient, app: Flask) -> None:
    refused_in_words(client, app, a_file([black_spy_game(1, deals=MAX_DEALS + 1)]), "a game may have at most")


# --- 5. shapes that once gave a server error ----------------------------------------------------


SPY_GAME = {"kind": "spy", "players": ["Ana", "Ben"], "colours": {"Ana": "green", "Ben": "red"}, "first_player": "Ana"}


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"[" * 990 + b"]" * 990, "more than 16 deep"),
        (b'{"format": "companion/1", "games": [' + b"[" * 5000 + b"]" * 5000 + b"]}", "more than 16 deep"),
        (b'{"format": "companion/1", "games": [], "n": ' + b"9" * 5000 + b"}", "a number of 5,000 digits"),
        (a_file([{"kind": [], "players": ["A", "B", "C"]}]), "unknown kind"),
        (a_file([{"kind": {"a": 1}}]), "unknown kind"),
        (
            a_file([{**SPY_GAME, "turns": [{"player": "Ana", "spy": {"target": "Ben", "slot": 1, "answer": ["target"]}}]}]),
            "unknown answer",
        ),
        (
            a_file([{**SPY_GAME, "spies": {"Ana": {"slot": 1, "facing": {"left": True}}, "Ben": {"slot": 1, "facing": "left"}}}]),
            "needs a slot and a facing",
        ),
        (a_file([{**SPY_GAME, "first_player": ["Ana"]}]), "is not one of the players"),
        (a_file([{**SPY_GAME, "turns": [{"player": ["Ana"]}]}]), "a turn names its player"),
        (a_file([black_spy_game(1, first_dealer={"P1": 1})]), "is not one of the players"),
        # a value the file left out or set to null is said as the file says it, not in Python's words
        (a_file([black_spy_game(1, first_dealer=None)]), "the first dealer null is not one of the players"),
        (a_file([{**SPY_GAME, "first_player": True}]), "the first player true is not one of the players"),
        (a_file([black_spy_game(1, created_at="9999-12-31T00:00:00")]), "is not a time a game was played"),
        (a_file([black_spy_game(1, created_at="0001-01-01T00:00:00+01:00")]), "is not an ISO 8601 time"),
        (a_file([black_spy_game(1, created_at="0001-01-01")]), "is not a time a game was played"),
        (b'{"format": "companion/1", "format": "companion/1", "games": []}', "gives &#39;format&#39; twice in one object"),
        (b"\xef\xbb\xbf[1]", "is not a companion/1 file"),
        (b"\xff\xfe\x00", "the file is not JSON text"),
    ],
)
def test_a_malformed_file_is_refused_in_words_and_changes_nothing(
    client: FlaskClient, app: Flask, content: bytes, words: str
) -> None:
    refused_in_words(client, app, content, words)


def test_the_command_line_refuses_a_malformed_file_in_words_without_a_traceback(tmp_path: Path, empty_database: str) -> None:
    for content, words in [
        (b"[" * 990 + b"]" * 990, "more than 16 deep"),
        (a_file([black_spy_game(1, created_at="0001-01-01T00:00:00+01:00")]), "is not an ISO 8601 time"),
        (b'{"format": "companion/1", "games": [], "n": ' + b"9" * 5000 + b"}", "digits"),
    ]:
        file = tmp_path / "bad.json"
        file.write_bytes(content)
        refused = companion(tmp_path, empty_database, "import", str(file))
        assert refused.returncode == 1
        assert words in refused.stderr and "Traceback" not in refused.stderr, refused.stderr


# --- 10. ids, byte-order marks, repeated keys --------------------------------------------------


def test_a_file_with_a_byte_order_mark_is_read(client: FlaskClient, app: Flask) -> None:
    assert upload(client, b"\xef\xbb\xbf" + a_file([black_spy_game(1)])).status_code == 303
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 1


def test_ids_too_short_or_malformed_to_keep_private_are_replaced_and_the_import_says_so(client: FlaskClient, app: Flask) -> None:
    long_id = "AbCdEfGhIjKlMnOp"  # longer than a new id, of the same letters: kept
    games = [
        black_spy_game(1, id="abcd"),
        black_spy_game(2, id="with-dash-and-more"),
        black_spy_game(3, id=long_id),
        black_spy_game(4, id=12345678901),
    ]
    response = upload(client, a_file(games))
    assert response.status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "Imported 4 games." in page
    assert "3 games had ids too short or malformed to keep private and were given new ones" in page
    with app.app_context():
        ids = set(db.session.scalars(select(Game.id)))
    assert long_id in ids and "abcd" not in ids and "with-dash-and-more" not in ids
    assert all(len(game_id) >= 10 and game_id.isalnum() for game_id in ids)


# --- 15.17: restoring a backup into the companion it came from ------------------------------------


def test_a_backup_restored_where_it_came_from_offers_to_skip_the_games_already_here(client: FlaskClient, app: Flask) -> None:
    play_a_mixed_history(client)
    backup = exported(client)
    extra = black_spy_game(7)
    backup["games"].append(extra)
    content = json.dumps(backup).encode()
    before = snapshot(app)
    refused = upload(client, content)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422 and "3 games of this file are already here" in html
    assert "there is nothing to fix in the file" in html and "Fix them and import it again" not in html
    assert 'name="skip_existing" value="yes" checked' in html
    assert snapshot(app) == before
    response = upload(client, content, skip_existing="yes")
    assert response.status_code == 303
    page = client.get("/").get_data(as_text=True)
    assert "Imported 1 game." in page and "3 games were already here and were skipped." in page
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 4


def test_skipping_the_games_already_here_is_still_all_or_nothing_for_the_rest(client: FlaskClient, app: Flask) -> None:
    play_a_mixed_history(client)
    backup = exported(client)
    backup["games"].append(black_spy_game(7, deals=1))
    backup["games"][-1]["deals"][0]["raw"]["P7"] = 99
    before = snapshot(app)
    assert upload(client, json.dumps(backup).encode(), skip_existing="yes").status_code == 422
    assert snapshot(app) == before


def test_the_command_line_skips_the_games_already_here_when_asked(
    client: FlaskClient, tmp_path: Path, empty_database: str
) -> None:
    play_a_mixed_history(client)
    file = tmp_path / "games.json"
    file.write_text(json.dumps(exported(client)))
    assert companion(tmp_path, empty_database, "import", str(file)).returncode == 0
    again = companion(tmp_path, empty_database, "import", str(file))
    assert again.returncode == 1 and "--skip-existing" in again.stderr
    skipped = companion(tmp_path, empty_database, "import", "--skip-existing", str(file))
    assert skipped.returncode == 0, skipped.stderr
    assert "Imported 0 game(s)" in skipped.stdout and "3 games were already here and were skipped." in skipped.stdout


# --- 7. a spreadsheet never reads a name as a formula ----------------------------------------------


def test_names_a_spreadsheet_would_read_as_formulas_are_exported_as_text(client: FlaskClient) -> None:
    names = ('=HYPERLINK("http://x")', "+Ben", "-Cy", "@Dee")
    game_id = start_game(client, names=names)
    post_points(client, game_id, [20, 15, 25, 0])
    for url in ("/export.csv", f"/black-spy/{game_id}/export.csv"):
        import csv

        rows = list(csv.DictReader(io.StringIO(client.get(url).get_data(as_text=True))))
        assert {row["player"] for row in rows} == {"'" + name for name in names}
        assert all(
            not row["player"].startswith(("=", "+", "-", "@")) and not row["dealer"].startswith(("=", "+", "-", "@"))
            for row in rows
        )
        # numbers stay numbers, negative ones too
        assert [row["raw_points"] for row in rows] == ["20", "15", "25", "0"]


def test_a_file_of_both_kinds_is_stored_whole(client: FlaskClient, app: Flask) -> None:
    spy_game = {
        "kind": "spy",
        "players": ["Ana", "Ben"],
        "colours": {"Ana": "green", "Ben": "red"},
        "first_player": "Ana",
        "turns": [{"player": "Ana", "spy": None}],
    }
    assert upload(client, a_file([black_spy_game(1, deals=1), spy_game, black_spy_game(2)])).status_code == 303
    with app.app_context():
        kinds = sorted(db.session.scalars(select(Game.kind)))
    assert kinds == ["black-spy", "black-spy", "spy"]


def test_a_large_import_is_written_in_short_transactions_and_keeps_every_figure(app, client, monkeypatch) -> None:
    from sqlalchemy import event, select

    from companion.kinds.black_spy.stats import PlayerDay, rebuild_all
    from companion.service import imports as exchange
    from companion.store.base import db
    from tests.test_exchange import many_games

    monkeypatch.setattr(exchange, "IMPORT_BATCH", 4)
    monkeypatch.setattr(exchange, "BATCH_PAUSE_SECONDS", 0)
    commits: list[int] = []
    with app.app_context():
        event.listen(db.session, "after_commit", lambda _session: commits.append(1))
    response = client.post(
        "/import",
        data={"file": (io.BytesIO(json.dumps(many_games(10)).encode()), "games.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 303
    # ten games, four to a transaction: three transactions that wrote, each holding the lock briefly
    assert len(commits) >= 3
    with app.app_context():
        kept = sorted(
            map(
                tuple,
                db.session.execute(select(PlayerDay.player_id, PlayerDay.day, PlayerDay.games, PlayerDay.wins, PlayerDay.deals)),
            )
        )
        rebuild_all()
        recounted = sorted(
            map(
                tuple,
                db.session.execute(select(PlayerDay.player_id, PlayerDay.day, PlayerDay.games, PlayerDay.wins, PlayerDay.deals)),
            )
        )
        db.session.rollback()
    assert kept == recounted and kept


def test_an_import_that_fails_part_way_takes_out_what_it_wrote(app, client, monkeypatch) -> None:
    from sqlalchemy.exc import IntegrityError

    from companion.service import imports as exchange
    from tests.helpers import snapshot
    from tests.test_exchange import many_games

    client.post(
        "/import",
        data={"file": (io.BytesIO(json.dumps(many_games(3)).encode()), "games.json")},
        content_type="multipart/form-data",
    )
    monkeypatch.setattr(exchange, "IMPORT_BATCH", 4)
    monkeypatch.setattr(exchange, "BATCH_PAUSE_SECONDS", 0)
    written = exchange._write
    calls: list[int] = []

    def second_batch_meets_another_import(batch, now):
        calls.append(1)
        if len(calls) == 2:
            raise IntegrityError("INSERT INTO games", {}, Exception("UNIQUE constraint failed: games.id"))
        return written(batch, now)

    monkeypatch.setattr(exchange, "_write", second_batch_meets_another_import)
    before = snapshot(app)
    response = client.post(
        "/import",
        data={"file": (io.BytesIO(json.dumps(many_games(10)).encode()), "games.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert "Another import added some of these games just now, so nothing was imported" in response.get_data(as_text=True)
    assert len(calls) == 2
    assert snapshot(app) == before
