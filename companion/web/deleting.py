"""Deleting a game from its page (asked first, naming the game), and the list of games
deleted in the last 30 days, each restorable (companion/service/deleting.py)."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, url_for
from werkzeug.wrappers import Response

from .. import registry
from ..exchange.reading import ImportRefused
from ..rules import N_
from ..service import deleting
from ..store.base import db
from ..store.deleted import KEPT_DAYS, deleted, recently_deleted
from ..store.games import Game
from .i18n import say

bp = Blueprint("deleting", __name__)


def _game(game_id: str) -> Game:
    game = db.session.get(Game, game_id[:64])
    if game is None:
        abort(410 if deleted(game_id) is not None else 404)
    return game


@bp.get("/games/<game_id>/delete")
def confirm(game_id: str) -> str:
    """Ask before deleting, naming the game."""
    game = _game(game_id)
    kind = registry.of(game)
    return render_template("games/delete.html", game=game, kind=kind, summary=game.summary(), days=KEPT_DAYS)


@bp.post("/games/<game_id>/delete")
def delete(game_id: str) -> Response:
    """Delete a game: gone from every list and statistic at once, restorable for 30 days."""
    game = _game(game_id)
    title = registry.of(game).title(game)
    deleting.delete(game)
    flash(
        say(
            N_(
                "%(game)s (%(players)s) is deleted. It can be restored from Recently deleted for %(days)s days.",
                game=title,
                players=", ".join(game.player_names),
                days=KEPT_DAYS,
            )
        ),
        # the news leads to the list it names (templates/base.html)
        "deleted",
    )
    return redirect(url_for("games.index"), code=303)


@bp.get("/deleted")
def index() -> str:
    """The games deleted in the last 30 days."""
    return render_template("games/deleted.html", games=recently_deleted(), days=KEPT_DAYS, named=registry.named)


@bp.post("/deleted/<game_id>/restore")
def restore(game_id: str) -> Response:
    """Bring a deleted game back, under its own id: its links work again."""
    kept = deleted(game_id)
    if kept is None:
        abort(404)
    try:
        game = deleting.restore(kept)
    except (ImportRefused, LookupError):
        flash(say(N_("This game could not be restored: a game with its id is here already.")))
        return redirect(url_for("deleting.index"), code=303)
    flash(say(N_("The game is restored.")))
    return redirect(url_for(registry.of(game).show, game_id=game.id), code=303)


@bp.post("/deleted/empty")
def empty() -> Response:
    """Let go of every deleted game now."""
    deleting.empty()
    flash(say(N_("Recently deleted is empty.")))
    return redirect(url_for("deleting.index"), code=303)
