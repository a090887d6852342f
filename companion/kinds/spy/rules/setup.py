"""Who sits where with which colour and who plays first, checked; and the rematch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from companion.rules import N_, Either, Nn_, RulesError
from companion.rules.players import name_problem

from .deck import (
    BOMB_2_REMOVED_FROM,
    MAX_PLAYERS,
    MIN_PLAYERS,
    TWO_PLAYER_COLOURS,
    Colour,
    Facing,
    base_size,
)

if TYPE_CHECKING:
    from .state import SpyState

# --- setup ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SpyPlace:
    """Where a Spy stands (a slot) and which way it faces."""

    slot: int
    facing: Facing


@dataclass(frozen=True)
class Setup:
    """Who sits where with which colour, who plays first, and where the Spies start.

    ``spies`` is None when the table does not track the Spies.
    """

    players: tuple[str, ...]
    colours: tuple[Colour, ...]
    first_player: int
    spies: tuple[SpyPlace, ...] | None = None

    @property
    def tracking(self) -> bool:
        return self.spies is not None

    @property
    def base_size(self) -> int:
        return base_size(self.colours[0], len(self.players))


def new_setup(
    names: Sequence[str],
    colours: Sequence[str],
    first_player: int,
    spies: Sequence[SpyPlace | None] | None = None,
) -> Setup:
    """Seat the named players in the order given, blank rows left out.

    ``colours`` and ``spies`` run row by row alongside ``names``; ``first_player`` is
    a row. Error fields name rows: ``player-N``, ``colour-N``, ``spy-N``.

    >>> new_setup(["Ana", "Ben"], ["green", "blue"], first_player=0)
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: Two players play the green and red sets.
    """
    errors: dict[str, str] = {}
    rows = [row for row, name in enumerate(names) if " ".join(name.split())]
    parsed: list[Colour] = []
    for row in rows:
        raw = colours[row] if row < len(colours) else ""
        try:
            parsed.append(Colour(raw))
        except ValueError:
            errors[f"colour-{row}"] = N_("Pick a colour: %(colours)s.", colours=Either(colour.label for colour in Colour))
    places: tuple[SpyPlace, ...] | None = None
    if spies is not None:
        placed = []
        for row in rows:
            place = spies[row] if row < len(spies) else None
            try:
                # a row with no place (None) is refused below, as one with a wrong facing
                placed.append(SpyPlace(place.slot, Facing(place.facing)))  # type: ignore[union-attr]
            except (AttributeError, ValueError):
                errors[f"spy-{row}"] = N_("Say where this Spy stands and which way it faces.")
        places = tuple(placed)
    if first_player not in rows:
        errors["first_player"] = N_("The first player must be one of the named players.")
    if errors:
        raise RulesError.of(errors)
    setup = Setup(
        players=tuple(" ".join(names[row].split()) for row in rows),
        colours=tuple(parsed),
        first_player=rows.index(first_player),
        spies=places,
    )
    _raise(_setup_errors(setup, rows))
    return setup


def check_setup(setup: Setup) -> None:
    """Refuse a setup the rules do not allow."""
    _raise(_setup_errors(setup, range(len(setup.players))))


def _raise(errors: dict[str, str]) -> None:
    if errors:
        raise RulesError.of(errors)


def _setup_errors(setup: Setup, rows: Sequence[int]) -> dict[str, str]:
    errors: dict[str, str] = {}
    count = len(setup.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        errors["players"] = Nn_(
            "Spy is for %(least)s to %(most)s players; %(num)s is named.",
            "Spy is for %(least)s to %(most)s players; %(num)s are named.",
            count,
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
        )
        return errors
    seen: set[str] = set()
    for seat, name in enumerate(setup.players):
        if not name.strip():
            errors[f"player-{rows[seat]}"] = N_("Name every player.")
        elif (problem := name_problem(name)) is not None:
            errors[f"player-{rows[seat]}"] = problem
        elif name.casefold() in seen:
            errors[f"player-{rows[seat]}"] = N_("Two players are called %(name)s.", name=name)
        seen.add(name.casefold())
    if len(setup.colours) != count:
        errors["colours"] = N_("Pick a colour for every player.")
        return errors
    picked: set[Colour] = set()
    for seat, raw in enumerate(setup.colours):
        try:
            colour = Colour(raw)
        except ValueError:
            errors[f"colour-{rows[seat]}"] = N_("Pick a colour: %(colours)s.", colours=Either(colour.label for colour in Colour))
            continue
        if colour in picked:
            errors[f"colour-{rows[seat]}"] = N_("Two players picked %(colour)s.", colour=colour.label)
        picked.add(colour)
    if errors:
        return errors
    if count < BOMB_2_REMOVED_FROM and picked != TWO_PLAYER_COLOURS:
        errors["colours"] = N_("Two players play the green and red sets.")
        return errors
    if not isinstance(setup.first_player, int) or not 0 <= setup.first_player < count:
        errors["first_player"] = N_("The first player must be one of the players.")
    if setup.spies is not None:
        size = setup.base_size
        if len(setup.spies) != count:
            errors["spies"] = N_("Place every player's Spy, or track none.")
            return errors
        for seat, place in enumerate(setup.spies):
            if not isinstance(place.slot, int) or not 1 <= place.slot <= size:
                # said in the form's own words: its places are "before card 1", "after card n"
                errors[f"spy-{rows[seat]}"] = N_("A Spy stands before card 1 or after one of cards 1 to %(last)s.", last=size - 1)
            elif place.facing not in (Facing.LEFT, Facing.RIGHT):
                errors[f"spy-{rows[seat]}"] = N_("A Spy faces left or right.")
    return errors


# --- turns ---------------------------------------------------------------------------


def draw_first(rows: Sequence[int]) -> int:
    """The table draws for who plays first: ties are drawn again until one is highest, so a
    uniform pick of one of the seated rows is the same thing."""
    import secrets

    return rows[secrets.randbelow(len(rows))] if rows else 0


DRAW = "draw"


def rematch_first_player(setup: Setup) -> int:
    """Who plays first in a rematch unless the table says otherwise: the player after the
    last game's first player, clockwise.

    >>> rematch_first_player(new_setup(["Ana", "Ben", "Cy"], ["green", "red", "blue"], first_player=2))
    0
    """
    return (setup.first_player + 1) % len(setup.players)


def rematch(state: SpyState, first_player: str | None = None) -> Setup:
    """The next game, once this one is won: the same players in the same seats with the
    same colours.

    ``first_player`` is a seat as the form sends it, ``"draw"`` for the companion to
    draw, or blank for :func:`rematch_first_player`. Each player arranges their base
    anew, so the Spies' places are not carried over: a table that tracks them says
    where they stand again.
    """
    if not state.finished:
        raise RulesError.about("rematch", N_("The game is not over yet: a rematch starts once it has ended."))
    setup = state.setup
    text = (first_player or "").strip()
    if not text:
        first = rematch_first_player(setup)
    elif text == DRAW:
        first = draw_first(range(len(setup.players)))
    else:
        first = int(text) if text.isdecimal() and len(text) <= 2 else -1
        if not 0 <= first < len(setup.players):
            raise RulesError.about("first_player", N_("The first player must be one of the players."))
    return replace(setup, first_player=first, spies=None)
