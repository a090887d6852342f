"""Spy's pages: start a game, record and undo turns, rematch, export one, and the rules at a
glance. Public state only. Each view reads its form, asks the service, and answers."""

from __future__ import annotations

import contextlib
from typing import Any

from flask import Blueprint, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from companion import service
from companion.rules import N_, RulesError
from companion.service import Outcome
from companion.store.base import db
from companion.store.games import Game, game_or_404
from companion.web.answers import json_download, rematch_refused, to_rematch
from companion.web.fragments import every_entry
from companion.web.home import new_game_page
from companion.web.i18n import say
from companion.web.parts import phone

from . import pages, reference, rules
from .forms import new_game, placing_again, preview, turn_from_form
from .models import KEY, SpyGame

bp = Blueprint("spy", __name__)


def load(game_id: str) -> SpyGame:
    return game_or_404(SpyGame, game_id)


@bp.post("/spy/new")
def create() -> Response:
    """Seat the players with their colours and start a game."""
    form = request.form
    try:
        setup, drawn = new_game(form)
    except RulesError as error:
        return new_game_page(KEY, values=form, errors=error.errors, status=422)
    earlier = _rematch_of(form.get("rematch_of", ""), setup)
    if earlier is None:
        game: Game = service.start(SpyGame.started, setup)
    else:
        # a rematch whose Spies the table placed again on this form: started once, as any rematch
        written = service.rematch(earlier, lambda: SpyGame.started(setup))
        if not written.done:
            return rematch_refused(written, _refused_rematch)
        game = written.game
    if drawn:
        flash(say(N_("The draw is made: %(name)s plays first.", name=setup.players[setup.first_player])))
    elif earlier is not None:
        flash(say(N_("Rematch! %(name)s plays first.", name=setup.players[setup.first_player])))
    return redirect(url_for("spy.show", game_id=game.id), code=303)


def _rematch_of(game_id: str, setup: rules.Setup) -> SpyGame | None:
    """The finished game a new game's form was opened as the rematch of, if the form still
    seats its players with their colours: a table that changed who plays starts a game of
    its own."""
    earlier = db.session.get(Game, game_id[:64]) if game_id else None
    if not isinstance(earlier, SpyGame):
        return None
    state = earlier.state()
    same_table = (state.setup.players, state.setup.colours) == (setup.players, setup.colours)
    return earlier if state.finished and same_table else None


@bp.post("/spy/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """Start a new game: same players, seats and colours; the table picks who plays first.

    Once only: a second tap, or a second phone, is sent to the rematch already made. A
    table that tracks the Spies places them again first, on the new-game form.
    """
    game = load(game_id)
    if game.rematch_id is not None:
        return to_rematch(game)
    state = game.state()
    pick = request.form.get("first_player")
    try:
        setup = rules.rematch(state, pick)
    except RulesError as error:
        return pages.render_game(game, state, message=error.message, status=409 if "rematch" in error.errors else 422)
    if state.setup.tracking:
        return new_game_page(KEY, values=placing_again(game.id, setup, drawn=pick == rules.DRAW))
    written = service.rematch(game, lambda: SpyGame.started(setup))
    if not written.done:
        return rematch_refused(written, _refused_rematch)
    first = setup.players[setup.first_player]
    if pick == rules.DRAW:
        flash(say(N_("The draw is made: %(name)s plays first.", name=first)))
    else:
        flash(say(N_("Rematch! %(name)s plays first.", name=first)))
    return redirect(url_for("spy.show", game_id=written.game.id), code=303)


def _refused_rematch(game: Game, message: str) -> Response:
    assert isinstance(game, SpyGame)
    return pages.render_game(game, game.state(), message=message, status=409)


@bp.get("/spy/<game_id>")
def show(game_id: str) -> Response:
    """Show whose turn it is, every base, and the turn form.

    A look at a card (``look``) and a move may come in the query string, so the
    form can offer only the answers still possible there, with or without htmx.
    """
    game = load(game_id)
    state = game.state()
    values = request.args
    # a card tapped on a page another phone's turn has overtaken: the look was meant for a
    # turn recorded since (or undone), and shown on the turn now it would be recorded as
    # that player's. The table as it is, saying so, with nothing of the tap carried over
    now = str(len(state.turns) + 1)
    if values.get("number", now) != now:
        return pages.recorded_elsewhere(game)
    try:
        shown = preview(state, values)
    except RulesError as error:
        return pages.render_game(game, state, values=values, errors=error.errors, status=422)
    return pages.render_game(game, state, values=values, **shown)


@bp.get("/spy/<game_id>/all")
def all_turns(game_id: str) -> str:
    """Show every turn of a game in the words the table was told; the game page shows the latest."""
    game = load(game_id)
    return every_entry(game, back=url_for("spy.show", game_id=game.id), readonly=False)


@bp.post("/spy/<game_id>/turns")
def record_turn(game_id: str) -> Response:
    """Record the turn of the player whose turn it is."""
    game = load(game_id)
    form = request.form
    try:
        written = service.record(game, lambda: turn_from_form(game.state(), form), form.get("submission"), form.get("number"))
    except rules.GameOverError as over:
        return pages.render_game(game, game.state(), message=over.message, status=409)
    except RulesError as error:
        state = game.state()
        shown: dict[str, Any] = {}
        with contextlib.suppress(RulesError):
            shown = preview(state, form)
        return pages.render_game(game, state, values=form, errors=error.errors, status=422, **shown)
    if written.outcome is Outcome.REPEATED:
        return pages.after_write(written.game, pages.ALREADY_RECORDED)
    if not written.done:
        return pages.recorded_elsewhere(written.game)
    return pages.after_write(written.game, pages.turn_message(written.state, written.row.entry()), written.state)


@bp.post("/spy/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Remove the last turn; a finished game reopens."""
    game = load(game_id)
    written = service.undo(game, request.form.get("number"), phone=phone())
    if written.outcome is Outcome.GONE:
        return pages.render_game(game, game.state(), message=N_("There is no turn to undo."), status=409)
    if written.outcome is Outcome.STALE:
        message = N_("The last turn is now turn %(number)s; nothing was undone.", number=written.row.number)
        return pages.render_game(game, game.state(), message=message, status=409)
    if not written.done:
        message = N_("Another phone changed this game just now; nothing was undone.")
        return pages.render_game(written.game, written.game.state(), message=message, status=409)
    return pages.after_undo(written)


@bp.get("/spy/<game_id>/export.json")
def export(game_id: str) -> Response:
    """Download this game as a companion/1 file."""
    game = load(game_id)
    return json_download([game], f"spy-{game.id}.json")


@bp.get("/rules/spy")
def rules_page() -> str:
    """Show Spy's rules at a glance."""
    return reference.page()
