"""What a look may be answered in Spy, from what the table can see: which card a tracked
Spy looks at, the answers still possible for it, and the refusal of an answer the rules or
the earlier turns rule out, in a sentence that says why."""

from __future__ import annotations

from collections.abc import Sequence

from companion.rules import N_, Message, Nn_, RulesError

from .deck import SAFES, TOP_SECRETS, Answer, Facing, Target, card_at, faced_slot, mirror_slot  # noqa: F401  (Facing: the doctests place Spies)
from .setup import SpyPlace, new_setup  # noqa: F401  (the doctests below seat a table)
from .state import BaseState, SpyAction, SpyState, start  # noqa: F401  (start: the doctests below)


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


def check_spy(state: SpyState, player: int, action: SpyAction) -> Answer:
    """The answer of ``player``'s look, refused (with why) if the question or its answer is
    not one the rules and the earlier turns allow; the fold takes it from here."""
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
