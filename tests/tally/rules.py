"""A tally's rules: three rounds of one whole number per player; the highest total wins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import N_, RulesError
from companion.rules.players import name_problem

ROUNDS = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True)
class Setup:
    players: tuple[str, ...]


@dataclass(frozen=True)
class State:
    setup: Setup
    rounds: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return len(self.rounds) >= ROUNDS

    @property
    def winners(self) -> tuple[int, ...]:
        best = max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best) if self.finished else ()


def new_setup(names: Sequence[str]) -> Setup:
    seated = tuple(" ".join(name.split()) for name in names if name.strip())
    for name in seated:
        if (problem := name_problem(name)) is not None:
            raise RulesError.about("players", problem)
    if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS or len({name.casefold() for name in seated}) != len(seated):
        raise RulesError.about("players", N_("Name two to four different players."))
    return Setup(seated)


def replay(setup: Setup, rounds: Sequence[tuple[int, ...]]) -> State:
    totals = [0] * len(setup.players)
    for number, points in enumerate(rounds, start=1):
        if number > ROUNDS:
            raise RulesError(N_("The game is over."))
        if len(points) != len(setup.players):
            raise RulesError(N_("A round gives points to every player."))
        totals = [total + value for total, value in zip(totals, points, strict=True)]
    return State(setup, tuple(rounds), tuple(totals))
