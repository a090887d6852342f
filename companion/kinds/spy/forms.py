"""Spy's forms as the rules read them: the new game's seats, colours and Spies, and a
turn: the move, the card looked at, the answer. The rules never see a form."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules import N_, Message, RulesError

from . import rules

# rows of the new-game form: one per seat the rules allow at most
ROWS = rules.MAX_PLAYERS


def new_game(form: Mapping[str, str]) -> tuple[rules.Setup, bool]:
    """The seating, and whether the companion drew the first player."""
    names = [form.get(f"spy-player-{row}", "") for row in range(ROWS)]
    colours = [form.get(f"spy-colour-{row}", "") for row in range(ROWS)]
    filled = [row for row, name in enumerate(names) if name.strip()]
    chosen = form.get("first_player", "draw")
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
    return rules.new_setup(names, colours, first, places), chosen == "draw"


def _int(text: str | None, field: str, message: Message) -> int:
    try:
        return int(text or "")
    except (TypeError, ValueError):
        raise RulesError.about(field, message) from None


def placing_again(rematch_of: str, setup: rules.Setup, drawn: bool) -> dict[str, str]:
    """The new-game form filled in for a rematch: the same table, its Spies still to place
    (a draw is made when the form is sent, and said then, as for any new game)."""
    values = {"track": "1", "rematch_of": rematch_of, "first_player": rules.DRAW if drawn else str(setup.first_player)}
    for row, (name, colour) in enumerate(zip(setup.players, setup.colours, strict=True)):
        values[f"spy-player-{row}"] = name
        values[f"spy-colour-{row}"] = colour.value
    return values


def preview(state: rules.SpyState, values: Mapping[str, str]) -> dict[str, Any]:
    """What the table sees before it records the turn: where the Spy looks, the answers."""
    if state.to_play is None:
        return {}
    player = state.to_play
    move = move_from_form(values)
    seen = rules.after_move(state, player, move) if move is not None else state
    mirror = rules.mirror(seen, player)
    look = rules.current_look(seen, player, look_from_form(values.get("look")))
    answers: tuple[rules.Answer, ...] = ()
    if look is not None:
        answers = rules.possible_answers(seen, player, *look)
    return {"mirror": mirror, "look": look, "answers": answers, "seen": seen}


def _whole(text: str | None, field_name: str, what: Message) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RulesError.about(field_name, N_("%(what)s must be a whole number.", what=what)) from None


def look_text(look: tuple[int, int | None]) -> str:
    """A look as the form sends it, what look_from_form reads: ``"seat:card"`` or ``"seat:spy"``.

    >>> look_text((2, 5)), look_text((1, None))
    ('2:5', '1:spy')
    """
    seat, card = look
    return f"{seat}:{'spy' if card is None else card}"


def look_from_form(text: str | None) -> tuple[int, int | None] | None:
    """Read a tap on an opponent's base: ``"seat:card"``, ``"seat:spy"`` or nothing.

    >>> look_from_form("2:5"), look_from_form("1:spy"), look_from_form("")
    ((2, 5), (1, None), None)
    """
    text = (text or "").strip()
    if not text:
        return None
    seat, _, card = text.partition(":")
    try:
        return int(seat), None if card == "spy" else int(card)
    except ValueError:
        raise RulesError.about("look", N_("Tap a card on the base you spy on.")) from None


def move_from_form(form: Mapping[str, str]) -> rules.Move | None:
    """Read the move fields (``steps``, ``turn_before``, ``turn_after``, ``other_end``)."""
    steps = _whole(form.get("steps"), "steps", N_("The move"))
    flags = {key: bool(form.get(key)) for key in ("turn_before", "turn_after", "other_end")}
    if steps is None and not any(flags.values()):
        return None
    if steps is None and (flags["turn_before"] or flags["turn_after"]):
        raise RulesError.about("steps", N_("Turning the Spy is part of a move: say how far it moves."))
    return rules.Move(steps=steps or 0, **flags)


def turn_values(turn: rules.Turn) -> dict[str, str]:
    """A turn as the form that records it again: the move, the card looked at and what was
    answered. What an undo puts back, for the table to mend the one tap that was wrong.

    >>> turn_values(rules.Turn(0, rules.Move(2, turn_after=True), rules.SpyAction(1, 4, rules.Answer.SAFE)))
    {'steps': '2', 'turn_after': '1', 'look': '1:4', 'answer': 'safe', 'answer_for': '1:4'}
    >>> turn_values(rules.Turn(0, rules.Move(0, other_end=True), rules.SpyAction(2, None, rules.Answer.SPY)))
    {'other_end': '1', 'look': '2:spy', 'answer': 'spy', 'answer_for': '2:spy'}
    """
    values: dict[str, str] = {}
    if turn.move is not None:
        if turn.move.steps:
            values["steps"] = str(turn.move.steps)
        values.update({key: "1" for key in ("turn_before", "turn_after", "other_end") if getattr(turn.move, key)})
    if turn.spy is not None:
        values["look"] = look_text((turn.spy.target, turn.spy.card))
        # the answer goes with that card (spy/_now.html): another card tapped asks anew
        values["answer"], values["answer_for"] = str(turn.spy.answer), values["look"]
    return values


def turn_from_form(state: rules.SpyState, form: Mapping[str, str]) -> rules.Turn:
    """Read a whole turn for the player whose turn it is.

    The answer may be left out where only one is possible (a lit bomb, an exposed
    card, the opponent's Spy): the table is not asked what it already knows.
    """
    if state.to_play is None:
        raise rules.GameOverError(N_("The game is over: no more turns."))
    player = state.to_play
    move = move_from_form(form)
    look = look_from_form(form.get("look"))
    if look is None:
        return rules.Turn(player=player, move=move)
    target, card = look
    seen = rules.after_move(state, player, move) if move is not None else state
    answers = rules.possible_answers(seen, player, target, card)
    text = (form.get("answer") or "").strip()
    if not text and len(answers) == 1:
        answer = answers[0]
    else:
        try:
            answer = rules.Answer(text)
        except ValueError:
            raise RulesError.about("answer", N_("Choose what the spied-on player answered.")) from None
    return rules.Turn(player=player, move=move, spy=rules.SpyAction(target=target, card=card, answer=answer))
