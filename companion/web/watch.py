"""Read-only links: another phone follows a game live, and can change nothing.

Five phones follow a table's game, each asking every few seconds. An unchanged game is
a 304, and a changed one is rendered once for all of them and kept per worker under
everything that shapes it (companion/freshness.py): the fragment a follower polls
carries no form, no token and nothing of the phone that asks.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, make_response, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from .. import registry
from ..store.base import db
from ..store.games import Game
from .fragments import every_entry, page_or_fragment
from .seats import waiting
from .sharing import follow_link, qr_svg_file

bp = Blueprint("watch", __name__)

# how often a following phone asks for news, while the game goes on and once it is over:
# an undo or an edit by the scorer can reopen it, and a follower sees that as soon as a
# deal (an unchanged game's answer is a 304, a tenth of a page's cost)
POLL_SECONDS = 4


@bp.get("/watch/<watch_id>")
def show(watch_id: str) -> Response:
    """Show a game's public state, refreshed every few seconds."""
    game = db.session.scalar(select(Game).where(Game.watch_id == watch_id))
    if game is None:
        abort(404)
    return _no_cache(page_or_fragment("watch/show.html", "watch/_live.html", **_context(game)))


@bp.get("/watch/<watch_id>/table")
def table(watch_id: str) -> Response:
    """The game for a tablet or a TV in the middle of the table: the standings in numbers read
    across it, whose turn, who has sent their share, the last deal; no controls."""
    game = db.session.scalar(select(Game).where(Game.watch_id == watch_id))
    if game is None:
        abort(404)
    return _no_cache(page_or_fragment("watch/table.html", "watch/_table.html", **_context(game)))


@bp.get("/watch/<watch_id>/all")
def everything(watch_id: str) -> Response:
    """Show every deal, turn or round of a followed game; the follow page shows the latest."""
    game = db.session.scalar(select(Game).where(Game.watch_id == watch_id))
    if game is None:
        abort(404)
    html = every_entry(game, back=url_for("watch.show", watch_id=watch_id), readonly=True)
    return _no_cache(make_response(html))


@bp.get("/watch/<watch_id>/qr.svg")
def qr(watch_id: str) -> Response:
    """The QR code of a game's read-only link: an image of its own, so that the game page
    carries none of it until the table opens "Follow on another phone" (its <img> is lazy)."""
    if db.session.scalar(select(Game.id).where(Game.watch_id == watch_id)) is None:
        abort(404)
    response = make_response(qr_svg_file(follow_link(watch_id).url))
    response.mimetype = "image/svg+xml"
    # the link it draws never changes at this address
    response.cache_control.private = True
    response.cache_control.max_age = 7 * 24 * 3600
    return response


def _context(game: Game) -> dict[str, Any]:
    kind = registry.of(game)
    context = {"game": game, "kind": kind, "readonly": True, **kind.live(game)}
    # the table started a rematch: its followers are shown the way to the new game's follow page
    context["rematch_watch"] = (
        db.session.scalar(select(Game.watch_id).where(Game.id == game.rematch_id)) if game.rematch_id else None
    )
    context["poll"] = POLL_SECONDS
    # where the players' own phones stand with the next deal or round (companion/web/seats.py)
    context["waiting"] = waiting(game)
    return context


def _no_cache(response: Response) -> Response:
    response.cache_control.no_cache = True
    return response
