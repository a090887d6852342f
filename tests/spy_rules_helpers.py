"""Helpers shared by the tests of Spy's rules: public state only, no app, no database.

The four players (``ANA``, ``BEN``, ``CY`` and ``DEE`` are their seats), their ``NAMES`` and
``COLOURS``; ``table``, a setup for the first two, three or four of them; ``spy``, a turn that
spies; ``run``, a game played from its setup through spies and passes in turn order; and
``exposing_all_of``, the rounds in which one player exposes all four targets of another.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.kinds.spy.rules import TARGET_ORDER, Answer, Setup, SpyAction, SpyPlace, SpyState, Turn, new_setup, start, take

ANA, BEN, CY, DEE = 0, 1, 2, 3
NAMES = ("Ana", "Ben", "Cy", "Dee")
COLOURS = ("green", "red", "blue", "yellow")


def table(players: int, first: int = ANA, spies: Sequence[SpyPlace] | None = None) -> Setup:
    return new_setup(NAMES[:players], COLOURS[:players], first, spies)


def spy(player: int, target: int, card: int | None, answer: str) -> Turn:
    return Turn(player, spy=SpyAction(target, card, Answer(answer)))


def run(setup: Setup, *actions: tuple[int, int | None, str] | None) -> SpyState:
    """Play ``actions`` in turn order: (target, card, answer) to spy, None to pass."""
    state = start(setup)
    for action in actions:
        turn = Turn(state.to_play) if action is None else spy(state.to_play, *action)  # type: ignore[arg-type]
        state = take(state, turn)
    return state


def exposing_all_of(target: int, spier: int, players: int) -> list[tuple[int, int, str] | None]:
    """Rounds in which ``spier`` exposes all four targets of ``target`` and the others pass."""
    rounds: list[tuple[int, int, str] | None] = []
    for card in range(1, len(TARGET_ORDER) + 1):
        rounds.append((target, card, "target"))
        if card < len(TARGET_ORDER):
            rounds.extend([None] * (players - 1))
    return rounds
