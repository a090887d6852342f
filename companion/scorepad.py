"""Scorepad pages: start a pad, record rounds, end it, undo, edit a round, rematch."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, flash, get_flashed_messages, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from . import kinds, parts, scorepad_codec, service
from .exchange import export_file
from .extensions import db, htmx
from .fragments import page_or_fragment
from .games import csv_download, json_download, lost_rematch, new_game_page, to_rematch
from .i18n import say
from .rules import N_, RulesError
from .rules import scorepad as sp
from .scorepad_models import (
    SCOREPAD,
    Scorepad,
    ScorepadEntry,
    new_scorepad_game,
    pad_of,
    player_counts,
    player_stats,
    preload,
    setup_of,
    state_of,
)
from .service import Outcome

bp = Blueprint("scorepad", __name__, url_prefix="/scorepad")

ROWS = sp.MAX_PLAYERS


@bp.record_once
def pad_sizes(state) -> None:
    # the numbers its forms show, from the rules; and its setup row, for a list line
    state.app.jinja_env.globals.update(
        SCOREPAD_PLAYERS=(sp.MIN_PLAYERS, sp.MAX_PLAYERS), SCOREPAD_MAX_TARGET=sp.MAX_TARGET, pad_of=pad_of
    )


def load(game_id: str) -> Any:
    return kinds.game_of_kind(game_id, KIND)


def _target(text: str | None) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return sp.parse_points(text)
    except ValueError:
        raise RulesError.about("target", N_("A target is a whole number from 1 to %(most)s.", most=sp.MAX_TARGET)) from None


@bp.post("/new")
def create() -> Response:
    """Seat the players of tonight's other game and open its pad."""
    form = request.form
    try:
        setup = sp.new_setup(
            form.get("pad-name", ""),
            [form.get(f"pad-player-{row}", "") for row in range(ROWS)],
            lowest_wins=form.get("lowest_wins") == "yes",
            target=_target(form.get("target")),
        )
    except RulesError as error:
        return new_game_page(SCOREPAD, values=form, errors=error.errors, status=422)
    game, pad = new_scorepad_game(setup)
    db.session.add(pad)
    service.start(game)
    return redirect(url_for("scorepad.show", game_id=game.id), code=303)


@bp.get("/<game_id>")
def show(game_id: str) -> Response:
    """Show the totals, the next round's form and every round so far."""
    game = load(game_id)
    return render_game(game, state_of(game))


@bp.post("/<game_id>/rounds")
def record_round(game_id: str) -> Response:
    """Record the next round."""
    game = load(game_id)
    state = state_of(game)
    form = request.form
    submission = form.get("submission", "")[:64] or None
    refused = service.refusal(game, ScorepadEntry, submission, form.get("number"))
    if refused is Outcome.REPEATED:
        return _after_write(game, ALREADY_RECORDED)
    if refused is Outcome.STALE:
        return _changed_elsewhere(game, form)
    try:
        entry = sp.Round(sp.points_from_form(state.setup, form))
        after = sp.record(state.setup, state.entries, entry)
    except RulesError as error:
        return render_game(game, state, values=form, errors=error.errors, status=422 if state.next_number else 409)
    row = ScorepadEntry()
    row.set_entry(entry)
    written = service.record(game, row, submission, form.get("number"))
    if written.outcome is Outcome.REPEATED:
        return _after_write(written.game, ALREADY_RECORDED)
    if not written.done:
        return _changed_elsewhere(written.game, form)
    return _after_write(written.game, _round_message(after))


def _changed_elsewhere(game: Any, form: Mapping[str, str]) -> Response:
    """Another phone wrote this game first: say what it did, and keep what this phone typed."""
    state = state_of(game)
    meant = service.posted_number(form.get("number", ""))
    message = CHANGED_ELSEWHERE
    # the round this phone meant is there now: another phone's, recorded first
    if meant is not None and len(state.entries) >= meant and isinstance(state.entries[meant - 1], sp.Round):
        if state.next_number is None:
            message = N_(
                "Round %(number)s was just recorded from another phone, and the game is over; yours was not recorded.",
                number=meant,
            )
        else:
            message = N_(
                "Round %(number)s was just recorded from another phone, so yours was not. Your numbers are kept "
                "below: record them as round %(next)s if they are a new round, or clear them.",
                number=meant,
                next=state.next_number,
            )
    return render_game(game, state, message=message, status=409, values=form, kept=True)


def _round_message(state: sp.ScorepadState) -> str:
    sentences = [say(N_("Round %(number)s recorded.", number=len(state.rounds)))]
    if state.finished:
        sentences.append(say(N_("The game is over.")))
    return " ".join(sentences)


@bp.post("/<game_id>/end")
def end(game_id: str) -> Response:
    """End the game here: the best total wins."""
    game = load(game_id)
    state = state_of(game)
    form = request.form
    submission = form.get("submission", "")[:64] or None
    try:
        sp.record(state.setup, state.entries, sp.End())
    except RulesError as error:
        return render_game(game, state, message=error.message, status=409)
    row = ScorepadEntry()
    row.set_entry(sp.End())
    written = service.record(game, row, submission, form.get("number"))
    if written.outcome is Outcome.REPEATED:
        return _after_write(written.game, N_("The game was already ended."))
    if not written.done:
        return render_game(written.game, state_of(written.game), message=CHANGED_ELSEWHERE, status=409)
    return _after_write(written.game, N_("The game is over."))


@bp.post("/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Remove the last input (a round, or the end): an ended game reopens."""
    game = load(game_id)
    entries = pad_of(game).entries
    if not entries:
        return render_game(game, state_of(game), message=N_("There is nothing to undo."), status=409)
    last = entries[-1]
    what = (
        N_("The end undone: the game is open again.")
        if last.points is None
        else N_("Round %(number)s undone.", number=_round_number(entries, last))
    )
    written = service.undo(game, request.form.get("number", ""))
    if not written.done:
        return render_game(
            written.game,
            state_of(written.game),
            message=N_("Another phone changed this game just now; nothing was undone."),
            status=409,
        )
    return _after_write(written.game, what)


def _round_number(entries: list[ScorepadEntry], row: ScorepadEntry) -> int:
    return sum(1 for entry in entries[: entries.index(row) + 1] if entry.points is not None)


@bp.route("/<game_id>/rounds/<int:number>/edit", methods=["GET", "POST"])
def edit_round(game_id: str, number: int) -> Response | str | tuple[str, int]:
    """Change a past round; every total after it follows."""
    game = load(game_id)
    state = state_of(game)
    rounds = [row for row in pad_of(game).entries if row.points is not None]
    if not 1 <= number <= len(rounds):
        if request.method == "POST" and request.form.get("version"):
            # an edit page showed this round: another phone undid it since
            return _edit_gone(game, number)
        abort(404)
    row = rounds[number - 1]
    if request.method == "GET":
        values = {f"points-{seat}": str(points) for seat, points in enumerate(row.points or [])}
        return _edit_page(game, state, number, values=values)
    form = request.form
    if form.get("version") and form.get("version") != str(game.version):
        return _edit_page(game, state, number, values=form, message=STALE_EDIT), 409
    try:
        points = sp.points_from_form(state.setup, form)
        sp.edit(state.setup, state.entries, number, points)
    except RulesError as error:
        return _edit_page(game, state, number, values=form, errors=error.errors), 422
    inputs = pad_of(game).entries
    written = service.edit(game, inputs.index(row) + 1, lambda stored: stored.set_entry(sp.Round(points)), form.get("version"))
    if not written.done:
        now = state_of(written.game)
        if number > len(now.rounds):
            return _edit_gone(written.game, number)
        return _edit_page(written.game, now, number, values=form, message=STALE_EDIT), 409
    flash(say(N_("Round %(number)s changed; every total after it follows.", number=number)))
    return redirect(url_for("scorepad.show", game_id=game.id), code=303)


def _edit_gone(game: Any, number: int) -> Response:
    """An edit of a round another phone undid meanwhile: the pad as it is now, and why."""
    message = N_("Round %(number)s was undone on another phone just now, so your change was not saved.", number=number)
    return render_game(game, state_of(game), message=message, status=409)


def _edit_page(game: Any, state: sp.ScorepadState, number: int, message: str | None = None, **form: Any) -> str:
    return render_template(
        "scorepad/edit.html",
        game=game,
        state=state,
        number=number,
        message=message,
        played=state.rounds[number - 1],
        **_form_context(**form),
    )


@bp.post("/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """A new pad for the same game and players, once: a second tap finds it made."""
    game = load(game_id)
    if game.rematch_id is not None:
        return to_rematch(game)
    state = state_of(game)
    if not state.finished:
        return render_game(game, state, message=N_("The game is not over yet: a rematch starts once it has ended."), status=409)
    again, pad = new_scorepad_game(setup_of(game))
    db.session.add(pad)
    written = service.rematch(game, again)
    if not written.done:
        return lost_rematch(written.game, lambda now, message: render_game(now, state_of(now), message=message, status=409))
    flash(say(N_("Rematch! A new pad for %(name)s.", name=pad.name)))
    return redirect(url_for("scorepad.show", game_id=again.id), code=303)


@bp.get("/<game_id>/export.json")
def export(game_id: str) -> Response:
    """Download this game as a companion/1 file."""
    game = load(game_id)
    return json_download(export_file([game]), f"scorepad-{game.id}.json")


@bp.get("/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """Download this game's rounds as CSV, one row per player per round."""
    import csv
    import io

    game = load(game_id)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(scorepad_codec.CSV_COLUMNS)
    writer.writerows(scorepad_codec.csv_rows(game))
    return csv_download(out.getvalue(), f"scorepad-{game.id}.csv")


CHANGED_ELSEWHERE = N_(
    "Another phone changed this game just now, so nothing was recorded. Your numbers are kept below: "
    "check them against the totals and record them, or clear them."
)
STALE_EDIT = N_("Another phone changed this game since you opened this page, so your change was not saved.")
ALREADY_RECORDED = N_("This round was already recorded; it is counted once.")


def _form_context(
    values: Mapping[str, str] | None = None, errors: Mapping[str, str] | None = None, kept: bool = False
) -> dict[str, Any]:
    return {"values": values or {}, "errors": errors or {}, "kept": kept, "submission": parts.submission()}


def render_game(game: Any, state: sp.ScorepadState, message: str | None = None, status: int = 200, **form: Any) -> Response:
    """The pad, or only its ``#pad`` fragment for htmx."""
    context = {
        "game": game,
        "pad": pad_of(game),
        "state": state,
        "messages": [*get_flashed_messages(), *([message] if message else [])],
        **_form_context(**form),
    }
    return page_or_fragment("scorepad/game.html", "scorepad/_game.html", status, **context)


def _after_write(game: Any, message: str) -> Response:
    """After a change: the fragment for htmx, a 303 to the pad otherwise."""
    if htmx:
        return render_game(game, state_of(game), message=message)
    flash(say(message))
    return redirect(url_for("scorepad.show", game_id=game.id), code=303)


def live_context(game: Any) -> dict[str, Any]:
    """What the follow page shows of a pad."""
    return {"pad": pad_of(game), "state": state_of(game), "messages": [], **_form_context()}


KIND = kinds.GameKind(
    key=SCOREPAD,
    name=N_("Score pad"),
    following=N_("Following a score pad"),
    blueprint=bp,
    show="scorepad.show",
    reference=None,
    inputs=lambda game: pad_of(game).entries,
    replay=state_of,
    figures=scorepad_codec.figures,
    to_json=scorepad_codec.to_json,
    parse=scorepad_codec.parse,
    rows=scorepad_codec.rows,
    live=live_context,
    player_stats=player_stats,
    player_counts=player_counts,
    preload=preload,
    # no BoardGameGeek id: BG Stats matches the game by the name the table gave it
    bgstats=lambda game, state: {"name": pad_of(game).name, "highestWins": not state.setup.lowest_wins},
)


__all__ = ["KIND", "Scorepad", "bp"]
