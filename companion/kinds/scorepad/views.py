"""The score pad's pages: start a pad, record rounds, end it, undo, edit a round, rematch,
export one. Each view reads its form, asks the service, and answers."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from companion import service
from companion.rules import N_, RulesError
from companion.service import Outcome, shares
from companion.store.games import Game, game_or_404
from companion.web import seats
from companion.web.answers import csv_download, json_download, rematch_refused
from companion.web.fragments import every_entry
from companion.web.home import new_game_page
from companion.web.i18n import say
from companion.web.parts import phone

from . import codec, pages
from . import rules as sp
from .forms import new_game, points_from_form, round_from_form, round_values
from .models import KEY, ScorepadGame

bp = Blueprint("scorepad", __name__)


def load(game_id: str) -> ScorepadGame:
    return game_or_404(ScorepadGame, game_id)


@bp.post("/scorepad/new")
def create() -> Response:
    """Seat the players of tonight's other game and open its pad."""
    try:
        setup = new_game(request.form)
    except RulesError as error:
        return new_game_page(KEY, values=request.form, errors=error.errors, status=422)
    game = service.start(ScorepadGame.started, setup)
    return redirect(url_for("scorepad.show", game_id=game.id), code=303)


@bp.get("/scorepad/<game_id>")
def show(game_id: str) -> Response:
    """Show the totals, the next round's form and every round so far."""
    game = load(game_id)
    return pages.render_game(game, game.state())


@bp.get("/scorepad/<game_id>/all")
def all_rounds(game_id: str) -> str:
    """Show every round of a pad, each a tap from its edit page; the pad's page shows the latest."""
    game = load(game_id)
    return every_entry(game, back=url_for("scorepad.show", game_id=game.id), readonly=False)


@bp.get("/scorepad/<game_id>/phones")
def phones(game_id: str) -> str:
    """Each player's own link, to enter their points of every round from their phone."""
    return seats.phones_page(load(game_id))


@bp.post("/scorepad/<game_id>/phones")
def renew_phones(game_id: str) -> Response:
    """New seat links; the old ones open nothing from now on."""
    return seats.renew(load(game_id))


@bp.post("/scorepad/<game_id>/rounds")
def record_round(game_id: str) -> Response:
    """Record the next round."""
    game = load(game_id)
    form = request.form
    try:
        written = service.record(game, lambda: round_from_form(game.setup(), form), form.get("submission"), form.get("number"))
    except RulesError as error:
        state = game.state()
        return pages.render_game(game, state, values=form, errors=error.errors, status=422 if state.next_number else 409)
    if written.outcome is Outcome.REPEATED:
        return pages.after_write(written.game, pages.ALREADY_RECORDED)
    if not written.done:
        return pages.changed_elsewhere(written.game, form)
    # a page that showed the pad just before this round only adds its row; one that missed
    # another phone's change meanwhile gets every row again
    added = written.follows(form.get("version"))
    return pages.after_write(written.game, pages.round_message(written.state), added=added, undo_here=True)


@bp.post("/scorepad/<game_id>/end")
def end(game_id: str) -> Response:
    """End the game here: the best total wins."""
    game = load(game_id)
    form = request.form
    try:
        written = service.record(game, sp.End(), form.get("submission"), form.get("number"))
    except RulesError as error:
        return pages.render_game(game, game.state(), message=error.message, status=409)
    if written.outcome is Outcome.REPEATED:
        return pages.after_write(written.game, N_("The game was already ended."))
    if not written.done:
        return pages.render_game(written.game, written.game.state(), message=pages.CHANGED_ELSEWHERE, status=409)
    # the news carries its undo, as a round's does: an end tapped by mistake is one tap away
    return pages.after_write(written.game, N_("The game is over."), undo_here=True)


@bp.post("/scorepad/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Remove the last input (a round, or the end): an ended game reopens."""
    game = load(game_id)
    written = service.undo(game, request.form.get("number", ""), phone=phone())
    if written.outcome is Outcome.GONE:
        return pages.render_game(game, game.state(), message=N_("There is nothing to undo."), status=409)
    if not written.done:
        message = N_("Another phone changed this game just now; nothing was undone.")
        return pages.render_game(written.game, written.game.state(), message=message, status=409)
    return pages.after_undo(written)


@bp.route("/scorepad/<game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: str, number: int) -> Response | tuple[str, int]:
    """Change a past round; every total after it follows."""
    game = load(game_id)
    state = game.state()
    which = game.input_number(number)
    if which is None:
        if request.method == "POST" and request.form.get("version"):
            # an edit page showed this round: another phone undid it since
            return pages.edit_gone(game, number, request.form)
        abort(404)
    if request.method == "GET":
        return pages.edit_page(game, state, number, values=round_values(state.rounds[number - 1].points))
    form = request.form
    try:
        written = service.edit(
            game,
            which,
            lambda: sp.Round(points_from_form(state.setup, form)),
            form.get("version"),
            phone=phone(),
            shown=form.get("shown"),
        )
    except RulesError as error:
        return pages.edit_page(game, state, number, values=form, errors=error.errors, status=422)
    if written.outcome is Outcome.GONE or (written.outcome is Outcome.CONFLICT and number > len(written.game.state().rounds)):
        return pages.edit_gone(written.game, number, form)
    if not written.done:
        now = written.game
        assert isinstance(now, ScorepadGame)
        return pages.edit_page(now, now.state(), number, values=form, message=pages.STALE_EDIT, status=409)
    flash(say(N_("Round %(number)s changed; every total after it follows.", number=number)))
    return redirect(url_for("scorepad.show", game_id=game.id), code=303)


@bp.post("/scorepad/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """A new pad for the same game and players, once: a second tap finds it made."""
    game = load(game_id)
    state = game.state()
    if not state.finished and game.rematch_id is None:
        message = N_("The game is not over yet: a rematch starts once it has ended.")
        return pages.render_game(game, state, message=message, status=409)
    written = service.rematch(game, lambda: ScorepadGame.started(game.setup()))
    if not written.done:
        return rematch_refused(written, _refused_rematch)
    shares.carry_links(game, written.game)
    flash(say(N_("Rematch! A new pad for %(name)s.", name=game.pad.name)))
    return redirect(url_for("scorepad.show", game_id=written.game.id), code=303)


def _refused_rematch(game: Game, message: str) -> Response:
    assert isinstance(game, ScorepadGame)
    return pages.render_game(game, game.state(), message=message, status=409)


@bp.get("/scorepad/<game_id>/export.json")
def export(game_id: str) -> Response:
    """Download this game as a companion/1 file."""
    game = load(game_id)
    return json_download([game], f"scorepad-{game.id}.json")


@bp.get("/scorepad/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """Download this game's rounds as CSV, one row per player per round."""
    game = load(game_id)
    return csv_download(codec.CSV_COLUMNS, codec.csv_rows(game), f"scorepad-{game.id}.csv")
