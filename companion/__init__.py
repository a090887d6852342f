"""The table companion: a phone-first scorekeeper for Black Spy, a tracker of Spy's public
state, and a score pad for the other games of the night."""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from flask import Flask

if TYPE_CHECKING:
    from .registry import GameKind


def create_app(test_config: dict[str, Any] | None = None, kinds: Sequence[GameKind] | None = None) -> Flask:
    """Build the app: the only place one is made. It knows the companion's three kinds of
    game unless it is given others (a test's)."""
    from . import paths

    app = Flask(
        __name__,
        instance_path=str(paths.instance_folder()),
        instance_relative_config=True,
        template_folder=str(paths.TEMPLATES),
        static_folder=str(paths.STATIC),
    )
    from .web.errors import refuse_unreadable
    from .web.i18n import say
    from .web.templating import Environment

    # first of all: a body the server refused to wait for (companion/serving/asgi.py), or an address
    # no page has, reaches no other check (the form token's would call it a form that expired)
    app.before_request(refuse_unreadable)
    # before anything builds the jinja environment: every rules message a template prints
    # ({{ errors.total }}, {{ message }}) is said in the reader's language
    app.jinja_options = {**app.jinja_options, "finalize": say}
    app.jinja_environment = Environment
    paths.private_folder(Path(app.instance_path))
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL", f"sqlite:///{Path(app.instance_path) / 'companion.sqlite3'}"),
        # static urls carry a content hash, so a year of caching never serves stale css
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
        # the passcode's wrong tries, counted across every worker process (companion/web/ratelimits.py)
        RATELIMIT_STORAGE_URI=os.environ.get("RATELIMIT_STORAGE_URI")
        or f"companion+sqlite://{Path(app.instance_path).resolve() / 'ratelimits.sqlite3'}",
        SESSION_COOKIE_SAMESITE="Lax",
        COMPRESS_MIMETYPES=[
            "text/html",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/manifest+json",
            "image/svg+xml",
            "text/csv",
        ],
        COMPRESS_ALGORITHM=["br", "gzip"],
        # a page is compressed as it is made: brotli 5 takes some 0.2 ms more than
        # Flask-Compress's 4 on a game page and sends it some 450 bytes lighter (7% of it);
        # above 5 the bytes hardly move and at 9 the time is 25 times as long
        COMPRESS_BR_LEVEL=5,
        # the address `companion serve` listens on (companion/web/sharing.py's follow link); None otherwise
        LISTENS_ON=os.environ.get("COMPANION_LISTENS_ON"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if "SECRET_KEY" not in app.config or not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _instance_secret(app)

    from . import registry, web
    from .store.base import db, engine_options, migrate, release_session, watch_server_connections
    from .store.sqlite import configure_sqlite
    from .web import routing
    from .web.extensions import compress, csrf, htmx

    routing.init_app(app)
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
        **engine_options(app.config["SQLALCHEMY_DATABASE_URI"]),
        **app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {}),
    }
    db.init_app(app)
    app.teardown_appcontext(release_session)
    # batch mode lets alembic alter tables on sqlite, which has no ALTER COLUMN
    migrate.init_app(app, db, directory=str(paths.MIGRATIONS), render_as_batch=True)
    csrf.init_app(app)
    htmx.init_app(app)
    compress.init_app(app)
    with app.app_context():
        # how long a write waits for another one before it is refused as busy (a 503)
        configure_sqlite(db.engine, app.config.get("SQLITE_BUSY_TIMEOUT_MS", 5000))
        watch_server_connections(db.engine)
    # the kinds of game, in one place; the shared pages ask the registry for them. The first
    # is the companion's own game: a file from before there were kinds holds its games
    for kind in kinds if kinds is not None else _companion_kinds():
        registry.register(app, kind)
    web.init_app(app)
    return app


def _companion_kinds() -> list[GameKind]:
    from .kinds.black_spy.kind import BlackSpy
    from .kinds.scorepad.kind import Scorepad
    from .kinds.spy.kind import Spy

    return [BlackSpy(), Spy(), Scorepad()]


def _instance_secret(app: Flask) -> str:
    """A secret key made once per install and kept in the instance folder."""
    path = Path(app.instance_path) / "secret_key"
    try:
        # exclusive create: of several processes starting at once, one writes the key
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    else:
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_hex(32))
    return path.read_text().strip()
