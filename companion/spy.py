"""Spy games: start one, record and undo turns, export one. Public state only."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, flash, get_flashed_messages, redirect, request, url_for
from werkzeug.wrappers import Response

from . import kinds, parts, service, spy_codec
from .exchange import export_file, new_spy_game
from .extensions import db, htmx
from .fragments import page_or_fragment
from .games import json_download, lost_rematch, new_game_page, to_rematch
from .i18n import say
from .models import SPY, Game, SpyTurn, game_of_kind, load_inputs
from .rules import N_, RulesError
from .rules import spy as rules
from .service import Outcome

bp = Blueprint("spy", __name__, url_prefix="/spy")


@bp.record_once
def table_sizes(state) -> None:
    state.app.jinja_env.globals.update(
        SPY_PLAYERS=(rules.MIN_PLAYERS, rules.MAX_PLAYERS),
        SPY_EXPOSED_MOVES=rules.EXPOSED_MOVES,
        rematch_first_player=rules.rematch_first_player,
        # drawn by spy/_turns.html, once per version of a game (companion/parts.py)
        turn_log=turn_log,
    )


ROWS = rules.MAX_PLAYERS


def load(game_id: str) -> Game:
    return game_of_kind(game_id, SPY)


@bp.post("/new")
def create() -> Response | tuple[str, int]:
    """Seat the players with their colours and start a game."""
    form = request.form
    names = [form.get(f"spy-player-{row}", "") for row in range(ROWS)]
    colours = [form.get(f"spy-colour-{row}", "") for row in range(ROWS)]
    filled = [row for row, name in enumerate(names) if name.strip()]
    chosen = form.get("first_player", "draw")
    try:
        if chosen == "draw":
            first = rules.draw_first(filled)
        else:
            first = _int(chosen, "first_player", N_("Pick who plays first."))
        places = None
        if form.get("track"):
            places = [
                rules.SpyPlace(
                    _int(form.get(f"spy-slot-{row}", ""), f"spy-{row}", N_("Say where each Spy stands.")),
                    form.get(f"spy-facing-{row}", ""),  # type: ignore[arg-type]  # the rules check it
                )
                if row in filled
                else None
                for row in range(ROWS)
            ]
        setup = rules.new_setup(names, colours, first, places)
    except RulesError as error:
        return new_game_page(SPY, values=form, errors=error.errors, status=422)
    game = new_spy_game(setup)
    earlier = _rematch_of(form.get("rematch_of", ""), setup)
    if earlier is None:
        service.start(game)
    else:
        # a rematch whose Spies the table placed again on this form: started once, as any rematch
        if earlier.rematch_id is not None:
            return to_rematch(earlier)
        written = service.rematch(earlier, game)
        if not written.done:
            return lost_rematch(written.game, _refused_rematch)
    if chosen == "draw":
        flash(say(N_("The draw is made: %(name)s plays first.", name=setup.players[setup.first_player])))
    elif earlier is not None:
        flash(say(N_("Rematch! %(name)s plays first.", name=setup.players[setup.first_player])))
    return redirect(url_for("spy.show", game_id=game.id), code=303)


def _rematch_of(game_id: str, setup: rules.Setup) -> Game | None:
    """The finished Spy game a new game's form was opened as the rematch of, if the form
    still seats its players with their colours: a table that changed who plays starts a
    game of its own."""
    earlier = db.session.get(Game, game_id[:64]) if game_id else None
    if earlier is None or earlier.kind != SPY:
        return None
    state = earlier.spy_state()
    same_table = (state.setup.players, state.setup.colours) == (setup.players, setup.colours)
    return earlier if state.finished and same_table else None


@bp.post("/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """Start a new game: same players, seats and colours; the table picks who plays first.

    Once only: a second tap, or a second phone, is sent to the rematch already made. A
    table that tracks the Spies places them again first, on the new-game form.
    """
    game = load(game_id)
    if game.rematch_id is not None:
        return to_rematch(game)
    state = game.spy_state()
    pick = request.form.get("first_player")
    try:
        setup = rules.rematch(state, pick)
    except RulesError as error:
        return render_game(game, state, message=error.message, status=409 if "rematch" in error.errors else 422)
    if state.setup.tracking:
        return new_game_page(SPY, values=_placing_again(game, setup, drawn=pick == rules.DRAW))
    written = service.rematch(game, new_spy_game(setup))
    if not written.done:
        return lost_rematch(written.game, _refused_rematch)
    first = setup.players[setup.first_player]
    if pick == rules.DRAW:
        flash(say(N_("The draw is made: %(name)s plays first.", name=first)))
    else:
        flash(say(N_("Rematch! %(name)s plays first.", name=first)))
    return redirect(url_for("spy.show", game_id=written.game.id), code=303)


def _refused_rematch(game: Game, message: str) -> Response:
    return render_game(game, game.spy_state(), message=message, status=409)


def _placing_again(game: Game, setup: rules.Setup, drawn: bool) -> dict[str, str]:
    """The new-game form filled in for a rematch: the same table, its Spies still to place
    (a draw is made when the form is sent, and said then, as for any new game)."""
    values = {"track": "1", "rematch_of": game.id, "first_player": rules.DRAW if drawn else str(setup.first_player)}
    for row, (name, colour) in enumerate(zip(setup.players, setup.colours, strict=True)):
        values[f"spy-player-{row}"] = name
        values[f"spy-colour-{row}"] = colour.value
    return values


def _int(text: str, field: str, message: str) -> int:
    try:
        return int(text)
    except (TypeError, ValueError):
        raise RulesError.about(field, message) from None


@bp.get("/<game_id>")
def show(game_id: str) -> Response:
    """Show whose turn it is, every base, and the turn form.

    A look at a card (``look``) and a move may come in the query string, so the
    form can offer only the answers still possible there, with or without htmx.
    """
    game = load(game_id)
    state = game.spy_state()
    values = request.args
    preview: dict[str, Any] = {}
    try:
        preview = _preview(state, values)
    except RulesError as error:
        return render_game(game, state, values=values, errors=error.errors, status=422)
    return render_game(game, state, values=values, **preview)


def _preview(state: rules.SpyState, values: Mapping[str, str]) -> dict[str, Any]:
    """What the table sees before it records the turn: where the Spy looks, the answers."""
    if state.to_play is None:
        return {}
    player = state.to_play
    move = rules.move_from_form(values)
    seen = rules.after_move(state, player, move) if move is not None else state
    mirror = rules.mirror(seen, player)
    look = rules.current_look(seen, player, rules.look_from_form(values.get("look")))
    answers: tuple[rules.Answer, ...] = ()
    if look is not None:
        answers = rules.possible_answers(seen, player, *look)
    return {"mirror": mirror, "look": look, "answers": answers, "seen": seen}


@bp.post("/<game_id>/turns")
def record_turn(game_id: str) -> Response:
    """Record the turn of the player whose turn it is."""
    game = load(game_id)
    state = game.spy_state()
    form = request.form
    submission = form.get("submission", "")[:64] or None
    refused = service.refusal(game, SpyTurn, submission, form.get("number"))
    if refused is Outcome.REPEATED:
        return _after_write(game, ALREADY_RECORDED)
    if refused is Outcome.STALE:
        return _recorded_elsewhere(game, state)
    try:
        turn = rules.turn_from_form(state, form)
        new_state = rules.take(state, turn)
    except rules.GameOverError as error:
        return render_game(game, state, message=error.message, status=409)
    except RulesError as error:
        preview: dict[str, Any] = {}
        with contextlib.suppress(RulesError):
            preview = _preview(state, form)
        return render_game(game, state, values=form, errors=error.errors, status=422, **preview)
    row = SpyTurn()
    row.set_turn(turn)
    written = service.record(game, row, submission, form.get("number"))
    if written.outcome is Outcome.REPEATED:
        return _after_write(written.game, ALREADY_RECORDED)
    if not written.done:
        return _recorded_elsewhere(written.game, written.game.spy_state())
    return _after_write(written.game, _turn_message(new_state, turn))


ALREADY_RECORDED = N_("This turn was already recorded; it is counted once.")


def _turn_message(state: rules.SpyState, turn: rules.Turn) -> str:
    names = state.setup.players
    who = names[turn.player]
    if turn.spy is None:
        sentences = [say(N_("%(who)s did not spy.", who=who))]
    else:
        them = names[turn.spy.target]
        answer = turn.spy.answer
        said = {
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
        sentences = [say(said)]
    if state.winner is not None:
        sentences.append(say(N_("%(name)s wins!", name=names[state.winner])))
    return " ".join(sentences)


def turn_log(state: rules.SpyState) -> list[tuple[int, str]]:
    """Each turn so far, numbered, in the words the table was told when it was recorded."""
    return [
        (number, _turn_message(after, turn))
        for number, (after, turn) in enumerate(zip(rules.after_each(state), state.turns, strict=True), start=1)
    ]


def _exposed_label(state: rules.SpyState, action: rules.SpyAction) -> str:
    target = state.bases[action.target].exposed.get(action.card)  # type: ignore[arg-type]  # a card of None (the Spy) is simply not found
    return target.label if target else N_("target")


def _recorded_elsewhere(game: Game, state: rules.SpyState) -> Response:
    message = N_(
        "Turn %(number)s was just recorded from another phone; here is the table now. Nothing you entered was saved.",
        number=len(state.turns),
    )
    return render_game(game, state, message=message, status=409)


@bp.post("/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Remove the last turn; a finished game reopens."""
    game = load(game_id)
    if not game.turns:
        return render_game(game, game.spy_state(), message=N_("There is no turn to undo."), status=409)
    last = game.turns[-1].number
    written = service.undo(game, request.form.get("number"))
    if written.outcome is Outcome.STALE:
        message = N_("The last turn is now turn %(number)s; nothing was undone.", number=last)
        return render_game(game, game.spy_state(), message=message, status=409)
    if not written.done:
        message = N_("Another phone changed this game just now; nothing was undone.")
        return render_game(written.game, written.game.spy_state(), message=message, status=409)
    return _after_write(written.game, N_("Turn %(number)s undone.", number=last))


@bp.get("/<game_id>/export.json")
def export(game_id: str) -> Response:
    """Download this game as a companion/1 file."""
    game = load(game_id)
    return json_download(export_file([game]), f"spy-{game.id}.json")


def render_game(
    game: Game,
    state: rules.SpyState,
    values: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    message: str | None = None,
    status: int = 200,
    mirror: Mapping[int, int | None] | None = None,
    look: tuple[int, int | None] | None = None,
    answers: tuple[rules.Answer, ...] = (),
    seen: rules.SpyState | None = None,
) -> Response:
    """The game page, or only its ``#spy-game`` fragment for htmx.

    Without a preview of its own (after a write, a refusal), the turn as it stands:
    the cards each Spy looks at are ready to tap.
    """
    if mirror is None:
        preview = _preview(state, {})
        mirror, seen = preview.get("mirror"), preview.get("seen")
    context = {
        "game": game,
        "state": state,
        "seen": seen or state,
        "values": values or {},
        "errors": errors or {},
        "messages": [*get_flashed_messages(), *([message] if message else [])],
        "mirror": mirror or {},
        "look": look,
        "answers": answers,
        "submission": parts.submission(),
        "Answer": rules.Answer,
        "OutReason": rules.OutReason,
    }
    return page_or_fragment("spy/game.html", "spy/_game.html", status, **context)


def _after_write(game: Game, message: str) -> Response:
    if htmx:
        return render_game(game, game.spy_state(), message=message)
    flash(say(message))
    return redirect(url_for("spy.show", game_id=game.id), code=303)


KIND = kinds.GameKind(
    key=SPY,
    name=N_("Spy"),
    following=N_("Following Spy"),
    blueprint=bp,
    show="spy.show",
    reference="reference.spy",
    inputs=lambda game: game.turns,
    replay=lambda game: game.spy_state(),
    figures=spy_codec.figures,
    to_json=spy_codec.to_json,
    parse=spy_codec.parse,
    rows=spy_codec.rows,
    preload=lambda games: load_inputs(games, Game.turns),
    live=lambda game: {
        "state": (state := game.spy_state()),
        "seen": state,
        "mirror": {},
        "look": None,
        "answers": (),
        "values": {},
        "errors": {},
        "messages": [],
    },
)
