"""The list of games, starting one, and moving all of them in and out as a file."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from flask import Blueprint, flash, make_response, redirect, render_template, request, stream_with_context, url_for
from sqlalchemy import Select, select, union_all
from werkzeug.wrappers import Response

from . import exchange, kinds
from .extensions import db
from .history import known_players
from .i18n import say
from .models import Game, GameSummary, Player, Seat
from .rules import N_, Message, Nn_, spy
from .rules import black_spy as bs

bp = Blueprint("games", __name__)

MAX_ROWS = bs.STANDARD.max_players


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


def _newest(what: Any, finished: bool, count: int) -> Select:
    # one more than shown says whether there are more, without counting them all
    return select(what).where(Game.finished.is_(finished)).order_by(Game.created_at.desc(), Game.id).limit(count + 1)


def _latest(finished: bool, count: int) -> list[tuple[Game, GameSummary]]:
    games = db.session.scalars(_newest(Game, finished, count)).all()
    return [(game, game.summary()) for game in games]


def listed() -> Select:
    """The games the home page lists, by id, with their versions and their players' names
    in seat order: what its validator is made from (companion/freshness.py). Every write
    bumps its game's version; a rename changes a name; a new or finished game changes the
    ids."""
    shown = union_all(
        *(
            select(newest.c.id)
            for newest in (_newest(Game.id, False, HOME_IN_PROGRESS).subquery(), _newest(Game.id, True, HOME_FINISHED).subquery())
        )
    ).subquery()
    return (
        select(Game.id, Game.version, Player.name)
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
    every = kinds.every()
    chosen = kinds.named(kind) or every[0]
    html = render_template(
        "games/new.html",
        kinds=every,
        chosen=chosen,
        rows=MAX_ROWS,
        presets=bs.PRESETS,
        values=values or {},
        errors=errors or {},
        spy_rows=spy.MAX_PLAYERS,
        colours=list(spy.Colour),
        facings=list(spy.Facing),
        known=[player.name for player in known_players()],
    )
    return make_response(html, status)


REMATCH_REFUSED = N_("Another phone changed this game just now; no rematch was started.")


def to_rematch(game: Game) -> Response:
    """A second tap on Rematch, or another phone's: the rematch already made, once."""
    flash(say(N_("The rematch is already on: here it is.")))
    return redirect(url_for(kinds.of(game).show, game_id=game.rematch_id), code=303)


def lost_rematch(game: Game, show: Callable[[Game, Message], Response]) -> Response:
    """A rematch another phone's write beat (``game`` as it is now): the rematch that phone
    made, or else the game ``show``n with the news that none was started."""
    if game.rematch_id is not None:
        return to_rematch(game)
    return show(game, REMATCH_REFUSED)


@bp.get("/export.json")
def export_all() -> Response:
    """Download every game as one companion/1 file, made as it is sent."""
    return _streamed(exchange.export_chunks(exchange.every_game()), "application/json", "companion-games.json")


@bp.post("/import")
def import_games() -> Response | tuple[str, int]:
    """Add the games of an uploaded companion/1 file, all or none."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _import_refused(exchange.ImportRefused([N_("Choose a companion/1 .json file to import.")]))
    skip_existing = request.form.get("skip_existing") == "yes"
    # the file is read and checked before the database is touched: the write that follows is short
    try:
        imported = exchange.store(exchange.parse_file(exchange.read_json(upload.read())), skip_existing)
    except exchange.ImportRefused as refused:
        db.session.rollback()
        return _import_refused(refused)
    for message in imported_messages(imported):
        flash(say(message))
    return redirect(url_for("games.index"), code=303)


def imported_messages(imported: exchange.Imported) -> list[Message]:
    """What an import tells the table, in the order it matters."""
    said = [Nn_("Imported %(num)s game.", "Imported %(num)s games.", len(imported.games))]
    if imported.skipped:
        said.append(
            Nn_(
                "%(num)s game was already here and was skipped.",
                "%(num)s games were already here and were skipped.",
                imported.skipped,
            )
        )
    if imported.new_ids:
        said.append(
            Nn_(
                "%(num)s game had an id too short or malformed to keep private and was given a new one: its old links do not work here.",
                "%(num)s games had ids too short or malformed to keep private and were given new ones: their old links do not work here.",
                imported.new_ids,
            )
        )
    return said


def _import_refused(refused: exchange.ImportRefused) -> tuple[str, int]:
    # a file refused only for games already here (a backup restored where it came from)
    # can be imported without them
    return render_template(
        "games/import_refused.html", problems=refused.problems, more=refused.more, existing=refused.existing
    ), 422


@bp.get("/export.csv")
def export_all_csv() -> Response:
    """Download every Black Spy game's deals as one CSV file, made as it is sent."""
    return _streamed(exchange.csv_chunks(exchange.every_game()), "text/csv", "companion-deals.csv")


def _streamed(chunks: Iterator[str], mimetype: str, filename: str) -> Response:
    # a club's whole history: sent as it is made, a batch of games at a time, never held
    # whole in memory (the server hands each batch to its thread for long answers)
    response = Response(stream_with_context(chunks), mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_download(text: str, filename: str) -> Response:
    response = Response(text, mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def json_download(payload: dict, filename: str) -> Response:
    response = Response(
        json.dumps(payload, indent=2, ensure_ascii=False) + "\n",
        mimetype="application/json",
    )
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
