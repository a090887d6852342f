"""A deal made of each player's own share, entered on their own phones.

Each player counts their own pile and sends what they took: their raw points, or the cards
they counted, and whether they took all 16 black cards. Once every seat has, the whole
is checked as if the scorer had typed it on one form: the same sums, the same shoot rule.
A whole that does not add up is refused with what is wrong, and the table recounts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import N_, Either, Message, RulesError, Unanswered

from .deals import Cards, CardsEntry, DealEntry, PointsEntry, check_points, check_shoot, shoot_candidates, shooters_coloured_spies
from .rulesets import BLACK_CARDS, HIGH_BLACKS, STANDARD, RuleSet  # noqa: F401  (STANDARD: the doctests score by it)


@dataclass(frozen=True)
class Share:
    """What one player says they took in a deal: points, or the cards they counted."""

    points: int | None = None
    cards: Cards | None = None
    # True: "I took all 16 black cards"; False: the player said they did not; None: unsaid
    shot: bool | None = None

    def raw(self, rules: RuleSet) -> int:
        return self.cards.points(rules) if self.cards is not None else int(self.points or 0)

    @property
    def says_shot(self) -> bool:
        return self.shot is True or (self.cards is not None and self.cards.black_cards == BLACK_CARDS)


def check_share(rules: RuleSet, name: str, share: Share) -> None:
    """Refuse a share that cannot be right on its own, before the others are in: points that
    say "I took all 16 black cards" must be what those cards score with the coloured Spies
    taken beside them (the raw count, not the shoot's 0), or the whole could never add up.

    >>> check_share(STANDARD, "Ana", Share(points=75, shot=True))
    >>> check_share(STANDARD, "Ana", Share(points=0, shot=True))
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: Ana cannot have taken all 16 black cards with 0: that is 80 plus -5 per coloured Spy.
    """
    if rules.shoot_rule and share.shot is True and share.cards is None:
        shooters_coloured_spies(rules, name, int(share.points or 0), field="points")


class ShootUnanswered(Unanswered):
    """Every share is in and adds up, and these seats' points allow a shoot none of them
    has said yes or no to: the table must answer before the deal is recorded."""


def deal_from_shares(rules: RuleSet, players: Sequence[str], shares: Sequence[Share]) -> DealEntry:
    """The deal every seat's share makes, or a ``RulesError`` saying why the table must
    recount. By cards when every share was counted by cards (the deck is checked too), by
    points otherwise (a share counted by cards gives its points)."""
    if len(shares) != len(players):
        raise RulesError(N_("A deal needs points for all %(num)s players.", num=len(players)))
    if all(share.cards is not None for share in shares):
        cards = tuple(share.cards for share in shares if share.cards is not None)
        _check_high_blacks(players, cards)
        return CardsEntry(cards)
    raw = tuple(share.raw(rules) for share in shares)
    check_points(rules, players, raw)
    # a claim counts where the shoot rule is played; elsewhere all 16 are only their points
    claims = [seat for seat, share in enumerate(shares) if share.says_shot] if rules.shoot_rule else []
    if len(claims) > 1:
        raise RulesError.about("shot", several_shot([players[seat] for seat in claims]))
    if claims:
        check_shoot(rules, players, raw, claims[0])
        return PointsEntry(raw, shooter=claims[0])
    unanswered = tuple(seat for seat in shoot_candidates(rules, raw) if shares[seat].shot is None)
    if unanswered:
        raise ShootUnanswered(unanswered, shoot_asked([players[seat] for seat in unanswered]))
    return PointsEntry(raw)


def _check_high_blacks(players: Sequence[str], cards: Sequence[Cards]) -> None:
    errors: dict[str, str] = {}
    for card in HIGH_BLACKS:
        holders = [players[seat] for seat, taken in enumerate(cards) if card in taken.high_blacks]
        if not holders:
            errors[f"high-{card}"] = N_("Nobody says they took the black %(card)s.", card=card)
        elif len(holders) > 1:
            errors[f"high-{card}"] = N_("%(names)s each say they took the black %(card)s.", names=holders, card=card)
    if errors:
        raise RulesError.of(errors)


def several_shot(names: Sequence[str]) -> Message:
    return N_(
        "%(names)s each say they took all %(blacks)s black cards: only one player can.", names=list(names), blacks=BLACK_CARDS
    )


def shoot_asked(names: Sequence[str]) -> Message:
    return N_(
        "Did %(names)s take all %(blacks)s black cards? Their own phone answers, or the scorer types this deal whole.",
        names=Either(names),
        blacks=BLACK_CARDS,
    )
