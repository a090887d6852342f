"""Validators for the pages of a game: a phone that already has the page gets a 304.

A follower polls every few seconds, and a scorer's phone reloads the game often; most
of the time nothing changed. Each game page and fragment carries an ETag made from
everything that shapes it: the game's version (bumped by every write), its players'
names (a rename bumps no game), the language, page or fragment, the query string, the
address it was asked at, this device's form token, the day, and the release of the app.
A request whose ``If-None-Match`` names it is answered ``304 Not Modified`` after one
indexed query, before the view replays anything. A score is never stale: a write changes
the version, and with it the validator.

A phone that does not hold the page yet is sent the page made for the first phone that
asked for this version: a game page is kept per worker under its validator's parts, less
this phone's token, and sent with this phone's token and a new form id in their place
(companion/web/parts.py). It is the validator's own promise, that nothing else shapes the
page, that makes the kept page right; a write changes the version, and the key.
"""

from __future__ import annotations

import hashlib
from datetime import date, datetime
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf
from sqlalchemy import Select, bindparam, select
from sqlalchemy.orm import aliased

from .. import paths, registry
from ..store.base import db
from ..store.games import Game, Seat
from ..store.players import Player
from . import home, parts
from .extensions import htmx
from .i18n import language


def _versions(key: Any) -> Select[int, datetime, str]:
    # one statement per page, built once: the game's version and its players' names, in seat
    # order; and when it last changed, for a game deleted and restored (or imported again)
    # starts its versions again from 1, and its pages of before must not answer for it
    return (
        select(Game.version, Game.updated_at, Player.name)
        .join(Seat, Seat.game_id == Game.id)
        .join(Player, Player.id == Seat.player_id)
        .where(key == bindparam("key"))
        .order_by(Seat.position)
    )


def watched(app: Flask) -> dict[str, tuple[Select[*tuple[Any, ...]], str | None]]:
    """The pages made from games: the statement that finds the versions and names they
    show, and the url part that names their game (none for the home page, which lists
    several). Every kind's game page is one (companion/registry.py)."""
    game_pages = {kind.show: (_versions(Game.id), "game_id") for kind in registry.every(app)}
    return {
        **game_pages,
        "watch.show": (_versions(Game.watch_id), "watch_id"),
        "watch.table": (_versions(Game.watch_id), "watch_id"),
        "seats.show": (_seat_versions(), "link"),
        "games.index": (home.listed(), None),
    }


def _seat_versions() -> Select[int, datetime, str]:
    # a seat's page: its game found by the seat's link (a pending share bumps the game's version)
    mine = aliased(Seat)
    return _versions(mine.link).join(mine, mine.game_id == Game.id)


def release() -> str:
    """A digest of the code, templates, static files and catalogues this app runs: the same
    in every worker process, new with every change to any of them."""
    digest = hashlib.sha256()
    for folder, pattern in (
        (paths.PACKAGE, "**/*.py"),
        (paths.TEMPLATES, "**/*"),
        (paths.STATIC, "**/*"),
        (paths.TRANSLATIONS, "**/*.mo"),
    ):
        for path in sorted(Path(folder).glob(pattern)):
            if path.is_file():
                digest.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


# game pages kept per worker, for every phone: a few hundred tables' worth, and no more
# than some 16 MB of them (a 30-deal page is 57,000 characters; a 200-deal one, some 300,000)
KEPT_PAGES = 256
KEPT_CHARACTERS = 16_000_000


def init_app(app: Flask) -> None:
    app.config.setdefault("RELEASE", release())
    # read once the kinds are registered: create_app sets the shell up after them
    app.extensions["companion.watched"] = watched(app)
    app.extensions["companion.pages"] = parts.Kept[str](KEPT_PAGES, KEPT_CHARACTERS)
    # after the passcode's check (registered before this): a signed-out phone is sent to
    # the passcode, never told that its copy is still good
    app.before_request(_answer_if_unchanged)
    app.after_request(_mark)


def _validator() -> tuple[tuple[str, ...], str] | None:
    """What shapes this page, and its validator: the same with this phone's token added."""
    found = current_app.extensions["companion.watched"].get(request.endpoint or "")
    if request.method not in ("GET", "HEAD") or found is None or request.view_args is None:
        return None
    statement, argument = found
    rows = db.session.connection().execute(statement, {"key": request.view_args[argument]} if argument else {}).all()
    if not rows:
        return None  # no such game (or none to list): the view says so
    shape = (
        current_app.config["RELEASE"],
        request.endpoint,
        request.script_root + request.path,
        # each game's version and its players' names (the same version on each seat's row)
        *(str(part) for row in rows for part in row),
        language(),
        "fragment" if htmx and not htmx.history_restore_request else "page",
        request.query_string.decode("latin-1"),
        request.host,
        request.scheme,
        date.today().isoformat(),
    )
    # the page's forms carry a token made from this one: made now if this is the first page
    token = str(session.get("csrf_token") or (generate_csrf() and session["csrf_token"]))
    tag = hashlib.sha256("\0".join((*shape, hashlib.sha256(token.encode()).hexdigest())).encode()).hexdigest()[:24]
    return shape, tag


def _answer_if_unchanged() -> Response | None:
    if request.endpoint not in current_app.extensions["companion.watched"]:
        return None  # and the session is left unread: a static file does not vary by cookie
    # a page that shows a one-time message (a flash) is neither answered from a copy nor kept as one
    if "_flashes" in session:
        return None
    found = _validator()
    if found is None:
        return None
    shape, tag = found
    g.etag = tag
    held = _held(tag)
    if held is not None:
        response = Response(status=304)
        _headers(response, held)
        return response
    if request.method != "GET":
        return None
    kept = current_app.extensions["companion.pages"].find(shape)
    if kept is not None:
        return Response(parts.filled(kept), mimetype="text/html")
    g.page_shape = shape  # for _mark to keep the page the view makes
    return None


def _held(tag: str) -> str | None:
    """The validator the phone sent back for ``tag``, if it sent one.

    Flask-Compress marks a compressed page's ETag with its encoding ("…:br"), so a phone
    that accepts compression, as every phone does, holds that form of the tag.
    """
    for held in (tag, *(f"{tag}:{encoding}" for encoding in current_app.config["COMPRESS_ALGORITHM"])):
        if held in request.if_none_match:
            return held
    return None


def _mark(response: Response) -> Response:
    tag = g.pop("etag", None)
    shape = g.pop("page_shape", None)
    if tag is not None and response.status_code == 200:
        _headers(response, tag)
        if shape is not None and response.mimetype == "text/html" and not response.is_streamed:
            current_app.extensions["companion.pages"].keep(shape, parts.with_holes(response.get_data(as_text=True)))
    return response


def _headers(response: Response, tag: str) -> None:
    response.set_etag(tag)
    # kept by the phone, but asked about every time: a stale score is never shown
    response.cache_control.no_cache = True
    response.headers["Vary"] = "HX-Request"
