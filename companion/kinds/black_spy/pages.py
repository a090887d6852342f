"""Black Spy's pages: the game with its next deal's form, the edit page of a past deal,
and what the table is told after a write or a refusal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import flash, get_flashed_messages, redirect, render_template, url_for
from werkzeug.wrappers import Response

from companion import service
from companion.rules import N_, Message, Nn_, RulesError
from companion.service import Written, posted_number
from companion.web import answers
from companion.web.extensions import htmx
from companion.web.fragments import page_or_fragment
from companion.web.i18n import format_decimal, say
from companion.web.parts import submission

from . import rules as bs
from .forms import CARDS, POINTS, ShootQuestion, deal_checks, entry_from_form, mode_of, undone_values
from .models import BlackSpyGame, Deal

# deals a phone may record ahead of the server: a stretch of a game without the Wi-Fi
UPCOMING_DEALS = 12

ALREADY_RECORDED = N_("This deal was already recorded; it is counted once.")


def deal_form_context(
    state: bs.GameState,
    mode: str,
    action: str,
    default_rest: int | None,
    values: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    ask_shoot: tuple[int, ...] = (),
    kept: bool = False,
    totals: tuple[int, ...] = (),
) -> dict[str, Any]:
    rules = state.setup.rules
    return {
        "mode": mode,
        "action": action,
        "values": values or {},
        "errors": errors or {},
        "ask_shoot": ask_shoot,
        "default_rest": default_rest,
        "rules": rules,
        "high_blacks": bs.HIGH_BLACKS,
        "card_counts": rules.card_counts,
        # the messages a change of who gets the rest makes out of date
        "rest_clears": " ".join(
            [f"{key}-total" for key, _, _ in rules.card_counts] + [f"high-{card}" for card in bs.HIGH_BLACKS]
        ),
        # the page counts a deal's points as the cards are typed, from the rules' values
        "card_values": {
            "counts": dict(rules.card_values),
            "high": {str(card): points for card, points in rules.high_black_points.items()},
            "black": [key for key in bs.BLACK_COUNTS if key in rules.card_values],
            # once one player's cards hold every black one, the points shown are the shoot's
            "shoot": bs.shoot_scores(rules, len(state.setup.players)),
        },
        # numbers not recorded (another phone beat this one to them, or an undo put them back)
        # are kept on screen, with a way to drop them
        "kept": kept,
        "totals": totals,
        "submission": submission(),
    }


def _said(value: Any) -> Any:
    """The rules' sentences in ``value`` said in the reader's language, for the page's script."""
    if isinstance(value, Mapping):
        return {key: _said(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_said(item) for item in value]
    return say(value)


def render_game(
    game: BlackSpyGame,
    state: bs.GameState,
    mode: str = POINTS,
    message: str | None = None,
    status: int = 200,
    added: bool = False,
    undo_here: bool = False,
    repeats: int | None = None,
    **form: Any,
) -> Response:
    """The game page, or for htmx what a write changes: the next deal's card (``#game-now``)
    and the game's other regions out of band.

    It carries what the page needs to go on while the server cannot be reached: the
    next deals' dealer, pass and lead, and the deal checks' numbers and sentences.
    ``added``: the answer to a new deal recorded from a page that showed the game just
    before it, which only has to add that deal's row to its table.
    """
    context = {
        "game": game,
        "state": state,
        "messages": [*get_flashed_messages(), *([message] if message else [])],
        "added": added and len(state.deals) > 1,
        # the news of a deal just recorded carries its undo, under the scorer's thumb
        "undo_here": undo_here and bool(state.deals),
        # the deal a refused one repeats, for the phone's queue of deals kept while offline
        "repeats": repeats,
        "upcoming": bs.upcoming(state, UPCOMING_DEALS),
        # for the page's deal rules (black_spy/_deal_rules.html), which no answer sends again
        "checks": lambda: _said(deal_checks(state.setup.rules, state.setup.players)),
        **deal_form_context(
            state,
            mode,
            action=url_for("black_spy.record_deal", game_id=game.id),
            default_rest=state.next.dealer if state.next else None,
            totals=state.totals if state.deals else (),
            **form,
        ),
    }
    return page_or_fragment("black_spy/game.html", "black_spy/_changed.html", status, **context)


def table_mode(game: BlackSpyGame) -> str:
    """How this table enters its deals: as it recorded the last one (by points before any)."""
    return CARDS if game.entry_mode == CARDS else POINTS


def after_write(
    game: BlackSpyGame,
    message: str,
    mode: str | None = None,
    added: bool = False,
    undo_here: bool = False,
    state: bs.GameState | None = None,
) -> Response:
    """After a change: the fragment for htmx, a 303 to the game page otherwise.

    The deal form stays in the mode the table used: a table that counts cards keeps counting.
    ``state``: the game as the write left it, where the write has it (folded again from the
    game's deals, the same state was found among the kept folds, some 0.2 ms at deal 60).
    """
    mode = mode or table_mode(game)
    if htmx:
        state = state or game.state()
        return render_game(game, state, mode=mode, message=message, added=added, undo_here=undo_here)
    flash(say(message))
    if mode == CARDS:
        return redirect(url_for("black_spy.show", game_id=game.id, mode=CARDS), code=303)
    return redirect(url_for("black_spy.show", game_id=game.id), code=303)


def after_undo(written: Written[BlackSpyGame]) -> Response:
    """After an undo: the game, with the undone deal's numbers back in the form, as they were
    before Record was tapped. A deal is undone at once to mend what was mistyped in it: the
    table changes that box and records the deal again, rather than type it all anew. Without
    JavaScript the page comes by a 303 (after_write), and its form is empty."""
    game, state, undone = written.game, written.state or written.game.state(), written.row
    if not htmx:
        return after_write(game, N_("Deal %(number)s undone.", number=undone.number), state=state)
    values = undone_values(undone.entry())
    message = N_("Deal %(number)s undone: its numbers are back in the form, to mend and record again.", number=undone.number)
    # kept: beside Record, a way to drop them, for a deal undone to be dropped rather than mended
    return render_game(game, state, mode=values["mode"], message=message, values=values, kept=True)


def deal_message(state: bs.GameState) -> str:
    """What the table is told of the deal just recorded."""
    deal = state.deals[-1]
    names = state.setup.players
    sentences = [say(N_("Deal %(number)s recorded.", number=deal.number))]
    if deal.shooter is not None:
        sentences.append(
            say(
                N_(
                    "%(name)s took all %(blacks)s black cards: 0 for %(name)s, %(points)s for everyone else.",
                    name=names[deal.shooter],
                    blacks=bs.BLACK_CARDS,
                    points=state.setup.rules.deal_total,
                )
            )
        )
    if state.finished:
        sentences.append(say(N_("The game is over.")))
    return " ".join(sentences)


def changed_elsewhere(game: BlackSpyGame, mode: str, form: Mapping[str, str]) -> Response:
    """Another phone wrote this game first: say what it did, and keep what this phone typed."""
    state = game.state()
    meant = posted_number(form.get("number"))
    # the deals recorded since the one this phone meant, by other phones
    since = list(range(max(meant, 1), len(state.deals) + 1)) if meant is not None else []
    repeated = _repeated(state, form, mode, since)
    if repeated is not None:
        # the same deal entered twice (the players' phones were first, or this phone fell
        # behind by more than one): nothing of it to keep, and the phone's queue, told so
        # (``repeats``), offers no second recording of it
        same = N_(
            "Deal %(number)s was just recorded from another phone with the same points as yours: it counts once.",
            number=repeated,
        )
        return render_game(game, state, mode=mode, message=same, status=409, repeats=repeated)
    if meant is not None and len(state.deals) >= meant:
        if state.finished or state.next is None:
            message: Message = N_(
                "Deal %(number)s was just recorded from another phone, and the game is over; yours was not recorded.",
                number=meant,
            )
            return render_game(game, state, mode=mode, message=_with_typed(message, state, form, mode), status=409)
        message = N_(
            "Deal %(number)s was just recorded from another phone, so yours was not. Your numbers are kept "
            "below: record them as deal %(next)s if they are a new deal, or discard them.",
            number=meant,
            next=state.next.number,
        )
        if len(since) > 1:
            # a phone left a while: every deal recorded meanwhile, not the first alone
            message = Nn_(
                "Deal %(numbers)s was just recorded from another phone, so yours was not. Your numbers are "
                "kept below: record them as deal %(next)s if they are a new deal, or discard them.",
                "Deals %(numbers)s were just recorded from another phone, so yours was not. Your numbers are "
                "kept below: record them as deal %(next)s if they are a new deal, or discard them.",
                len(since),
                numbers=answers.run_said(since),
                next=state.next.number,
            )
    elif state.finished or state.next is None:
        message = N_("Another phone changed this game just now and it is over; nothing you typed was recorded.")
        return render_game(game, state, mode=mode, message=_with_typed(message, state, form, mode), status=409)
    else:
        message = N_(
            "Another phone changed this game just now (a deal edited or undone), so nothing was recorded. "
            "Your numbers are kept below: check them against the scores and record them as deal %(next)s, or discard them.",
            next=state.next.number,
        )
    return render_game(game, state, mode=mode, message=message, status=409, values=form, kept=True)


def _repeated(state: bs.GameState, form: Mapping[str, str], mode: str, numbers: Sequence[int]) -> int | None:
    """The first of the deals ``numbers`` that the form holds again, if any (a form the rules
    cannot read, or that asks a question, holds no deal)."""
    try:
        entry = entry_from_form(state.setup, form, mode)
    except (RulesError, ShootQuestion):
        return None
    return next((number for number in numbers if bs.repeats(state.setup, entry, state.deals[number - 1])), None)


def _with_typed(message: Message, state: bs.GameState, form: Mapping[str, str], mode: str) -> str:
    """A refusal that leaves no form to keep this phone's numbers in, with the numbers said:
    the table can check them against the deal that was recorded before it undoes anything."""
    typed = answers.typed_points(state.setup.players, form)
    if mode != POINTS or not any(text for _, text in typed):
        return message
    numbers = [f"{name}\u00a0{text or '–'}" for name, text in typed]
    return f"{say(message)} {say(N_('The numbers typed: %(numbers)s.', numbers=numbers))}"


def edit_page(
    game: BlackSpyGame, state: bs.GameState, deal: Deal, mode: str, message: str | None = None, status: int = 200, **form: Any
) -> tuple[str, int]:
    html = render_template(
        "black_spy/edit.html",
        game=game,
        state=state,
        deal=deal,
        message=message,
        played=state.deals[deal.number - 1],
        # what the deal reads now, sent back with the change (service.edit)
        shown=service.as_shown(game, deal),
        **deal_form_context(
            state,
            mode,
            action=url_for("black_spy.edit_deal", game_id=game.id, number=deal.number),
            default_rest=state.deals[deal.number - 1].info.dealer,
            **form,
        ),
    )
    return html, status


def stale_edit(game: BlackSpyGame, number: int, mode: str, form: Mapping[str, str]) -> tuple[str, int]:
    """An edit another phone's change beat: the deal as it reads now, said, and the numbers
    this phone typed kept in its form, to save in its place (a new deal beaten so keeps its
    numbers too, ``changed_elsewhere``)."""
    state = game.state()
    played = state.deals[number - 1]
    reads = [f"{name} {format_decimal(points)}" for name, points in zip(state.setup.players, played.raw, strict=True)]
    message = N_(
        "Another phone changed this game since you opened this page, so your change was not saved. "
        "Deal %(number)s now reads %(reads)s; your numbers are kept below, to save in its place.",
        number=number,
        reads=reads,
    )
    return edit_page(game, state, game.deals[number - 1], mode, values=form, message=message, status=409)


def edit_gone(game: BlackSpyGame, number: int, form: Mapping[str, str]) -> Response:
    """An edit of a deal another phone undid meanwhile (``answers.edit_gone``): the points
    typed are said back; counted cards are not points yet."""
    gone = N_("Deal %(number)s was undone on another phone just now, so your change was not saved.", number=number)
    return answers.edit_gone(game, gone, "black_spy.show", form if mode_of(form) == POINTS else {})
