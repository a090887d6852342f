"""Read-only links: another phone follows a game live, and can change nothing."""

from __future__ import annotations

from flask import Blueprint, Response, abort
from sqlalchemy import select

from .charts import score_chart
from .extensions import db
from .fragments import page_or_fragment
from .models import SPY, Game

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
    context = {"game": game, "readonly": True}
    if game.kind == SPY:
        state = game.spy_state()
        context.update(state=state, seen=state, mirror={}, look=None, answers=(), values={}, errors={}, messages=[])
    else:
        state = game.state()
        context.update(state=state, chart=score_chart(state), messages=[])
    context["poll"] = FINISHED_POLL_SECONDS if state.finished else POLL_SECONDS
    response = page_or_fragment("watch/show.html", "watch/_live.html", **context)
    response.cache_control.no_cache = True
    return response
