"""The figures of Black Spy straight from the rulebook (shared/rules/black-spy.md).

The players' names, the cards each is dealt, the end value, a deal's total, the pass
of deals 1 to 7, the sixty cards of the deck and what each is worth, and a hand of all
sixteen black cards: written out from the book and kept apart from the code under test,
so a test compares the code against the book, not the code against itself.
"""

from __future__ import annotations

from companion.kinds.black_spy.rules import Cards

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")


def players(n: int) -> tuple[str, ...]:
    return NAMES[:n]


CARDS_EACH = {3: 20, 4: 15, 5: 12, 6: 10}
STANDARD_END = {3: 200, 4: 150, 5: 120, 6: 100}
CLASSIC_END = 200
STANDARD_DEAL_TOTAL = 60
CLASSIC_DEAL_TOTAL = 80

# pass direction of deals 1 to 7
STANDARD_PASSES = {
    3: ("left", "right", "left", "right", "left", "right", "left"),
    4: ("left", "right", "across", "left", "right", "across", "left"),
    5: ("left", "right", "left", "right", "left", "right", "left"),
    6: ("left", "right", "left", "right", "left", "right", "left"),
}
CLASSIC_PASSES = {n: ("left",) * 7 for n in (3, 4, 5, 6)}

# what each card is worth, per rule set: (colour, rank) -> points
COLOURS = ("blue", "yellow", "red", "green")


def card_value(card: tuple[str, int], coloured_spy: int) -> int:
    colour, rank = card
    if colour == "black":
        if rank <= 6:
            return 1
        if rank == 7:
            return 10
        return {8: 2, 9: 3, 10: 4, 11: 5}[rank]
    return coloured_spy if rank == 7 else 0


STANDARD_COLOURED_SPY = -5
CLASSIC_COLOURED_SPY = 0

DECK = [(colour, rank) for colour in COLOURS for rank in range(1, 12)] + [
    ("black", rank) for rank in [*range(1, 12), 7, 7, 7, 7, 7]
]


def all_blacks(coloured_spies: int = 0) -> Cards:
    return Cards(black_spies=6, low_blacks=6, high_blacks=frozenset({8, 9, 10, 11}), coloured_spies=coloured_spies)
