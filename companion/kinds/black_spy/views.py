"""Black Spy's pages: start a game, record, undo and edit deals, rematch, export one, and
the rules at a glance. Each view reads its form, asks the service, and answers."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, request, url_for
from werkzeug.wrappers import Response

from companion import service
from companion.registry import CSV_COLUMNS
from companion.rules import N_, RulesError
from companion.service import Outcome, shares
from companion.store.games import game_or_404
from companion.web import seats
from companion.web.answers import csv_download, json_download, rematch_refused
from companion.web.fragments import every_entry
from companion.web.home import new_game_page
from companion.web.i18n import say
from companion.web.parts import phone

from . import codec, pages, reference
from . import rules as bs
from .forms import CARDS, POINTS, ShootQuestion, entry_from_form, form_values, mode_of, new_game
from .models import KEY, BlackSpyGame

bp = Blueprint("black_spy", __name__)


def load(game_id: str) -> BlackSpyGame:
    return game_or_404(BlackSpyGame, game_id)


@bp.post("/black-spy/new")
def create() -> Response | tuple[str, int]:
    """Seat the players and start a game."""
    try:
        setup, house, drawn = new_game(request.form)
    except RulesError as error:
        return new_game_page(KEY, values=request.form, errors=error.errors, status=422)
    game = service.start(BlackSpyGame.started, setup, house)
    if drawn:
        flash(say(N_("The draw is made: %(name)s deals first.", name=setup.players[setup.first_dealer])))
    return redirect(url_for("black_spy.show", game_id=game.id), code=303)


@bp.get("/black-spy/<game_id>")
def show(game_id: str) -> Response:
    """Show the next deal, the deal form and the scoreboard."""
    game = load(game_id)
    asked = request.args.get("mode")
    # the table's way of entering deals holds, after an edit or a reload too: the way its
    # last deal was entered, unless the page asks for the other
    mode = asked if asked in (CARDS, POINTS) else pages.table_mode(game)
    return pages.render_game(game, game.state(), mode=mode)


@bp.get("/black-spy/<game_id>/all")
def all_deals(game_id: str) -> str:
    """Show every deal of a game, each a tap from its edit page; the game page shows the latest."""
    game = load(game_id)
    return every_entry(game, back=url_for("black_spy.show", game_id=game.id), readonly=False)


@bp.post("/black-spy/<game_id>/deals")
def record_deal(game_id: str) -> Response:
    """Record the next deal, by points or by cards."""
    game = load(game_id)
    form = request.form
    mode = mode_of(form)

    def entry() -> bs.DealEntry:
        # read once the deal is known to be new: the table's way of entering is kept with it
        # (set only when it changes: a game the session holds unchanged is written without a
        # flush, store/appending.py)
        if game.entry_mode != mode:
            game.entry_mode = mode
        return entry_from_form(game.setup(), form, mode)

    try:
        written = service.record(game, entry, form.get("submission"), form.get("number"))
    except ShootQuestion as question:
        return pages.render_game(game, game.state(), mode=mode, values=form, ask_shoot=question.candidates)
    except bs.GameOverError as over:
        return pages.render_game(game, game.state(), mode=mode, message=over.message, status=409)
    except RulesError as error:
        return pages.render_game(game, game.state(), mode=mode, values=form, errors=error.errors, status=422)
    if written.outcome is Outcome.REPEATED:
        return pages.after_write(written.game, pages.ALREADY_RECORDED)
    if not written.done:
        return pages.changed_elsewhere(written.game, mode, form)
    # a page that showed the game just before this deal only adds its row; one that missed
    # another phone's edit meanwhile gets every row again
    added = written.follows(form.get("version"))
    return pages.after_write(
        written.game, pages.deal_message(written.state), mode, added=added, undo_here=True, state=written.state
    )


@bp.post("/black-spy/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Remove the last deal; a finished game reopens."""
    game = load(game_id)
    written = service.undo(game, request.form.get("number", ""), phone=phone())
    if written.outcome is Outcome.GONE:
        return pages.render_game(game, game.state(), message=N_("There is no deal to undo."), status=409)
    if written.outcome is Outcome.STALE:
        message = N_("The last deal is now deal %(number)s; nothing was undone.", number=written.row.number)
        return pages.render_game(game, game.state(), message=message, status=409)
    if not written.done:
        message = N_("Another phone changed this game just now; nothing was undone.")
        return pages.render_game(written.game, written.game.state(), message=message, status=409)
    return pages.after_undo(written)


@bp.route("/black-spy/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: str, number: int) -> Response | tuple[str, int]:
    """Change a past deal; every later total, dealer and pass follows."""
    game = load(game_id)
    if not 1 <= number <= len(game.deals):
        if request.method == "POST" and request.form.get("version"):
            # an edit page showed this deal: another phone undid it since
            return pages.edit_gone(game, number, request.form)
        abort(404)
    if request.method == "GET":
        deal = game.deals[number - 1]
        mode = request.args.get("mode") or (CARDS if deal.cards is not None else POINTS)
        state = game.state()
        return pages.edit_page(game, state, deal, mode, values=form_values(state.deals[number - 1]))
    form = request.form
    mode = mode_of(form)
    before = game.state()
    try:
        written = service.edit(
            game,
            number,
            lambda: entry_from_form(before.setup, form, mode),
            form.get("version"),
            phone=phone(),
            shown=form.get("shown"),
        )
    except ShootQuestion as question:
        return pages.edit_page(game, before, game.deals[number - 1], mode, values=form, ask_shoot=question.candidates)
    except RulesError as error:
        return pages.edit_page(game, before, game.deals[number - 1], mode, values=form, errors=error.errors, status=422)
    if written.outcome is Outcome.GONE:
        return pages.edit_gone(written.game, number, form)
    if not written.done:
        return pages.stale_edit(written.game, number, mode, form)
    after = written.state
    flash(say(N_("Deal %(number)s changed; every total after it follows.", number=number)))
    if before.finished and not after.finished and after.next is not None:
        reopened = N_(
            "The game is open again: no total reaches %(end)s now, so deal %(next)s is to play.",
            end=after.end_value,
            next=after.next.number,
        )
        flash(say(reopened))
    elif after.finished and not before.finished:
        flash(say(N_("The game is over.")))
    return redirect(url_for("black_spy.show", game_id=game.id), code=303)


@bp.post("/black-spy/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """Start a new game: same players, seats and rules; the table picks who deals first.

    Once only: a second tap, or a second phone, is sent to the rematch already made.
    """
    game = load(game_id)
    pick = request.form.get("first_dealer")
    try:
        written = service.rematch(game, lambda: BlackSpyGame.started(bs.rematch(game.state(), pick), game.house_rules()))
    except RulesError as error:
        status = 409 if "rematch" in error.errors else 422
        return pages.render_game(game, game.state(), message=error.message, status=status)
    if not written.done:
        return rematch_refused(written, lambda now, message: pages.render_game(now, now.state(), message=message, status=409))
    again = written.game
    assert isinstance(again, BlackSpyGame)
    shares.carry_links(game, again)
    first = again.player_names[again.first_seat]
    if pick == bs.DRAW:
        flash(say(N_("Rematch! The draw is made: %(name)s deals first.", name=first)))
    else:
        flash(say(N_("Rematch! %(name)s deals first.", name=first)))
    return redirect(url_for("black_spy.show", game_id=again.id), code=303)


@bp.get("/black-spy/<game_id>/phones")
def phones(game_id: str) -> str:
    """Each player's own link, to enter their share of every deal from their phone."""
    return seats.phones_page(load(game_id))


@bp.post("/black-spy/<game_id>/phones")
def renew_phones(game_id: str) -> Response:
    """New seat links; the old ones open nothing from now on."""
    return seats.renew(load(game_id))


@bp.get("/black-spy/<game_id>/export.json")
def export(game_id: str) -> Response:
    """Download this game as a companion/1 file."""
    game = load(game_id)
    return json_download([game], f"black-spy-{game.id}.json")


@bp.get("/black-spy/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """Download this game's deals as CSV, one row per player per deal."""
    game = load(game_id)
    return csv_download(CSV_COLUMNS, codec.csv_rows(game), f"black-spy-{game.id}.csv")


@bp.get("/rules/black-spy")
def rules_page() -> str:
    """Show Black Spy's rules at a glance for the rule set asked for, standard if unknown."""
    return reference.page()
