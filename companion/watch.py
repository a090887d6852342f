"""Read-only links: another phone follows a game live, and can change nothing."""

from __future__ import annotations

from flask import Blueprint, abort
from sqlalchemy import select
from werkzeug.wrappers import Response

from . import kinds
from .extensions import db
from .fragments import page_or_fragment
from .models import Game

bp = Blueprint("watch", __name__)

# how often a following phone asks for news while the game goes on
POLL_SECONDS = 4
# and once it is over: an undo or an edit by the scorer can still reopen it
FINISHED_POLL_SECONDS = 20


@bp.get("/watch/<watch_id>")
def show(watch_id: str) -> Response:
    """Show a game's public state, refreshed every few seconds, less often once it is over."""
    game = db.session.scalar(select(Game).where(Game.watch_id == watch_id))
    if game is None:
        abort(404)
    kind = kinds.of(game)
    context = {"game": game, "kind": kind, "readonly": True, **kind.live(game)}
    # the table started a rematch: its followers are shown the way to the new game's follow page
    context["rematch_watch"] = (
        db.session.scalar(select(Game.watch_id).where(Game.id == game.rematch_id)) if game.rematch_id else None
    )
    state = context["state"]
    context["poll"] = FINISHED_POLL_SECONDS if state.finished else POLL_SECONDS
    response = page_or_fragment("watch/show.html", "watch/_live.html", **context)
    response.cache_control.no_cache = True
    return response
