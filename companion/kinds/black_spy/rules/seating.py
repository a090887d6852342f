"""Who sits where and who deals first: a table's seating, checked.

Seats are numbered from 0 in clockwise order; "left" is the next seat clockwise.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import N_, Nn_, RulesError
from companion.rules.players import name_problem

from .rulesets import STANDARD, RuleSet  # noqa: F401  (STANDARD: the doctests seat a table by it)


@dataclass(frozen=True)
class Setup:
    """Who sits where, who deals first, and the rules they play."""

    rules: RuleSet
    players: tuple[str, ...]
    first_dealer: int

    @property
    def size(self) -> int:
        return len(self.players)

    def left_of(self, seat: int) -> int:
        """The seat on this one's left (play goes clockwise): the dealer deals to it first."""
        return (seat + 1) % self.size


def new_setup(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int | None,
    rng: random.Random | None = None,
) -> Setup:
    """Seat the named players in the order given, blank rows left out.

    ``first_dealer`` is the row (in ``names``) of whoever won the draw, or None for
    the companion to draw: ties are redrawn until one is highest, so a uniform pick
    of one player is the same thing.

    >>> new_setup(STANDARD, [" Ana ", "", "Ben", "Cy"], first_dealer=2).players
    ('Ana', 'Ben', 'Cy')
    >>> new_setup(STANDARD, ["Ana", "ana", "Cy"], first_dealer=0)
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: Two players are called ana.
    """
    errors: dict[str, str] = {}
    seated: list[str] = []
    rows: dict[int, int] = {}
    seen: dict[str, int] = {}
    for row, raw in enumerate(names):
        name = " ".join(raw.split())
        if not name:
            continue
        problem = name_problem(name)
        if problem is not None:
            errors[f"player-{row}"] = problem
        elif name.casefold() in seen:
            errors[f"player-{row}"] = N_("Two players are called %(name)s.", name=name)
        seen[name.casefold()] = row
        rows[row] = len(seated)
        seated.append(name)
    # said beside any name at fault: a table mending a name would be refused again for the count
    if not rules.min_players <= len(seated) <= rules.max_players:
        errors["players"] = Nn_(
            "Black Spy is for %(least)s to %(most)s players; %(num)s is named.",
            "Black Spy is for %(least)s to %(most)s players; %(num)s are named.",
            len(seated),
            least=rules.min_players,
            most=rules.max_players,
        )
    if first_dealer is not None and first_dealer not in rows:
        errors["first_dealer"] = N_("The first dealer must be one of the named players.")
    if errors:
        raise RulesError.of(errors)
    dealer = draw_first_dealer(len(seated), rng) if first_dealer is None else rows[first_dealer]
    return Setup(rules=rules, players=tuple(seated), first_dealer=dealer)


def draw_first_dealer(players: int, rng: random.Random | None = None) -> int:
    """Draw for the first deal: ties are redrawn, so every seat is equally likely."""
    return (rng or random.SystemRandom()).randrange(players)
