"""Spy: the public state at the table as a fold over the turns taken.

The companion never knows, asks for or stores a hidden card. A base is what everyone
can see of it: which cards are exposed (and as which target), which bombs are lit and,
when the table tracks the Spies, where its Spy stands and which way it faces.

Seats are numbered from 0 in clockwise order. A base is counted from its owner's left
in two ways:

- a *slot* is a place in the fan, 1 to the base size; one slot holds the Spy;
- a *card* is one of the other cards, 1 to size - 1, not counting the Spy.

Only the Spy moves, so a card keeps its number for the whole game while its slot
changes whenever the Spy passes it. The public state is therefore kept by card; slots
only matter for the mirror, which the optional Spy tracking works out.

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
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from . import N_, Either, Message, Nn_, RulesError
from .players import name_problem

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
                errors[f"spy-{rows[seat]}"] = N_("A Spy stands in a slot from 1 to %(size)s.", size=size)
            elif place.facing not in (Facing.LEFT, Facing.RIGHT):
                errors[f"spy-{rows[seat]}"] = N_("A Spy faces left or right.")
    return errors


# --- turns ---------------------------------------------------------------------------


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


# --- the game as a fold over its turns -----------------------------------------------


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


class GameOverError(RulesError):
    """A turn taken after the game already has a winner."""


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
        answer = _check_spy(moved, player, turn.spy)
        base = bases[target]
        card = turn.spy.card
        if answer is Answer.TARGET and card is not None and base.target is not None:  # checked just above
            exposed = {**base.exposed, card: base.target}
            bases[target] = replace(base, exposed=MappingProxyType(exposed))
            if len(exposed) == len(TARGET_ORDER):
                out[target] = OutReason.FOUND_OUT
        elif answer is Answer.BOMB and card is not None:  # a bomb is a card, never the Spy
            bases[target] = replace(base, lit_bombs=tuple(sorted((*base.lit_bombs, card))))
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
    if not isinstance(steps, int) or steps < 0:
        raise RulesError.about("steps", N_("A Spy moves a whole number of places."))
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


def looked_at(state: SpyState, spy_seat: int, target_seat: int) -> int | None:
    """The card of ``target_seat`` that ``spy_seat``'s Spy looks at; None for their Spy.

    Needs the Spies tracked. Every base at a table has the same size.

    >>> setup = new_setup(["Ana", "Ben"], ["green", "red"], 0,
    ...                   spies=[SpyPlace(1, Facing.LEFT), SpyPlace(3, Facing.RIGHT)])
    >>> state = start(setup)
    >>> looked_at(state, 0, 1)  # Ana faces across the end, slot 8; opposite is Ben's slot 1
    1
    >>> looked_at(state, 1, 0)  # Ben faces slot 4; opposite is Ana's slot 5, card 4
    4
    """
    mine, theirs = state.bases[spy_seat], state.bases[target_seat]
    if mine.spy is None or theirs.spy is None:
        raise RulesError(N_("This table does not track the Spies."))
    opposite = mirror_slot(mine.size, faced_slot(mine.size, mine.spy.slot, mine.spy.facing))
    return card_at(theirs.spy.slot, opposite)


def possible_answers(state: SpyState, spy_seat: int, target_seat: int, card: int | None) -> tuple[Answer, ...]:
    """The answers still possible when ``spy_seat`` looks at ``card`` of ``target_seat``.

    ``card`` None is the target's Spy. Refuses a question the rules do not allow.

    >>> state = start(new_setup(["Ana", "Ben", "Cy"], ["blue", "red", "green"], 0))
    >>> [answer.value for answer in possible_answers(state, 0, 1, 3)]
    ['safe', 'top-secret', 'target', 'bomb']
    """
    _check_question(state, spy_seat, target_seat, card)
    return _answers(state.bases[target_seat], card)


def _answers(base: BaseState, card: int | None) -> tuple[Answer, ...]:
    if card is None:
        return (Answer.SPY,)
    if card in base.exposed:
        return (Answer.EXPOSED,)
    if card in base.lit_bombs:
        return (Answer.LIT_BOMB,)
    answers = []
    if base.hidden_besides_target(SAFES):
        answers.append(Answer.SAFE)
    if base.hidden_besides_target(TOP_SECRETS):
        answers.append(Answer.TOP_SECRET)
    if base.target is not None:
        answers.append(Answer.TARGET)
    if base.unlit_bombs:
        answers.append(Answer.BOMB)
    return tuple(answers)


def _check_question(state: SpyState, spy_seat: int, target: int, card: int | None) -> None:
    names = state.setup.players
    if not isinstance(spy_seat, int) or not 0 <= spy_seat < len(names) or spy_seat in state.out:
        raise RulesError.about("player", N_("Only a player still in the game spies."))
    if not isinstance(target, int) or not 0 <= target < len(names):
        raise RulesError.about("target", N_("Spy on one of the players."))
    if target == spy_seat:
        raise RulesError.about("target", N_("A player cannot spy on their own base."))
    if (out := state.not_spied_on(target)) is not None:
        raise RulesError.about("target", out)
    cards = state.bases[target].cards
    if card is not None and (not isinstance(card, int) or not 1 <= card <= cards):
        message = N_("%(name)s's base has cards 1 to %(cards)s, not counting the Spy.", name=names[target], cards=cards)
        raise RulesError.about("card", message)


def _check_spy(state: SpyState, player: int, action: SpyAction) -> Answer:
    names = state.setup.players
    _check_question(state, player, action.target, action.card)
    try:
        answer = Answer(action.answer)
    except ValueError:
        raise RulesError.about("answer", N_("Unknown answer %(answer)s.", answer=repr(action.answer)[:40])) from None
    base = state.bases[action.target]
    them, card = names[action.target], action.card
    if base.spy is not None:
        seen = looked_at(state, player, action.target)
        if seen != card:
            raise RulesError.about("card", _wrong_look(names[player], them, seen, card))
    if answer not in _answers(base, card):
        raise RulesError.about("answer", _refusal(base, them, card, answer))
    return answer


def _wrong_look(spy: str, them: str, seen: int | None, card: int | None) -> Message:
    # each case a whole sentence, so that each language can order it its own way
    if seen is None:
        return N_("%(spy)s's Spy looks at %(them)s's Spy, not card %(card)s.", spy=spy, them=them, card=card)
    if card is None:
        return N_("%(spy)s's Spy looks at %(them)s's card %(seen)s, not their Spy.", spy=spy, them=them, seen=seen)
    return N_("%(spy)s's Spy looks at %(them)s's card %(seen)s, not card %(card)s.", spy=spy, them=them, seen=seen, card=card)


def _refusal(base: BaseState, them: str, card: int | None, answer: Answer) -> Message:
    if card is None:
        return N_(
            "Looking at %(name)s's Spy reveals nothing: the only answer is “%(answer)s”.", name=them, answer=Answer.SPY.label
        )
    if answer is Answer.SPY:
        return N_(
            "Card %(card)s is not %(name)s's Spy: name no card for the answer “%(answer)s”.",
            card=card,
            name=them,
            answer=Answer.SPY.label,
        )
    if card in base.exposed:
        return N_(
            "%(name)s's card %(card)s is exposed (%(kind)s): the only answer is “%(answer)s”.",
            card=card,
            name=them,
            kind=base.exposed[card].label,
            answer=Answer.EXPOSED.label,
        )
    if card in base.lit_bombs:
        return N_(
            "%(name)s's card %(card)s is a lit bomb: the only answer is “%(answer)s”.",
            card=card,
            name=them,
            answer=Answer.LIT_BOMB.label,
        )
    if answer is Answer.EXPOSED:
        return N_("%(name)s's card %(card)s is not exposed.", card=card, name=them)
    if answer is Answer.LIT_BOMB:
        return N_(
            "%(name)s's card %(card)s is not a lit bomb: a bomb found for the first time answers “%(answer)s”.",
            card=card,
            name=them,
            answer=Answer.BOMB.label,
        )
    if answer is Answer.BOMB:
        return Nn_(
            "%(name)s's only bomb is already lit.", "All %(num)s of %(name)s's bombs are already lit.", base.bombs, name=them
        )
    if answer is Answer.SAFE:
        if all(kind in base.exposed.values() for kind in SAFES):
            return N_("Both of %(name)s's Safes are exposed.", name=them)
        return N_(
            "%(name)s's only hidden Safe is the current target, %(target)s: the answer is “%(answer)s”.",
            name=them,
            target=base.target.label,  # type: ignore[union-attr]  # asked only while a target is left
            answer=Answer.TARGET.label,
        )
    if answer is Answer.TOP_SECRET:
        if all(kind in base.exposed.values() for kind in TOP_SECRETS):
            return N_("Both of %(name)s's Top Secrets are exposed.", name=them)
        return N_(
            "%(name)s's only hidden Top Secret is the current target, %(target)s: the answer is “%(answer)s”.",
            name=them,
            target=base.target.label,  # type: ignore[union-attr]  # asked only while a target is left
            answer=Answer.TARGET.label,
        )
    return N_("%(name)s has no exposure target left.", name=them)


# --- reading what the table typed ---------------------------------------------------


def _whole(text: str | None, field_name: str, what: Message) -> int | None:
    text = (text or "").strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise RulesError.about(field_name, N_("%(what)s must be a whole number.", what=what)) from None


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


def move_from_form(form: Mapping[str, str]) -> Move | None:
    """Read the move fields (``steps``, ``turn_before``, ``turn_after``, ``other_end``)."""
    steps = _whole(form.get("steps"), "steps", N_("The move"))
    flags = {key: bool(form.get(key)) for key in ("turn_before", "turn_after", "other_end")}
    if steps is None and not any(flags.values()):
        return None
    if steps is None and (flags["turn_before"] or flags["turn_after"]):
        raise RulesError.about("steps", N_("Turning the Spy is part of a move: say how far it moves."))
    return Move(steps=steps or 0, **flags)


def turn_from_form(state: SpyState, form: Mapping[str, str]) -> Turn:
    """Read a whole turn for the player whose turn it is.

    The answer may be left out where only one is possible (a lit bomb, an exposed
    card, the opponent's Spy): the table is not asked what it already knows.
    """
    if state.to_play is None:
        raise GameOverError(N_("The game is over: no more turns."))
    player = state.to_play
    move = move_from_form(form)
    look = look_from_form(form.get("look"))
    if look is None:
        return Turn(player=player, move=move)
    target, card = look
    seen = after_move(state, player, move) if move is not None else state
    answers = possible_answers(seen, player, target, card)
    text = (form.get("answer") or "").strip()
    if not text and len(answers) == 1:
        answer = answers[0]
    else:
        try:
            answer = Answer(text)
        except ValueError:
            raise RulesError.about("answer", N_("Choose what the spied-on player answered.")) from None
    return Turn(player=player, move=move, spy=SpyAction(target=target, card=card, answer=answer))


def mirror(state: SpyState, player: int) -> dict[int, int | None]:
    """Which card of each opponent's base the player's Spy looks at, when the table tracks
    the Spies (empty when it does not)."""
    if not state.setup.tracking:
        return {}
    return {seat: looked_at(state, player, seat) for seat in state.remaining if seat != player}


def current_look(state: SpyState, player: int, look: tuple[int, int | None] | None) -> tuple[int, int | None] | None:
    """The card the table picked, if the player's Spy looks at it now.

    A card picked before the Spy moved is not the one it looks at: the form must not ask
    about it, nor send it; the table picks the card the Spy sees.
    """
    if look is None or not state.setup.tracking:
        return look
    seen = mirror(state, player)
    return look if look[0] in seen and seen[look[0]] == look[1] else None


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


def after_each(state: SpyState) -> tuple[SpyState, ...]:
    """The table as each of ``state``'s turns left it, first to last: what a turn revealed
    (a target's name, a player found out, the winner) is read from the state after it."""
    states = []
    now = start(state.setup)
    for turn in state.turns:
        now = take(now, turn)
        states.append(now)
    return tuple(states)
