"""The record of a group's games: history, players, and each player's figures, every kind's
as it counts them (companion/registry.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from sqlalchemy import exists, select
from werkzeug.wrappers import Response

from .. import registry, service
from ..registry import Column, GameKind
from ..rules import N_, RulesError
from ..store.base import db
from ..store.games import Game, Seat
from ..store.players import Player
from ..store.statistics import Period
from .fragments import page_or_fragment
from .i18n import say
from .routing import database_int

bp = Blueprint("history", __name__)

PAGE_SIZE = 20
STATES = {"in-progress": False, "finished": True}


@bp.get("/history")
def index() -> Response:
    """List every game, newest first, by player and by state, a page at a time."""
    player_id = request.args.get("player", type=database_int)
    state = request.args.get("state", "")
    page = max(1, request.args.get("page", 1, type=database_int) or 1)
    query = select(Game)
    if player_id is not None:
        query = query.where(exists().where(Seat.game_id == Game.id, Seat.player_id == player_id))
    if state in STATES:
        query = query.where(Game.finished.is_(STATES[state]))
    # one row more than a page says whether there is an older page, without counting
    # every game: the page costs the same however long the history grows
    rows = db.session.scalars(
        query.order_by(Game.created_at.desc(), Game.id).limit(PAGE_SIZE + 1).offset((page - 1) * PAGE_SIZE)
    ).all()
    games = rows[:PAGE_SIZE]
    return page_or_fragment(
        "history/index.html",
        "history/_games.html",
        games=[(game, game.summary()) for game in games],
        players=known_players(),
        player_id=player_id,
        state=state,
        page_number=page,
        older=len(rows) > PAGE_SIZE,
    )


def known_players() -> list[Player]:
    """Every player, the most recently seen at a table first."""
    return list(db.session.scalars(select(Player).order_by(Player.last_seen.desc().nulls_last(), Player.name)))


@dataclass(frozen=True)
class KindColumns:
    """A kind's figures in the list of players: its name over its columns."""

    kind: GameKind
    columns: list[Column]


@bp.get("/players")
def players() -> str:
    """List the players the companion knows with their figures, most recent first."""
    every = registry.every()
    figures = [KindColumns(kind, kind.player_columns()) for kind in every]
    # the first kind's figures always show, as the table's own game; another kind's once
    # someone has finished a game of it
    shown = [group for number, group in enumerate(figures) if number == 0 or any(column.values for column in group.columns)]
    return render_template("history/players.html", players=known_players(), figures=[group for group in shown if group.columns])


@bp.get("/players/<int:player_id>")
def player(player_id: int) -> Response:
    """Show one player's statistics, over all games or a chosen period."""
    return _player_page(db.get_or_404(Player, player_id))


def _player_page(person: Player, errors: dict[str, str] | None = None, typed: str | None = None, status: int = 200) -> Response:
    errors = dict(errors or {})
    period = Period()
    try:
        period = Period(_day(request.args.get("from")), _day(request.args.get("to")))
    except ValueError:
        errors["period"] = N_("Dates are written YYYY-MM-DD.")
    html = render_template(
        "history/player.html",
        player=person,
        # every kind's figures of this player, each shown by its own <folder>/_player_stats.html;
        # a kind the player has no finished game of in the period is left out
        kinds=[(kind, figures) for kind in registry.every() if (figures := kind.player_stats(person.id, period)) is not None],
        period=period,
        errors=errors,
        typed=person.name if typed is None else typed,
    )
    return make_response(html, 422 if errors else status)


def _day(text: str | None) -> date | None:
    return date.fromisoformat(text) if text else None


@bp.post("/players/<int:player_id>/rename")
def rename(player_id: int) -> Response:
    """Rename a player in every game they are in."""
    person = db.get_or_404(Player, player_id)
    try:
        old = service.rename(person, request.form.get("name", ""))
    except RulesError as error:
        return _player_page(person, errors={"name": error.message}, typed=request.form.get("name", ""))
    flash(say(N_("%(old)s is now %(new)s, in every game.", old=old, new=person.name)))
    return redirect(url_for("history.player", player_id=person.id), code=303)
