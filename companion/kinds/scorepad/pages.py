"""The score pad's pages: the totals with the next round's form and every round so far, the
edit page of a past round, and what the table is told after a write or a refusal."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import flash, get_flashed_messages, redirect, render_template, url_for
from werkzeug.wrappers import Response

from companion import service
from companion.rules import N_, Message, Nn_, RulesError
from companion.service import Written, posted_number
from companion.web import answers
from companion.web.extensions import htmx
from companion.web.fragments import page_or_fragment
from companion.web.i18n import say
from companion.web.parts import submission

from . import rules as sp
from .forms import round_from_form, round_values
from .models import ScorepadGame

CHANGED_ELSEWHERE = N_(
    "Another phone changed this game just now, so nothing was recorded. Your numbers are kept below: "
    "check them against the totals and record them, or clear them."
)
STALE_EDIT = N_("Another phone changed this game since you opened this page, so your change was not saved.")
ALREADY_RECORDED = N_("This round was already recorded; it is counted once.")


def form_context(
    values: Mapping[str, str] | None = None, errors: Mapping[str, str] | None = None, kept: bool | str = False
) -> dict[str, Any]:
    # kept: numbers shown that are not recorded, with a way to drop them; "undone" when an
    # undo put them back (its news says so: the form does not say they were typed here)
    return {"values": values or {}, "errors": errors or {}, "kept": kept, "submission": submission()}


def render_game(
    game: ScorepadGame,
    state: sp.ScorepadState,
    message: str | None = None,
    status: int = 200,
    added: bool = False,
    undo_here: bool = False,
    **form: Any,
) -> Response:
    """The pad, or for htmx what a write changes: the next round's form (``#pad-now``) and
    the pad's other regions out of band. ``added``: the answer to a new round recorded from
    a page that showed the pad just before it, which only has to add that round's row."""
    context = {
        "game": game,
        "pad": game.pad,
        "state": state,
        "messages": [*get_flashed_messages(), *([message] if message else [])],
        "added": added and len(state.rounds) > 1,
        # the news of a round just recorded carries its undo, under the scorer's thumb
        "undo_here": undo_here and bool(state.rounds),
        **form_context(**form),
    }
    return page_or_fragment("scorepad/game.html", "scorepad/_changed.html", status, **context)


def after_write(game: ScorepadGame, message: str, added: bool = False, undo_here: bool = False) -> Response:
    """After a change: the fragment for htmx, a 303 to the pad otherwise."""
    if htmx:
        return render_game(game, game.state(), message=message, added=added, undo_here=undo_here)
    flash(say(message))
    return redirect(url_for("scorepad.show", game_id=game.id), code=303)


def after_undo(written: Written[ScorepadGame]) -> Response:
    """After an undo: the pad, with the undone round's points back in the form, as they were
    before Record was tapped, to mend the one mistyped. The end undone reopens the pad;
    without JavaScript the page comes by a 303, its form empty."""
    game, points = written.game, written.row.points
    if points is None:
        return after_write(game, N_("The end undone: the game is open again."))
    state = written.state or game.state()
    number = len(state.rounds) + 1
    if not htmx:
        return after_write(game, N_("Round %(number)s undone.", number=number))
    message = N_("Round %(number)s undone: its points are back in the form, to mend and record again.", number=number)
    # kept: with a way to drop them, for a round undone to be dropped rather than mended
    return render_game(game, state, message=message, values=round_values(points), kept="undone")


def round_message(state: sp.ScorepadState) -> str:
    sentences = [say(N_("Round %(number)s recorded.", number=len(state.rounds)))]
    if state.finished:
        sentences.append(say(N_("The game is over.")))
    return " ".join(sentences)


def changed_elsewhere(game: ScorepadGame, form: Mapping[str, str]) -> Response:
    """Another phone wrote this game first: say what it did, and keep what this phone typed."""
    state = game.state()
    meant = posted_number(form.get("number"))
    message: Message = CHANGED_ELSEWHERE
    # the round this phone meant is there now: another phone's, recorded first
    if meant is not None and meant >= 1 and len(state.entries) >= meant and isinstance(state.entries[meant - 1], sp.Round):
        repeated = _repeated(state, form, range(meant, len(state.entries) + 1))
        if repeated is not None:
            # the same round entered twice (the players' phones were first, or this phone fell
            # behind by more than one): nothing of it to keep
            same = N_(
                "Round %(number)s was just recorded from another phone with the same points as yours: it counts once.",
                number=repeated,
            )
            return render_game(game, state, message=same, status=409)
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
            since = list(range(meant, state.next_number))
            if len(since) > 1:
                # a phone left a while: every round recorded meanwhile, not the first alone
                message = Nn_(
                    "Round %(numbers)s was just recorded from another phone, so yours was not. Your numbers are "
                    "kept below: record them as round %(next)s if they are a new round, or clear them.",
                    "Rounds %(numbers)s were just recorded from another phone, so yours was not. Your numbers are "
                    "kept below: record them as round %(next)s if they are a new round, or clear them.",
                    len(since),
                    numbers=answers.run_said(since),
                    next=state.next_number,
                )
    return render_game(game, state, message=message, status=409, values=form, kept=True)


def _repeated(state: sp.ScorepadState, form: Mapping[str, str], numbers: Iterable[int]) -> int | None:
    """The number of the first of the entries ``numbers`` that is the form's round again, if
    any (a form the rules cannot read holds none; the table's end is no round)."""
    try:
        typed = round_from_form(state.setup, form)
    except RulesError:
        return None
    return next((number for number in numbers if state.entries[number - 1] == typed), None)


def edit_page(
    game: ScorepadGame, state: sp.ScorepadState, number: int, message: str | None = None, status: int = 200, **form: Any
) -> tuple[str, int]:
    html = render_template(
        "scorepad/edit.html",
        game=game,
        state=state,
        number=number,
        message=message,
        played=state.rounds[number - 1],
        # what the round reads now, sent back with the change (service.edit)
        shown=service.as_shown(game, game.inputs()[which - 1]) if (which := game.input_number(number)) else "",
        **form_context(**form),
    )
    return html, status


def edit_gone(game: ScorepadGame, number: int, form: Mapping[str, str]) -> Response:
    """An edit of a round another phone undid meanwhile (``answers.edit_gone``)."""
    gone = N_("Round %(number)s was undone on another phone just now, so your change was not saved.", number=number)
    return answers.edit_gone(game, gone, "scorepad.show", form)


def live(game: ScorepadGame) -> dict[str, Any]:
    """What the follow page shows of a pad."""
    return {"pad": game.pad, "state": game.state(), "messages": [], **form_context()}
