"""Spy's deck and bases: the colour sets, the targets, the answers, and where a Spy stands.

A base is counted from its owner's left in two ways:

- a *slot* is a place in the fan, 1 to the base size; one slot holds the Spy;
- a *card* is one of the other cards, 1 to size - 1, not counting the Spy.

Only the Spy moves, so a card keeps its number for the whole game while its slot
changes whenever the Spy passes it. The public state is therefore kept by card; slots
only matter for the mirror, which the optional Spy tracking works out.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from companion.rules import N_, Message

MIN_PLAYERS = 2
MAX_PLAYERS = 4

DECK_SIZE = 30
SPIES_PER_BASE = 1
# from this many players on, the "Bomb 2" cards leave the game
BOMB_2_REMOVED_FROM = 3
# places a Spy facing an exposed card may move, as its player chooses
EXPOSED_MOVES = (1, 2)


class Colour(StrEnum):
    GREEN = "green"
    RED = "red"
    BLUE = "blue"
    YELLOW = "yellow"

    @property
    def label(self) -> Message:
        return _COLOUR_LABELS[self]


class Target(StrEnum):
    SAFE_1 = "safe-1"
    SAFE_2 = "safe-2"
    TOP_SECRET_1 = "top-secret-1"
    TOP_SECRET_2 = "top-secret-2"

    @property
    def label(self) -> Message:
        return _TARGET_LABELS[self]


class Answer(StrEnum):
    SAFE = "safe"
    TOP_SECRET = "top-secret"
    TARGET = "target"
    BOMB = "bomb"
    LIT_BOMB = "lit-bomb"
    EXPOSED = "exposed"
    SPY = "spy"

    @property
    def label(self) -> Message:
        return _ANSWER_LABELS[self]


class OutReason(StrEnum):
    FOUND_OUT = "found-out"
    BLOWN_UP = "blown-up"


class Facing(StrEnum):
    LEFT = "left"
    RIGHT = "right"

    def turned(self) -> Facing:
        return Facing.RIGHT if self is Facing.LEFT else Facing.LEFT


_COLOUR_LABELS = MappingProxyType(
    {Colour.GREEN: N_("green"), Colour.RED: N_("red"), Colour.BLUE: N_("blue"), Colour.YELLOW: N_("yellow")}
)
_TARGET_LABELS = MappingProxyType(
    {
        Target.SAFE_1: N_("Safe 1"),
        Target.SAFE_2: N_("Safe 2"),
        Target.TOP_SECRET_1: N_("Top Secret 1"),
        Target.TOP_SECRET_2: N_("Top Secret 2"),
    }
)
# the words a spied-on player says, as the table says them
_ANSWER_LABELS = MappingProxyType(
    {
        Answer.SAFE: N_("safe"),
        Answer.TOP_SECRET: N_("top secret"),
        Answer.TARGET: N_("target"),
        Answer.BOMB: N_("bomb"),
        Answer.LIT_BOMB: N_("lit bomb"),
        Answer.EXPOSED: N_("exposed"),
        Answer.SPY: N_("spy"),
    }
)

TARGET_ORDER = (Target.SAFE_1, Target.SAFE_2, Target.TOP_SECRET_1, Target.TOP_SECRET_2)
SAFES = (Target.SAFE_1, Target.SAFE_2)
TOP_SECRETS = (Target.TOP_SECRET_1, Target.TOP_SECRET_2)
TWO_PLAYER_COLOURS = frozenset({Colour.GREEN, Colour.RED})
SET_BOMBS: Mapping[Colour, int] = MappingProxyType({Colour.GREEN: 3, Colour.RED: 3, Colour.BLUE: 2, Colour.YELLOW: 2})
BOMB_2_SETS = frozenset({Colour.GREEN, Colour.RED})


def bombs_in_base(colour: Colour, players: int) -> int:
    """Count the bombs in a base of ``colour`` at a table of ``players``.

    >>> bombs_in_base(Colour.RED, 2), bombs_in_base(Colour.RED, 3), bombs_in_base(Colour.BLUE, 4)
    (3, 2, 2)
    >>> len(Colour) * (SPIES_PER_BASE + len(TARGET_ORDER)) + sum(SET_BOMBS.values()) == DECK_SIZE
    True
    """
    removed = colour in BOMB_2_SETS and players >= BOMB_2_REMOVED_FROM
    return SET_BOMBS[colour] - removed


def base_size(colour: Colour, players: int) -> int:
    """Count the cards in a base, its Spy included."""
    return SPIES_PER_BASE + len(TARGET_ORDER) + bombs_in_base(colour, players)


def allowed_colours(players: int) -> tuple[Colour, ...]:
    """The colour sets a table of ``players`` picks from."""
    if players < BOMB_2_REMOVED_FROM:
        return tuple(colour for colour in Colour if colour in TWO_PLAYER_COLOURS)
    return tuple(Colour)


# --- the Spy's place and the mirror --------------------------------------------------


def faced_slot(size: int, slot: int, facing: Facing) -> int:
    """The slot of the card a Spy in ``slot`` faces; at an end facing away, the other end.

    >>> faced_slot(8, 8, Facing.RIGHT), faced_slot(8, 1, Facing.LEFT)
    (1, 8)
    """
    step = 1 if facing is Facing.RIGHT else -1
    return (slot - 1 + step) % size + 1


def move_spy(size: int, slot: int, facing: Facing, steps: int) -> int:
    """The slot a Spy in ``slot`` reaches by passing ``steps`` cards the way it faces.

    The base wraps: past the last card the Spy carries on from the other end. A Spy
    that has just passed the end card lands at that end (moving right, in the last
    slot; moving left, in the first); putting it at the other end is a free choice of
    its player, which :class:`Move` records as ``other_end``.

    >>> move_spy(8, 8, Facing.RIGHT, 1)  # faces card 1 across the end and passes it
    2
    >>> move_spy(7, 2, Facing.LEFT, 2)  # passes card 1, wraps, passes card 6
    6
    """
    cards = size - SPIES_PER_BASE
    if facing is Facing.RIGHT:
        return (slot + steps - 2) % cards + 2
    return (slot - 1 - steps) % cards + 1


def other_end(size: int, slot: int) -> int:
    """The slot at the other end of the base from a Spy standing at one end."""
    return size if slot == 1 else 1


def mirror_slot(size: int, my_slot: int) -> int:
    """The opponent's slot opposite ``my_slot``: my k-th from my left is their k-th from their right."""
    return size + 1 - my_slot


def card_at(spy_slot: int, slot: int) -> int | None:
    """The card in ``slot`` of a base whose Spy is in ``spy_slot``; None for the Spy."""
    if slot == spy_slot:
        return None
    return slot if slot < spy_slot else slot - SPIES_PER_BASE


def slot_of(spy_slot: int, card: int) -> int:
    """The slot of ``card`` in a base whose Spy is in ``spy_slot``."""
    return card if card < spy_slot else card + SPIES_PER_BASE
