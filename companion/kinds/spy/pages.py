"""Spy's pages: whose turn, every base and the turn's form; and what the table is told of
each turn, in the words it was told at the table."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from flask import flash, get_flashed_messages, redirect, url_for
from werkzeug.wrappers import Response

from companion.rules import N_, Message, Nn_, RulesError
from companion.service import Written
from companion.web.extensions import htmx
from companion.web.fragments import page_or_fragment
from companion.web.i18n import say
from companion.web.parts import submission

from . import rules
from .forms import look_text, preview, turn_values
from .models import SpyGame

ALREADY_RECORDED = N_("This turn was already recorded; it is counted once.")


def render_game(
    game: SpyGame,
    state: rules.SpyState,
    values: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    message: str | None = None,
    status: int = 200,
    mirror: Mapping[int, int | None] | None = None,
    look: tuple[int, int | None] | None = None,
    answers: tuple[rules.Answer, ...] = (),
    seen: rules.SpyState | None = None,
    kept: bool = False,
) -> Response:
    """The game page, or for htmx what a turn changes: the turn card and the bases
    (``#spy-now``) and the game's other regions out of band.

    Without a preview of its own (after a write, a refusal), the turn as it stands:
    the cards each Spy looks at are ready to tap.
    """
    if mirror is None:
        standing = preview(state, {})
        mirror, seen = standing.get("mirror"), standing.get("seen")
    context = {
        "game": game,
        "state": state,
        "seen": seen or state,
        "values": values or {},
        "errors": errors or {},
        "messages": [*get_flashed_messages(), *([message] if message else [])],
        "mirror": mirror or {},
        "look": look,
        # the look an answer chosen goes with (spy/_now.html): another card tapped asks anew
        "answer_for": look_text(look) if look else "",
        "answers": answers,
        # a turn an undo put back: with a way to drop it
        "kept": kept,
        "submission": submission(),
        "Answer": rules.Answer,
        "OutReason": rules.OutReason,
    }
    return page_or_fragment("spy/game.html", "spy/_changed.html", status, **context)


def after_write(game: SpyGame, message: str, state: rules.SpyState | None = None) -> Response:
    """After a change: the fragment for htmx, a 303 to the game page otherwise. ``state``: the
    game as the write left it, where the write has it (not folded again from its turns)."""
    if htmx:
        return render_game(game, state or game.state(), message=message)
    flash(say(message))
    return redirect(url_for("spy.show", game_id=game.id), code=303)


def after_undo(written: Written[SpyGame]) -> Response:
    """After an undo: the game, with the undone turn's move and look back in the form, as
    they were before Record was tapped, to mend the one tap that was wrong (or to start the
    turn again). A turn with neither, or a page without JavaScript (a 303 to the game page),
    gets an empty form."""
    game, state = written.game, written.state or written.game.state()
    number = len(state.turns) + 1
    values = turn_values(written.row.entry())
    shown: dict[str, Any] | None = None
    if htmx and values:
        # the turn was taken from this very state, so its look is one the table may take again;
        # should the rules ever refuse it, the form comes empty rather than as an error
        with contextlib.suppress(RulesError):
            shown = preview(state, values)
    if shown is None:
        return after_write(game, N_("Turn %(number)s undone.", number=number), state)
    message = N_("Turn %(number)s undone: what was entered for it is back in the form, to mend and record again.", number=number)
    return render_game(game, state, values=values, message=message, kept=True, **shown)


def recorded_elsewhere(game: SpyGame) -> Response:
    state = game.state()
    message = N_(
        "Turn %(number)s was just recorded from another phone; here is the table now. Nothing you entered was saved.",
        number=len(state.turns),
    )
    return render_game(game, state, message=message, status=409)


def turn_message(state: rules.SpyState, turn: rules.Turn) -> str:
    """What the table is told of a turn, from the state it left."""
    names = state.setup.players
    who = names[turn.player]
    # a tracked table's turn says its move first, as the player announced it
    sentences = [say(part) for part in move_words(who, turn.move)] if turn.move is not None else []
    if turn.spy is None:
        sentences.append(say(N_("%(who)s did not spy.", who=who)))
    else:
        them = names[turn.spy.target]
        answer = turn.spy.answer
        said: Message = {
            rules.Answer.SAFE: N_("%(who)s spied on %(them)s: a Safe.", who=who, them=them),
            rules.Answer.TOP_SECRET: N_("%(who)s spied on %(them)s: a Top Secret.", who=who, them=them),
            rules.Answer.TARGET: N_(
                "%(who)s exposed %(them)s's %(target)s.", who=who, them=them, target=_exposed_label(state, turn.spy)
            ),
            rules.Answer.BOMB: N_("%(who)s found one of %(them)s's bombs: tssss! It is lit.", who=who, them=them),
            rules.Answer.LIT_BOMB: N_("%(who)s found %(them)s's lit bomb and is blown up.", who=who, them=them),
            rules.Answer.EXPOSED: N_("%(who)s looked at %(them)s's exposed card: nothing new.", who=who, them=them),
            rules.Answer.SPY: N_("%(who)s looked at %(them)s's Spy: nothing revealed.", who=who, them=them),
        }[answer]
        if answer is rules.Answer.TARGET and state.out.get(turn.spy.target) is rules.OutReason.FOUND_OUT:
            # the card exposed is the last target: named once, with what it does
            said = N_(
                "%(who)s exposed %(them)s's %(target)s: %(them)s is found out.",
                who=who,
                them=them,
                target=_exposed_label(state, turn.spy),
            )
        sentences.append(say(said))
    if state.winner is not None:
        sentences.append(say(N_("%(name)s wins!", name=names[state.winner])))
    return " ".join(sentences)


def move_words(who: str, move: rules.Move) -> list[Message]:
    """A Spy's move in the words of the turn's news: the move, then how it was turned."""
    said: list[Message] = []
    if move.steps:
        said.append(Nn_("%(who)s moved their Spy %(num)s place.", "%(who)s moved their Spy %(num)s places.", move.steps, who=who))
    if move.turn_before or move.turn_after:
        said.append(N_("%(who)s turned their Spy round.", who=who))
    if move.other_end:
        said.append(N_("%(who)s put their Spy at the other end of the base.", who=who))
    return said


def turn_log(state: rules.SpyState, latest: int | None = None) -> list[tuple[int, str]]:
    """Each turn so far (or the ``latest`` few), numbered, in the words the table was told
    when it was recorded."""
    played = list(zip(rules.after_each(state), state.turns, strict=True))
    first = 0 if latest is None else max(0, len(played) - latest)
    return [(number, turn_message(after, turn)) for number, (after, turn) in enumerate(played[first:], start=first + 1)]


def _exposed_label(state: rules.SpyState, action: rules.SpyAction) -> str:
    target = state.bases[action.target].exposed.get(action.card)  # type: ignore[arg-type]  # a card of None (the Spy) is simply not found
    return target.label if target else N_("target")


def live(game: SpyGame) -> dict[str, Any]:
    """What the follow page shows of a game of Spy: the table as it stands, no form."""
    state = game.state()
    return {
        "state": state,
        "seen": state,
        "mirror": {},
        "look": None,
        "answers": (),
        "values": {},
        "errors": {},
        "messages": [],
    }
