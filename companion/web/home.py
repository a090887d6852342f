"""The home page and the new-game page: the latest games of every kind, and a tab per kind
to start one."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from flask import Blueprint, make_response, render_template, request
from sqlalchemy import Select, select, union_all
from werkzeug.wrappers import Response

from .. import registry
from ..store.base import db
from ..store.games import Game, GameSummary, Seat
from ..store.players import Player
from .history import known_players

bp = Blueprint("games", __name__)

# the home page shows this many games of each state; the rest are in the history
HOME_IN_PROGRESS = 12
HOME_FINISHED = 8


@bp.get("/")
def index() -> str:
    """List the latest games in progress, then the latest finished; the history has the rest."""
    in_progress = _latest(finished=False, count=HOME_IN_PROGRESS)
    finished = _latest(finished=True, count=HOME_FINISHED)
    return render_template(
        "games/index.html",
        in_progress=in_progress[:HOME_IN_PROGRESS],
        more_in_progress=len(in_progress) > HOME_IN_PROGRESS,
        finished=finished[:HOME_FINISHED],
        more_finished=len(finished) > HOME_FINISHED,
    )


def _newest(what: Any, finished: bool, count: int) -> Select[Any]:
    # one more than shown says whether there are more, without counting them all
    return select(what).where(Game.finished.is_(finished)).order_by(Game.created_at.desc(), Game.id).limit(count + 1)


def _latest(finished: bool, count: int) -> list[tuple[Game, GameSummary]]:
    games = db.session.scalars(_newest(Game, finished, count)).all()
    return [(game, game.summary()) for game in games]


def listed() -> Select[str, int, datetime, str]:
    """The games the home page lists, by id, with their versions and their players' names
    in seat order: what its validator is made from (companion/web/freshness.py). Every write
    bumps its game's version; a rename changes a name; a new or finished game changes the
    ids."""
    shown = union_all(
        *(
            select(newest.c.id)
            for newest in (_newest(Game.id, False, HOME_IN_PROGRESS).subquery(), _newest(Game.id, True, HOME_FINISHED).subquery())
        )
    ).subquery()
    return (
        # when each last changed too: a restored game starts its versions again
        select(Game.id, Game.version, Game.updated_at, Player.name)
        .join(Seat, Seat.game_id == Game.id)
        .join(Player, Player.id == Seat.player_id)
        .where(Game.id.in_(select(shown.c.id)))
        .order_by(Game.id, Seat.position)
    )


@bp.get("/new")
def new() -> Response:
    """Show the form that starts a game, one tab per kind."""
    return new_game_page(request.args.get("game"))


def new_game_page(
    kind: str | None = None,
    values: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    status: int = 200,
) -> Response:
    """The new-game page on the tab of ``kind``, with what was typed and what was wrong with it."""
    every = registry.every()
    chosen = registry.named(kind) or every[0]
    values = values or {}
    html = render_template(
        "games/new.html",
        kinds=every,
        chosen=chosen,
        values=values,
        errors=errors or {},
        known=[player.name for player in known_players()],
        # what the chosen kind's tab needs besides (companion/registry.py)
        **chosen.new_game(values),
    )
    return make_response(html, status)
