"""The table companion: a phone-first scorekeeper for Black Spy and tracker for Spy."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app: the only place one is made."""
    from . import paths

    app = Flask(
        __name__,
        instance_path=str(paths.instance_folder()),
        instance_relative_config=True,
        template_folder=str(paths.TEMPLATES),
        static_folder=str(paths.STATIC),
    )
    from .errors import refuse_unreadable
    from .i18n import say

    # first of all: a body the server refused to wait for (companion/asgi.py), or an address
    # no page has, reaches no other check (the form token's would call it a form that expired)
    app.before_request(refuse_unreadable)
    # before anything builds the jinja environment: every rules message a template prints
    # ({{ errors.total }}, {{ message }}) is said in the reader's language
    app.jinja_options = {**app.jinja_options, "finalize": say}
    paths.private_folder(Path(app.instance_path))
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("DATABASE_URL", f"sqlite:///{Path(app.instance_path) / 'companion.sqlite3'}"),
        # static urls carry a content hash, so a year of caching never serves stale css
        SEND_FILE_MAX_AGE_DEFAULT=365 * 24 * 3600,
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,
        # the passcode's wrong tries, counted across every worker process (companion/ratelimits.py)
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
        # the address `companion serve` listens on (companion/sharing.py's follow link); None otherwise
        LISTENS_ON=os.environ.get("COMPANION_LISTENS_ON"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if "SECRET_KEY" not in app.config or not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY") or _instance_secret(app)

    from . import (
        assets,
        black_spy,
        errors,
        freshness,
        games,
        history,
        i18n,
        kinds,
        parts,
        passcode,
        pwa,
        ratelimits,  # noqa: F401  (registers its storage scheme with limits)
        reference,
        routing,
        scorepad,
        security,
        sharing,
        spy,
        trust,
        watch,
        words,
    )
    from .extensions import compress, csrf, db, htmx, limiter, migrate
    from .models import configure_sqlite

    routing.init_app(app)
    db.init_app(app)
    # batch mode lets alembic alter tables on sqlite, which has no ALTER COLUMN
    migrate.init_app(app, db, directory=str(paths.MIGRATIONS), render_as_batch=True)
    csrf.init_app(app)
    htmx.init_app(app)
    compress.init_app(app)
    with app.app_context():
        # how long a write waits for another one before it is refused as busy (a 503)
        configure_sqlite(db.engine, app.config.get("SQLITE_BUSY_TIMEOUT_MS", 5000))

    assets.init_app(app)
    sharing.init_app(app)
    parts.init_app(app)
    errors.init_app(app)
    security.init_app(app)
    trust.init_app(app)
    passcode.init_app(app)
    freshness.init_app(app)
    # after freshness: a follower's poll answered 304 is nothing the limiter counts (it
    # limits the passcode alone), and its check was a tenth of that answer's time
    limiter.init_app(app)
    i18n.init_app(app, str(paths.TRANSLATIONS))
    words.init_app(app)
    app.register_blueprint(games.bp)
    # each kind of game: its blueprint, and its place in the shared pages (companion/kinds.py)
    for kind in (black_spy.KIND, spy.KIND, scorepad.KIND):
        kinds.register(kind)
        app.register_blueprint(kind.blueprint)
    app.add_template_global(kinds.of, "kind_of")
    from .rules.players import MAX_NAME_LENGTH

    app.jinja_env.globals["MAX_NAME_LENGTH"] = MAX_NAME_LENGTH
    app.register_blueprint(history.bp)
    app.register_blueprint(watch.bp)
    app.register_blueprint(pwa.bp)
    app.register_blueprint(reference.bp)
    app.register_blueprint(trust.bp)
    return app


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
