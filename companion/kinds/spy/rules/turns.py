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
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from companion.rules import N_, Message, Nn_, RulesError

from .deck import (
    EXPOSED_MOVES,
    SAFES,
    SPIES_PER_BASE,
    TARGET_ORDER,
    TOP_SECRETS,
    Answer,
    Colour,
    Facing,  # noqa: F401  (the doctests below place Spies)
    OutReason,
    Target,
    base_size,
    bombs_in_base,
    card_at,
    faced_slot,
    mirror_slot,
    move_spy,
    other_end,
)
from .setup import Setup, SpyPlace, check_setup, new_setup  # noqa: F401  (new_setup: the doctest above seats a table)


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
    known = base.known.get(card)
    answers = []
    for kind, kinds in ((Answer.SAFE, SAFES), (Answer.TOP_SECRET, TOP_SECRETS)):
        if _may_be(base, card, kind, kinds) and base.hidden_besides_target(kinds):
            answers.append(kind)
    # a card answered "not the target" is still not the target while that target stands
    if (
        base.target is not None
        and _may_be(base, card, *_KIND_OF_TARGET[base.target in SAFES])
        and (known is None or known[1] != base.target)
    ):
        answers.append(Answer.TARGET)
    if base.unlit_bombs and known is None:
        answers.append(Answer.BOMB)
    return tuple(answers)


# a target's kind, by whether it is a Safe
_KIND_OF_TARGET = {True: (Answer.SAFE, SAFES), False: (Answer.TOP_SECRET, TOP_SECRETS)}


def _may_be(base: BaseState, card: int, kind: Answer, kinds: Sequence[Target]) -> bool:
    """Whether ``card`` may still be one of ``kinds`` (a Safe, or a Top Secret): it was
    answered that kind before, or it was not answered anything and the cards of that kind
    still hidden are not all known to be other cards."""
    known = base.known.get(card)
    if known is not None:
        return known[0] is kind
    hidden = [target for target in kinds if target not in base.exposed.values()]
    elsewhere = [other for other, (said, _) in base.known.items() if said is kind and other not in base.exposed]
    return len(elsewhere) < len(hidden)


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
    if card in base.known and answer not in (base.known[card][0], Answer.LIT_BOMB):
        return N_(
            "%(name)s's card %(card)s was answered “%(was)s” on an earlier turn: it cannot be “%(answer)s”.",
            card=card,
            name=them,
            was=base.known[card][0].label,
            answer=answer.label,
        )
    if answer is Answer.LIT_BOMB:
        return N_(
            "%(name)s's card %(card)s is not a lit bomb: a bomb found for the first time answers “%(answer)s”.",
            card=card,
            name=them,
            answer=Answer.BOMB.label,
        )
    if answer in (Answer.SAFE, Answer.TOP_SECRET, Answer.TARGET) and card not in base.known:
        kind, kinds = (
            _KIND_OF_TARGET[base.target in SAFES]
            if answer is Answer.TARGET and base.target is not None
            else (answer, SAFES if answer is Answer.SAFE else TOP_SECRETS)
        )
        others = sorted(other for other, (said, _) in base.known.items() if said is kind and other not in base.exposed)
        if others and not _may_be(base, card, kind, kinds):
            return N_(
                "%(name)s's hidden cards of that kind are known: cards %(cards)s were answered “%(kind)s” before.",
                name=them,
                cards=others,
                kind=kind.label,
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


def after_each(state: SpyState) -> tuple[SpyState, ...]:
    """The table as each of ``state``'s turns left it, first to last: what a turn revealed
    (a target's name, a player found out, the winner) is read from the state after it."""
    states = []
    now = start(state.setup)
    for turn in state.turns:
        now = take(now, turn)
        states.append(now)
    return tuple(states)
