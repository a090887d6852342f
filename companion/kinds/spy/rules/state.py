"""What the table can see of a game of Spy at a moment: the turns as announced, each
base's exposed cards, lit bombs, Spy and answers heard, who is out, whose turn, the winner;
and the state before the first turn. The fold over the turns is ``turns``; what a look may
be answered, ``answers``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from companion.rules import N_, Message

from .deck import SPIES_PER_BASE, TARGET_ORDER, Answer, Colour, OutReason, Target, base_size, bombs_in_base
from .setup import Setup, SpyPlace, check_setup


@dataclass(frozen=True)
class Move:
    """A Spy's move as its player announced it.

    The Spy may be turned round before and after the move (never during it); it then
    passes ``steps`` cards the way it faces. The number on the faced card is hidden,
    so ``steps`` is taken as announced, except that a Spy facing an exposed card
    moves 1 or 2. ``other_end`` puts a Spy that ends at one end at the other end,
    which the rules say is not a move; ``steps=0`` with ``other_end`` does only that.
    """

    steps: int
    turn_before: bool = False
    turn_after: bool = False
    other_end: bool = False


@dataclass(frozen=True)
class SpyAction:
    """Whom a player spied on, which card they looked at (None for their Spy), the answer."""

    target: int
    card: int | None
    answer: Answer


@dataclass(frozen=True)
class Turn:
    """One player's turn: a move, a spy, both or neither; the move comes first."""

    player: int
    move: Move | None = None
    spy: SpyAction | None = None


@dataclass(frozen=True)
class BaseState:
    """What everyone can see of one player's base."""

    owner: int
    colour: Colour
    size: int
    bombs: int
    exposed: Mapping[int, Target] = field(default_factory=lambda: MappingProxyType({}))
    lit_bombs: tuple[int, ...] = ()
    spy: SpyPlace | None = None
    # hidden cards answered "a Safe" or "a Top Secret", with the target of the moment, which
    # they are not: each is one of that kind for the rest of the game, so a later look at it
    # finds that kind, or the target once the target has moved on to one of its kind
    known: Mapping[int, tuple[Answer, Target | None]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def cards(self) -> int:
        """How many cards the base holds besides its Spy."""
        return self.size - SPIES_PER_BASE

    @property
    def target(self) -> Target | None:
        """The current exposure target, or None once all are exposed."""
        done = len(self.exposed)
        return TARGET_ORDER[done] if done < len(TARGET_ORDER) else None

    @property
    def unlit_bombs(self) -> int:
        return self.bombs - len(self.lit_bombs)

    def hidden_besides_target(self, kinds: Sequence[Target]) -> tuple[Target, ...]:
        """The targets of ``kinds`` still hidden that are not the current target."""
        shown = set(self.exposed.values())
        return tuple(kind for kind in kinds if kind not in shown and kind != self.target)


@dataclass(frozen=True)
class SpyState:
    """The public state of a game after its turns."""

    setup: Setup
    turns: tuple[Turn, ...]
    bases: tuple[BaseState, ...]
    out: Mapping[int, OutReason]
    to_play: int | None
    winner: int | None

    @property
    def finished(self) -> bool:
        return self.winner is not None

    @property
    def remaining(self) -> tuple[int, ...]:
        """Seats still in the game, clockwise from seat 0."""
        return tuple(seat for seat in range(len(self.bases)) if seat not in self.out)

    def not_spied_on(self, seat: int) -> Message | None:
        """Why a player's base is no longer spied on, if it is not: its owner is out."""
        if seat not in self.out:
            return None
        return N_("%(name)s is out: their base is no longer spied on.", name=self.setup.players[seat])


def start(setup: Setup) -> SpyState:
    """The state before the first turn."""
    check_setup(setup)
    players = len(setup.players)
    bases = tuple(
        BaseState(
            owner=seat,
            colour=Colour(colour),
            size=base_size(Colour(colour), players),
            bombs=bombs_in_base(Colour(colour), players),
            spy=None if setup.spies is None else setup.spies[seat],
        )
        for seat, colour in enumerate(setup.colours)
    )
    return SpyState(
        setup=setup,
        turns=(),
        bases=bases,
        out=MappingProxyType({}),
        to_play=setup.first_player,
        winner=None,
    )
