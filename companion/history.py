"""The record of a group's games: history, players, and each player's statistics."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from flask import Blueprint, flash, make_response, redirect, render_template, request, url_for
from sqlalchemy import exists, func, select
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response

from . import kinds
from .extensions import db
from .fragments import page_or_fragment
from .i18n import say
from .models import Game, Player, PlayerDay, Seat, name_key
from .routing import database_int
from .rules import N_, RulesError
from .rules.players import clean_name
from .stats import HEAVY_DEAL, Period, head_to_head, player_stats

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
        query.options(selectinload(Game.seats))
        .order_by(Game.created_at.desc(), Game.id)
        .limit(PAGE_SIZE + 1)
        .offset((page - 1) * PAGE_SIZE)
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
class Standing:
    """A player's figures over all their finished games, for the list of players."""

    player: Player
    games: int
    wins: int
    best_total: int | None
    spy_games: int
    spy_wins: int


def standings() -> list[Standing]:
    """Every player with their figures, most recently seen first: one query for them all."""
    figures = {
        row.player_id: row
        for row in db.session.execute(
            select(
                PlayerDay.player_id,
                func.sum(PlayerDay.games).label("games"),
                func.sum(PlayerDay.wins).label("wins"),
                func.min(PlayerDay.best_total).label("best_total"),
                func.sum(PlayerDay.spy_games).label("spy_games"),
                func.sum(PlayerDay.spy_wins).label("spy_wins"),
            ).group_by(PlayerDay.player_id)
        )
    }
    listed = []
    for person in known_players():
        row = figures.get(person.id)
        listed.append(
            Standing(person, int(row.games), int(row.wins), row.best_total, int(row.spy_games), int(row.spy_wins))
            if row is not None
            else Standing(person, 0, 0, None, 0, 0)
        )
    return listed


@bp.get("/players")
def players() -> str:
    """List the players the companion knows with their figures, most recent first."""
    listed = standings()
    # the kinds that count their own games for this list (the score pad), where any were played
    more = [(kind, counts) for kind in kinds.every() if kind.player_counts and (counts := kind.player_counts())]
    return render_template("history/players.html", standings=listed, spy=any(row.spy_games for row in listed), more=more)


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
        HEAVY_DEAL=HEAVY_DEAL,
        player=person,
        stats=player_stats(person.id, period),
        rivals=head_to_head(person.id, period),
        # the kinds with figures of their own on this page (companion/kinds.py)
        more=[(kind, kind.player_stats(person.id, period)) for kind in kinds.every() if kind.player_stats],
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
        name = clean_name(request.form.get("name", ""))
        clash = db.session.scalar(select(Player).where(Player.key == name_key(name), Player.id != person.id).limit(1))
        if clash is not None:
            raise RulesError.about("name", N_("There is already a player called %(name)s.", name=clash.name))
    except RulesError as error:
        return _player_page(person, errors={"name": error.message}, typed=request.form.get("name", ""))
    old = person.name
    person.name = name
    db.session.commit()
    flash(say(N_("%(old)s is now %(new)s, in every game.", old=old, new=name)))
    return redirect(url_for("history.player", player_id=person.id), code=303)
