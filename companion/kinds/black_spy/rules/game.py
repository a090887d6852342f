"""A game of Black Spy as a fold over its deals: dealer, pass and lead of each deal, the
running totals, the standings, the end, and the rematch.

>>> game = replay(Setup(STANDARD, ("Ana", "Ben", "Cy", "Dee"), first_dealer=1), [])
>>> game.next.dealer, game.next.pass_.value, game.next.cards_each
(1, 'left', 15)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from companion.rules import N_, RulesError

from .deals import DealEntry, DealScore, PointsEntry, score_deal  # noqa: F401  (PointsEntry: the doctests play deals)
from .rulesets import STANDARD, Pass, RuleSet  # noqa: F401  (STANDARD: the doctests play by it)
from .seating import Setup, draw_first_dealer

# --- the game as a fold over its deals -----------------------------------------------


@dataclass(frozen=True)
class DealInfo:
    """What the table needs before a deal: who deals, how many cards, the pass, the lead."""

    number: int
    dealer: int
    pass_: Pass
    cards_each: int
    leader: int | None  # None: whoever holds the Red 1
    pass_pairs: tuple[tuple[int, int], ...]


def deal_info(setup: Setup, number: int) -> DealInfo:
    """Dealer, pass and lead of deal ``number`` (the first deal is 1).

    >>> info = deal_info(Setup(STANDARD, ("Ana", "Ben", "Cy", "Dee"), 0), 3)
    >>> info.dealer, info.pass_.value, info.pass_pairs[0]
    (2, 'across', (0, 2))
    """
    players = setup.size
    dealer = (setup.first_dealer + number - 1) % players
    direction = setup.rules.pass_for(players, number)
    return DealInfo(
        number=number,
        dealer=dealer,
        pass_=direction,
        cards_each=setup.rules.cards_each(players),
        leader=setup.rules.first_leader(players, dealer),
        pass_pairs=tuple((seat, direction.receiver(seat, players)) for seat in range(players)),
    )


@dataclass(frozen=True)
class PlayedDeal:
    info: DealInfo
    entry: DealEntry
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    totals: tuple[int, ...]
    shooter: int | None

    @property
    def number(self) -> int:
        return self.info.number


@dataclass(frozen=True)
class Standing:
    seat: int
    name: str
    total: int
    rank: int  # 1 is lowest total; tied players share a rank
    to_end: int  # points left before the end value


@dataclass(frozen=True)
class GameState:
    setup: Setup
    deals: tuple[PlayedDeal, ...]
    totals: tuple[int, ...]
    end_value: int
    finished: bool
    next: DealInfo | None
    standings: tuple[Standing, ...] = field(default=())

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats with the lowest total: the winners once the game is over."""
        low = min(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == low)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.leaders if self.finished else ()


class GameOverError(RulesError):
    """A deal recorded after the game had already ended."""


def _standings(setup: Setup, totals: Sequence[int], end_value: int) -> tuple[Standing, ...]:
    ordered = sorted(range(setup.size), key=lambda seat: (totals[seat], seat))
    return tuple(
        Standing(
            seat=seat,
            name=setup.players[seat],
            total=totals[seat],
            rank=1 + sum(1 for other in totals if other < totals[seat]),
            to_end=end_value - totals[seat],
        )
        for seat in ordered
    )


def replay(setup: Setup, entries: Sequence[DealEntry]) -> GameState:
    """Fold the rules over a game's deals.

    Raises :class:`RulesError` naming the deal when one is invalid, and
    :class:`GameOverError` when a deal comes after the game ended.

    Everything here is frozen and the fold is a function of its arguments alone, so the
    last few dozen folds are kept (a state of a long game is some hundreds of KB): a request that writes a deal reads its game's state
    some five times (to check the deal, to record it, for the kept figures, for the page),
    and a phone that reloads an unchanged game gets the same state again. A deal's score
    and a deal's dealer and pass are kept the same way, so the fold of a game with one
    more deal scores that deal alone.

    >>> game = Setup(STANDARD, ("Ana", "Ben", "Cy", "Dee"), 0)
    >>> replay(game, [PointsEntry((20, 15, 25, 0))]) is replay(game, (PointsEntry((20, 15, 25, 0)),))
    True
    """
    return _replay(setup, tuple(entries))


# a long game's fold starts from the fold of its first deals, kept: those up to the last
# multiple of this before its last deal. A deal added to a game of 60 folds the deals since
# the 48th, not all 61 (the fold of 61 was 0.3 ms, and a game's writes grew with it)
FOLDED_TOGETHER = 16


@lru_cache(maxsize=64)
def _replay(setup: Setup, entries: tuple[DealEntry, ...]) -> GameState:
    rules = setup.rules
    end_value = rules.end_value(setup.size)
    start = (len(entries) - 1) // FOLDED_TOGETHER * FOLDED_TOGETHER if entries else 0
    before = _replay(setup, entries[:start]) if start else None
    totals = before.totals if before else (0,) * setup.size
    played: list[PlayedDeal] = list(before.deals) if before else []
    finished = before.finished if before else False
    for number, entry in enumerate(entries[start:], start=start + 1):
        if finished:
            raise GameOverError(
                N_("The game ended after deal %(last)s; deal %(number)s cannot be played.", last=number - 1, number=number),
                {"": N_("The game ended after deal %(last)s.", last=number - 1)},
            )
        try:
            score = _scored(rules, setup.players, entry)
        except RulesError as error:
            raise RulesError(N_("Deal %(number)s: %(problem)s", number=number, problem=error.message), error.errors) from error
        totals = tuple(total + points for total, points in zip(totals, score.scores, strict=True))
        played.append(
            PlayedDeal(
                info=_dealt(setup, number),
                entry=entry,
                raw=score.raw,
                scores=score.scores,
                totals=totals,
                shooter=score.shooter,
            )
        )
        finished = max(totals) >= end_value
    return GameState(
        setup=setup,
        deals=tuple(played),
        totals=totals,
        end_value=end_value,
        finished=finished,
        next=None if finished else _dealt(setup, len(played) + 1),
        standings=_standings(setup, totals, end_value),
    )


# the pieces of a fold, kept for the next fold of the same game (see replay); an entry
# refused is not kept, and is refused again the next time
@lru_cache(maxsize=8192)
def _scored(rules: RuleSet, players: tuple[str, ...], entry: DealEntry) -> DealScore:
    return score_deal(rules, players, entry)


@lru_cache(maxsize=4096)
def _dealt(setup: Setup, number: int) -> DealInfo:
    return deal_info(setup, number)


def record(setup: Setup, entries: Sequence[DealEntry], entry: DealEntry) -> GameState:
    """The game after one more deal; refused once the game is over."""
    before = replay(setup, entries)
    if before.finished:
        raise GameOverError(N_("The game is over: no more deals. Undo the last deal to reopen it."))
    return replay(setup, [*entries, entry])


def repeats(setup: Setup, entry: DealEntry, played: PlayedDeal) -> bool:
    """Whether ``entry`` scores every player as the deal ``played`` did: the same deal
    entered twice (on two phones, or by the players' phones and the scorer's), not a new one.

    >>> game = replay(Setup(STANDARD, ("Ana", "Ben", "Cy", "Dee"), first_dealer=0), [PointsEntry((20, 15, 25, 0))])
    >>> repeats(game.setup, PointsEntry((20, 15, 25, 0)), game.deals[0])
    True
    >>> repeats(game.setup, PointsEntry((15, 20, 25, 0)), game.deals[0])
    False
    """
    try:
        return score_deal(setup.rules, setup.players, entry).scores == played.scores
    except RulesError:
        return False


def edit(setup: Setup, entries: Sequence[DealEntry], index: int, entry: DealEntry) -> GameState:
    """The game with deal ``index`` (0-based) replaced; every later figure follows.

    Refused when the change would end the game before its last deal.
    """
    if not 0 <= index < len(entries):
        raise RulesError(N_("There is no deal %(number)s.", number=index + 1))
    changed = [*entries]
    changed[index] = entry
    try:
        return replay(setup, changed)
    except GameOverError:
        # find where it ends to say so
        for number in range(index + 1, len(changed) + 1):
            if replay(setup, changed[:number]).finished:
                message = N_(
                    "With this change the game would end after deal %(number)s, "
                    "but %(played)s deals were played. Undo the later deals first.",
                    number=number,
                    played=len(changed),
                )
                raise RulesError(message) from None
        raise


def rematch_first_dealer(setup: Setup) -> int:
    """Who deals first in a rematch unless the table says otherwise: the player after
    the last game's first dealer."""
    return (setup.first_dealer + 1) % setup.size


DRAW = "draw"


def rematch(state: GameState, first_dealer: str | None = None, rng: random.Random | None = None) -> Setup:
    """The next game: same players, seats and rules, once this one is over.

    ``first_dealer`` is a seat number as the form sends it, ``"draw"`` for the companion
    to draw, or blank for :func:`rematch_first_dealer`.
    """
    if not state.finished:
        raise RulesError.about("rematch", N_("The game is not over yet: a rematch starts once it has ended."))
    setup = state.setup
    text = (first_dealer or "").strip()
    if not text:
        return replace(setup, first_dealer=rematch_first_dealer(setup))
    if text == DRAW:
        return replace(setup, first_dealer=draw_first_dealer(setup.size, rng))
    seat = int(text) if text.isdecimal() and len(text) <= 2 else -1
    if not 0 <= seat < setup.size:
        raise RulesError.about("first_dealer", N_("The first dealer must be one of the named players."))
    return replace(setup, first_dealer=seat)


# --- for a phone that cannot reach the server ----------------------------------------


def upcoming(state: GameState, count: int) -> tuple[DealInfo, ...]:
    """The ``count`` deals after the next one, as they come if the game lasts that long.

    Who deals them, the pass and the lead follow from the seating and the rules alone,
    so a phone that cannot reach the server can still move on deal by deal; whether the
    game ends before one of them is known only once its deals are scored.

    >>> game = replay(Setup(STANDARD, ("Ana", "Ben", "Cy", "Dee"), first_dealer=3), [])
    >>> [(info.number, info.dealer, info.pass_.value) for info in upcoming(game, 3)]
    [(2, 0, 'right'), (3, 1, 'across'), (4, 2, 'left')]
    """
    if state.next is None:
        return ()
    return tuple(deal_info(state.setup, state.next.number + step) for step in range(1, count + 1))
