"""The ``companion`` command: serve the app, export and import games.

Every command applies the database migrations first, so each works on a fresh,
empty database.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import click
from flask import Flask
from flask.cli import FlaskGroup, with_appcontext
from flask_migrate import upgrade
from sqlalchemy.engine import URL

from . import create_app
from .exchange.reading import ImportRefused, parse_file, read_json
from .exchange.writing import every_game, export_chunks
from .paths import low_disk, private_files
from .store.base import db
from .store.games import Game


@click.group(cls=FlaskGroup, create_app=create_app, add_default_commands=True, add_version_option=False)
def main() -> None:
    """The table companion for Black Spy and Spy."""


def cores() -> int:
    """The cores this process may run on (a container may allow fewer than the machine has)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def https_port_option(value: str | int | None) -> int | None:
    """HTTPS_PORT: a port number, or "off" for no secure listener."""
    text = str(value if value is not None else "8443").strip().lower()
    if text in ("off", "no", "none", "0", "false", ""):
        return None
    try:
        port = int(text)
    except ValueError:
        raise click.BadParameter(f"{value!r} is neither a port number nor off", param_hint="HTTPS_PORT") from None
    if not 0 < port < 65536:
        raise click.BadParameter(f"{port} is not a port number (1 to 65535)", param_hint="HTTPS_PORT")
    return port


@main.command("serve")
@click.option("--host", default=lambda: os.environ.get("HOST", "0.0.0.0"), show_default="0.0.0.0 or $HOST")
@click.option("--port", default=lambda: int(os.environ.get("PORT", "8000")), type=int, show_default="8000 or $PORT")
@click.option(
    "--https-port",
    default=lambda: os.environ.get("HTTPS_PORT", "8443"),
    show_default="8443 or $HTTPS_PORT; off for none",
    help="Where the secure address listens, or off.",
)
# two, measured (benchmarks/load.py --threads, docs/benchmarks.md): a request is mostly
# Python holding the GIL, so more threads only queue behind it, and a writer that waits
# there holds SQLite's write lock (or PostgreSQL's row lock) for every other table
@click.option("--threads", default=2, type=int, show_default=True, help="Requests served at once, per process.")
@click.option(
    "--workers",
    default=lambda: int(os.environ.get("WEB_CONCURRENCY", "0")) or cores(),
    type=int,
    show_default="one per core, or $WEB_CONCURRENCY",
    help="Processes per address.",
)
@with_appcontext
def serve(host: str, port: int, https_port: str, threads: int, workers: int) -> None:
    """Apply migrations and serve the app: the plain address and the secure one beside it."""
    from flask import current_app

    from .serving import addresses, granian, tls

    app = current_app._get_current_object()  # type: ignore[attr-defined]  # werkzeug's proxy: the app itself, to hand to the server
    secure = https_port_option(https_port)
    upgrade(directory=app.extensions["migrate"].directory)
    _warn_of_low_disk(app)
    material = None
    if secure is not None:
        try:
            names = addresses.wanted_names(addresses.extra_names_from_env(os.environ.get("COMPANION_TLS_NAMES")))
            material = tls.ensure(Path(app.instance_path) / "tls", names)
        except ValueError as refused:
            raise click.ClickException(f"COMPANION_TLS_NAMES: {refused}") from None
        except RuntimeError as refused:
            # an authority half gone: say what to do, and never make a new one unasked
            raise click.ClickException(str(refused)) from None
    # the worker processes build their own app: they read it from here (companion/sharing.py)
    os.environ["COMPANION_LISTENS_ON"] = host
    app.config["LISTENS_ON"] = host
    click.echo(granian.banner(host, port, secure, material))
    sys.stdout.flush()
    sys.exit(granian.run(app.instance_path, host, port, secure, material, threads=threads, workers=workers))


def _warn_of_low_disk(app: Flask) -> None:
    folders = [Path(app.instance_path)]
    url = db.engine.url
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        folders.append(Path(url.database).resolve().parent)
    for folder, free in low_disk(*dict.fromkeys(folders)):
        click.echo(
            f"Warning: the disk holding {folder} has only {free // (1024 * 1024)} MB free. "
            "When it is full, the table's entries cannot be saved (each phone keeps them and waits).",
            err=True,
        )


@main.command("export")
@click.option("--game", "game_id", help="Export only this game (its id from the game's url).")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), help="Write here instead of stdout.")
@with_appcontext
def export_command(game_id: str | None, output: Path | None) -> None:
    """Write games as a companion/1 JSON file."""
    from flask import current_app

    upgrade(directory=current_app.extensions["migrate"].directory)
    if game_id:
        game = db.session.get(Game, game_id[:64])
        if game is None:
            raise click.ClickException(f"No game with id {game_id}.")
        games: Iterable[Game] = [game]
    else:
        games = every_game()
    counted = _Counted(games)
    chunks = export_chunks(counted)
    if output is None:
        for chunk in chunks:
            click.echo(chunk, nl=False)
    else:
        write_whole(output, chunks)
        click.echo(f"Exported {counted.count} game(s) to {output}.", err=True)


class _Counted(Iterator[Game]):
    """Games as they go by, counted: an export of every game is never held as a list."""

    def __init__(self, games: Iterable[Game]) -> None:
        self.games = iter(games)
        self.count = 0

    def __next__(self) -> Game:
        game = next(self.games)
        self.count += 1
        return game


def write_whole(path: Path, chunks: Iterable[str]) -> None:
    """Write a file a chunk at a time, open to its owner alone, and put it in place only once
    it is whole: an interrupted or failed export leaves no half a file behind."""
    partial = path.with_name(f".{path.name}.partial")
    try:
        descriptor = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            for chunk in chunks:
                file.write(chunk)
            file.flush()
            os.fsync(file.fileno())
        private_files(partial)
        os.replace(partial, path)
    except OSError as error:
        raise click.ClickException(f"{_could_not_write(path, error)} Nothing was written.") from None
    finally:
        partial.unlink(missing_ok=True)


@main.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--skip-existing", is_flag=True, help="Leave out the games already here instead of refusing the file.")
@with_appcontext
def import_command(file: Path, skip_existing: bool) -> None:
    """Add the games of a companion/1 JSON file: all of them, or none."""
    from flask import current_app

    from .service.imports import import_games
    from .store.sqlite import writing
    from .web.exchange import imported_messages

    upgrade(directory=current_app.extensions["migrate"].directory)
    try:
        # checked whole before the database is touched; then one short write
        items = parse_file(read_json(file.read_bytes()))
        with writing():
            imported = import_games(items, skip_existing)
    except ImportRefused as refused:
        db.session.rollback()
        click.echo(f"Nothing was imported from {file}:", err=True)
        for problem in refused.problems:
            click.echo(f"  {problem}", err=True)
        if refused.more:
            click.echo(f"  … and {refused.more} more", err=True)
        if refused.existing:
            click.echo("To import only the games not here yet: companion import --skip-existing FILE", err=True)
        sys.exit(1)
    click.echo(f"Imported {len(imported.games)} game(s) from {file}.")
    # what else the import did, as the web page says it (the first sentence is the count)
    for message in imported_messages(imported)[1:]:
        click.echo(str(message))


@main.command("backup")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(file: Path) -> None:
    """Write a consistent copy of the database, safe while the app runs.

    SQLite: a copy of the database file made with SQLite's online backup API.
    Any other database: a companion/1 file of every game, for `companion import`.
    """
    url = db.engine.url
    if not file.parent.is_dir():
        raise click.ClickException(f"The folder {file.parent} does not exist: nothing was backed up.")
    if url.get_backend_name() == "sqlite":
        import sqlite3

        source_path = Path(url.database or "")
        if not url.database or not source_path.is_file():
            raise click.ClickException(
                f"There is no database at {url.database or '(memory)'}: check DATABASE_URL. Nothing was backed up."
            )
        # read-only: a mistyped path must not leave an empty database behind
        source = sqlite3.connect(f"{source_path.resolve().as_uri()}?mode=ro", uri=True)
        try:
            _has_companion_tables(
                lambda: {row[0] for row in source.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}, url
            )
            # made beside the file and put in its place once whole, open to its owner alone
            partial = file.with_name(f".{file.name}.partial")
            partial.unlink(missing_ok=True)
            try:
                os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
                target = sqlite3.connect(partial)
                try:
                    with target:
                        source.backup(target)
                finally:
                    target.close()
                private_files(partial)
                os.replace(partial, file)
            except sqlite3.OperationalError as error:
                # the copy's side: its disk full (a source only read is never "full")
                if error.sqlite_errorcode & 0xFF != SQLITE_FULL:
                    raise
                raise click.ClickException(
                    f"{_could_not_write(file, OSError(errno.ENOSPC, 'No space left on device'))} Nothing was backed up."
                ) from None
            except OSError as error:
                raise click.ClickException(f"{_could_not_write(file, error)} Nothing was backed up.") from None
            finally:
                partial.unlink(missing_ok=True)
        except sqlite3.DatabaseError as error:
            raise click.ClickException(
                f"{url.database} is not a database the companion can read ({error}). Nothing was backed up."
            ) from None
        finally:
            source.close()
        click.echo(f"Backed up the SQLite database to {file}.")
        return
    from sqlalchemy import inspect

    _has_companion_tables(lambda: set(inspect(db.engine).get_table_names()), url)
    counted = _Counted(every_game())
    write_whole(file, export_chunks(counted))
    click.echo(f"Backed up {counted.count} game(s) to {file} (companion/1).")


# SQLite's result code for "database or disk is full"
SQLITE_FULL = 13


def _could_not_write(path: Path, error: OSError) -> str:
    if error.errno == errno.ENOSPC:
        return f"The disk holding {path.parent} is full ({error.strerror or 'No space left on device'}): {path} could not be written."
    return f"Could not write {path}: {error.strerror or error}."


def _has_companion_tables(tables: Callable[[], set[str]], url: URL) -> None:
    from sqlalchemy.exc import OperationalError

    shown = url.render_as_string(hide_password=True)
    try:
        found = tables()
    except OperationalError as error:
        raise click.ClickException(f"Cannot open the database at {shown} ({error.orig}). Nothing was backed up.") from None
    if not {"games", "players", "seats"} <= found:
        raise click.ClickException(f"The database at {shown} has no companion games: check DATABASE_URL. Nothing was backed up.")
