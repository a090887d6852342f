"""Read-only links: another phone follows a game live, and can change nothing.

Five phones follow a table's game, each asking every few seconds. An unchanged game is
a 304 (companion/freshness.py); a changed one is rendered once for all of them: the
fragment a follower polls carries no form, no token and nothing of the phone that asks,
so it is kept per worker under everything that shapes it (the game's version, which
every write bumps, its players' names, the language, the address it was asked at, the
day, the release). A score is never stale: a write changes the version, and the key.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from flask import Blueprint, abort, current_app, make_response, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from . import kinds
from .extensions import db, htmx
from .fragments import page_or_fragment
from .i18n import language
from .models import Game
from .parts import Kept
from .sharing import qr_svg_file

bp = Blueprint("watch", __name__)

# how often a following phone asks for news while the game goes on
POLL_SECONDS = 4
# and once it is over: an undo or an edit by the scorer can still reopen it
FINISHED_POLL_SECONDS = 20


# fragments kept per worker process: a few hundred tables' worth, the oldest dropped first
_fragments: Kept[str] = Kept(512)


@bp.get("/watch/<watch_id>")
def show(watch_id: str) -> Response:
    """Show a game's public state, refreshed every few seconds, less often once it is over."""
    game = db.session.scalar(select(Game).where(Game.watch_id == watch_id))
    if game is None:
        abort(404)
    if not htmx or htmx.history_restore_request:
        return _no_cache(page_or_fragment("watch/show.html", "watch/_live.html", **_context(game)))
    key = (
        current_app.config["RELEASE"],
        watch_id,
        game.version,
        tuple(game.player_names),
        language(),
        request.host,
        request.scheme,
        request.path,
        request.query_string,
        date.today(),
    )
    html = _fragments.get(
        key, lambda: page_or_fragment("watch/show.html", "watch/_live.html", **_context(game)).get_data(as_text=True)
    )
    response = make_response(html)
    response.headers["Vary"] = "HX-Request"
    return _no_cache(response)


@bp.get("/watch/<watch_id>/qr.svg")
def qr(watch_id: str) -> Response:
    """The QR code of a game's read-only link: an image of its own, so that the game page
    carries none of it until the table opens "Follow on another phone" (its <img> is lazy)."""
    if db.session.scalar(select(Game.id).where(Game.watch_id == watch_id)) is None:
        abort(404)
    response = make_response(qr_svg_file(url_for("watch.show", watch_id=watch_id, _external=True)))
    response.mimetype = "image/svg+xml"
    # the link it draws never changes at this address
    response.cache_control.private = True
    response.cache_control.max_age = 7 * 24 * 3600
    return response


def _context(game: Game) -> dict[str, Any]:
    kind = kinds.of(game)
    context = {"game": game, "kind": kind, "readonly": True, **kind.live(game)}
    # the table started a rematch: its followers are shown the way to the new game's follow page
    context["rematch_watch"] = (
        db.session.scalar(select(Game.watch_id).where(Game.id == game.rematch_id)) if game.rematch_id else None
    )
    context["poll"] = FINISHED_POLL_SECONDS if context["state"].finished else POLL_SECONDS
    return context


def _no_cache(response: Response) -> Response:
    response.cache_control.no_cache = True
    return response
