"""Spy's public state as a fold over the turns taken: the bases, the targets, the lit
bombs, who is out, whose turn, the winner.

>>> setup = new_setup(["Ana", "Ben"], ["green", "red"], first_player=0)
>>> state = replay(setup, [
...     Turn(0, spy=SpyAction(1, 4, Answer.BOMB)),
...     Turn(1, spy=SpyAction(0, 2, Answer.TARGET)),
...     Turn(0, spy=SpyAction(1, 4, Answer.LIT_BOMB)),
... ])
>>> state.bases[1].lit_bombs, state.bases[0].target.value
((4,), 'safe-2')
>>> state.out[0].value, state.winner, state.to_play
('blown-up', 1, None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

from companion.rules import N_, RulesError

from .answers import check_spy
from .deck import (
    EXPOSED_MOVES,
    TARGET_ORDER,
    Answer,
    OutReason,
    card_at,
    faced_slot,
    move_spy,
    other_end,
)
from .setup import Setup, SpyPlace, new_setup  # noqa: F401  (new_setup: the doctest above seats a table)
from .state import BaseState, Move, SpyAction, SpyState, Turn, start  # noqa: F401  (SpyAction: the doctest above)


class GameOverError(RulesError):
    """A turn taken after the game already has a winner."""


def replay(setup: Setup, turns: Sequence[Turn]) -> SpyState:
    """Fold the rules over a game's turns, refusing the first impossible one by number."""
    state = start(setup)
    for turn in turns:
        state = take(state, turn)
    return state


def play(setup: Setup, turns: Sequence[Turn], turn: Turn) -> SpyState:
    """The state after one more turn."""
    return take(replay(setup, turns), turn)


def take(state: SpyState, turn: Turn) -> SpyState:
    """The state after ``turn``; a refusal names the turn ("Turn 4: ...")."""
    number = len(state.turns) + 1
    try:
        return _take(state, turn)
    except RulesError as error:
        raise type(error)(N_("Turn %(number)s: %(problem)s", number=number, problem=error.message), error.errors) from error


def _take(state: SpyState, turn: Turn) -> SpyState:
    names = state.setup.players
    if state.winner is not None:
        raise GameOverError(N_("The game is over: %(name)s won. No more turns.", name=names[state.winner]))
    if turn.player != state.to_play:
        raise RulesError.about("player", N_("It is %(name)s's turn.", name=names[state.to_play]))  # type: ignore[index]  # a finished game is refused before this
    bases = list(state.bases)
    out: dict[int, OutReason] = dict(state.out)
    player = turn.player
    if turn.move is not None:
        bases[player] = _moved(state, bases[player], turn.move)
    if turn.spy is not None:
        moved = replace(state, bases=tuple(bases))
        target = turn.spy.target
        answer = check_spy(moved, player, turn.spy)
        base = bases[target]
        card = turn.spy.card
        if answer is Answer.TARGET and card is not None and base.target is not None:  # checked just above
            exposed = {**base.exposed, card: base.target}
            bases[target] = replace(base, exposed=MappingProxyType(exposed))
            if len(exposed) == len(TARGET_ORDER):
                out[target] = OutReason.FOUND_OUT
        elif answer is Answer.BOMB and card is not None:  # a bomb is a card, never the Spy
            bases[target] = replace(base, lit_bombs=tuple(sorted((*base.lit_bombs, card))))
        elif answer in (Answer.SAFE, Answer.TOP_SECRET) and card is not None:
            bases[target] = replace(base, known=MappingProxyType({**base.known, card: (answer, base.target)}))
        elif answer is Answer.LIT_BOMB:
            out[player] = OutReason.BLOWN_UP
    remaining = [seat for seat in range(len(bases)) if seat not in out]
    winner = remaining[0] if len(remaining) == 1 else None
    return SpyState(
        setup=state.setup,
        turns=(*state.turns, turn),
        bases=tuple(bases),
        out=MappingProxyType(out),
        to_play=None if winner is not None else _next_player(player, len(bases), out),
        winner=winner,
    )


def _next_player(after: int, players: int, out: Mapping[int, OutReason]) -> int:
    for step in range(1, players + 1):
        seat = (after + step) % players
        if seat not in out:
            return seat
    raise AssertionError("no player left")  # pragma: no cover


def _moved(state: SpyState, base: BaseState, move: Move) -> BaseState:
    name = state.setup.players[base.owner]
    if base.spy is None:
        raise RulesError.about("move", N_("This table does not track the Spies: leave the move out."))
    steps = move.steps
    if not isinstance(steps, int):
        raise RulesError.about("steps", N_("A Spy moves a whole number of places."))
    if steps < 0:
        # "-2" is a whole number: what it asks is the other way, which a turn gives
        raise RulesError.about(
            "steps", N_("A Spy moves the way it faces: to go the other way, turn it round before or after the move.")
        )
    if steps == 0 and (not move.other_end or move.turn_before or move.turn_after):
        raise RulesError.about("steps", N_("A Spy that moves goes at least 1 place; 0 only puts it at the other end."))
    slot, facing = base.spy.slot, base.spy.facing
    if move.turn_before:
        facing = facing.turned()
    if steps:
        faced = card_at(slot, faced_slot(base.size, slot, facing))
        if faced is not None and faced in base.exposed and steps not in EXPOSED_MOVES:
            message = N_(
                "%(name)s's Spy faces an exposed card (%(card)s): it moves %(least)s or %(most)s places.",
                name=name,
                card=base.exposed[faced].label,
                least=min(EXPOSED_MOVES),
                most=max(EXPOSED_MOVES),
            )
            raise RulesError.about("steps", message)
        slot = move_spy(base.size, slot, facing, steps)
    if move.turn_after:
        facing = facing.turned()
    if move.other_end:
        if slot not in (1, base.size):
            message = N_("%(name)s's Spy is not at an end of the base, so it cannot go to the other end.", name=name)
            raise RulesError.about("other_end", message)
        slot = other_end(base.size, slot)
    return replace(base, spy=SpyPlace(slot, facing))


def after_move(state: SpyState, player: int, move: Move) -> SpyState:
    """The table as it stands once ``player``'s Spy has moved, before they spy.

    Lets the table see which card the Spy will look at before the turn is recorded.
    """
    bases = list(state.bases)
    bases[player] = _moved(state, bases[player], move)
    return replace(state, bases=tuple(bases))


def after_each(state: SpyState) -> tuple[SpyState, ...]:
    """The table as each of ``state``'s turns left it, first to last: what a turn revealed
    (a target's name, a player found out, the winner) is read from the state after it."""
    states = []
    now = start(state.setup)
    for turn in state.turns:
        now = take(now, turn)
        states.append(now)
    return tuple(states)
