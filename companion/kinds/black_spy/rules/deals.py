"""What each deal is worth: a deal's entry (by points or by cards), checked and scored,
and the shoot rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.rules import N_, Message, RulesError

from .rulesets import (
    BLACK_CARDS,
    BLACK_COUNTS,
    CARD_COUNTS,
    COLOURED_SPIES,
    HIGH_BLACKS,
    MAX_SCORE_DIGITS,
    SHOOTER_SCORE,
    STANDARD,  # noqa: F401  (the doctests score by it)
    RuleSet,
)


@dataclass(frozen=True)
class Cards:
    """The scoring cards one player took in a deal."""

    black_spies: int = 0
    low_blacks: int = 0
    high_blacks: frozenset[int] = frozenset()
    coloured_spies: int = 0

    @property
    def black_cards(self) -> int:
        return sum(int(getattr(self, key)) for key in BLACK_COUNTS) + len(self.high_blacks)

    def points(self, rules: RuleSet) -> int:
        return (
            self.black_spies * rules.black_spy_points
            + self.low_blacks * rules.low_black_points
            + sum(rules.high_black_points[card] for card in self.high_blacks)
            + self.coloured_spies * rules.coloured_spy_points
        )


@dataclass(frozen=True)
class PointsEntry:
    """A deal as the table added it up: raw points per seat, and who shot if anyone."""

    raw: tuple[int, ...]
    shooter: int | None = None


@dataclass(frozen=True)
class CardsEntry:
    """A deal as the table counted it: the scoring cards each seat took."""

    cards: tuple[Cards, ...]

    @property
    def shooter(self) -> int | None:
        for seat, taken in enumerate(self.cards):
            if taken.black_cards == BLACK_CARDS:
                return seat
        return None


DealEntry = PointsEntry | CardsEntry


@dataclass(frozen=True)
class DealScore:
    raw: tuple[int, ...]
    scores: tuple[int, ...]
    shooter: int | None


def _shoot_scores(rules: RuleSet, players: int, shooter: int) -> tuple[int, ...]:
    return tuple(SHOOTER_SCORE if seat == shooter else rules.deal_total for seat in range(players))


def shoot_scores(rules: RuleSet, players: int) -> tuple[tuple[int, ...], ...]:
    """Each seat's shoot as the deal's scores, seat by seat (none where the shoot rule is
    off): what a page shows once the cards typed give one player every black card.

    >>> shoot_scores(STANDARD, 3)
    ((0, 60, 60), (60, 0, 60), (60, 60, 0))
    """
    if not rules.shoot_rule:
        return ()
    return tuple(_shoot_scores(rules, players, seat) for seat in range(players))


def score_deal(rules: RuleSet, players: Sequence[str], entry: DealEntry) -> DealScore:
    """Check one deal's entry and score it.

    >>> score_deal(STANDARD, "ABCD", PointsEntry((65, -5, 0, 0), shooter=0)).scores
    (0, 60, 60, 60)
    """
    if isinstance(entry, CardsEntry):
        check_cards(rules, players, entry.cards)
        raw = tuple(taken.points(rules) for taken in entry.cards)
        shooter = entry.shooter if rules.shoot_rule else None
    else:
        check_points(rules, players, entry.raw)
        raw, shooter = entry.raw, entry.shooter
        if shooter is not None:
            check_shoot(rules, players, raw, shooter)
    if shooter is not None:
        return DealScore(raw, _shoot_scores(rules, len(players), shooter), shooter)
    return DealScore(raw, raw, None)


def check_points(rules: RuleSet, players: Sequence[str], raw: Sequence[int]) -> None:
    """Refuse raw points that no deal can produce."""
    if len(raw) != len(players):
        raise RulesError(N_("A deal needs points for all %(num)s players.", num=len(players)))
    errors = {}
    for seat, points in enumerate(raw):
        if abs(points) >= 10**MAX_SCORE_DIGITS:
            errors[f"points-{seat}"] = too_long(rules, players[seat])
        elif not rules.min_raw <= points <= rules.max_raw:
            errors[f"points-{seat}"] = impossible_points(rules, players[seat], points)
    if errors:
        raise RulesError.of(errors)
    total = sum(raw)
    if total != rules.deal_total:
        shooter = shoot_typed_as_scores(rules, raw)
        if shooter is not None:
            raise RulesError.about("total", how_to_enter_a_shoot(rules, players, shooter))
        raise RulesError.about("total", wrong_sum(rules, total))


# the sentences of the deal checks, one function each: the checks say them, and
# :func:`deal_checks` hands them to a page with slots for what only the page knows


def impossible_points(rules: RuleSet, name: str, points: int | str) -> Message:
    return N_(
        "%(name)s: %(points)s is not possible; a deal gives between %(least)s and %(most)s.",
        name=name,
        points=points,
        least=rules.min_raw,
        most=rules.max_raw,
    )


def wrong_sum(rules: RuleSet, total: int | str) -> Message:
    return N_(
        "The points add up to %(total)s, not %(deal_total)s: check each player's count.",
        total=total,
        deal_total=rules.deal_total,
    )


def too_long(rules: RuleSet, name: str) -> Message:
    return N_(
        "%(name)s: that number is too long to be a deal's points; a deal gives between %(least)s and %(most)s.",
        name=name,
        least=rules.min_raw,
        most=rules.max_raw,
    )


def shoot_typed_as_scores(rules: RuleSet, raw: Sequence[int]) -> int | None:
    """The seat whose shoot these are the scores of (0 there, the deal total everywhere else)."""
    if not rules.shoot_rule or len(raw) < 2:
        return None
    for seat in range(len(raw)):
        if tuple(raw) == _shoot_scores(rules, len(raw), seat):
            return seat
    return None


def how_to_enter_a_shoot(rules: RuleSet, players: Sequence[str], shooter: int) -> str:
    name = players[shooter]
    common = {"name": name, "total": rules.deal_total, "blacks": BLACK_CARDS}
    if rules.coloured_spy_points == 0:
        # all the blacks are all the points: the shooter's count is known exactly
        return N_(
            "These look like a shoot's final scores: %(name)s 0, everyone else %(total)s. Type the points "
            "each player took instead (%(name)s's %(most)s, everyone else's 0) and you will be asked "
            "whether %(name)s took all %(blacks)s black cards.",
            most=rules.max_raw,
            **common,
        )
    return N_(
        "These look like a shoot's final scores: %(name)s 0, everyone else %(total)s. Type the points "
        "each player took instead (%(name)s between %(least)s and %(most)s, everyone else %(spy)s for each "
        "coloured Spy they took, 0 if none) and you will be asked whether %(name)s took all %(blacks)s black cards.",
        least=rules.shoot_threshold,
        most=rules.max_raw,
        spy=rules.coloured_spy_points,
        **common,
    )


def shoot_candidates(rules: RuleSet, raw: Sequence[int]) -> tuple[int, ...]:
    """Seats that may have taken all 16 black cards: their raw score is high enough, and
    the others' points are what such a shoot leaves them (``check_shoot``).

    A high score is not proof: 75 is "all blacks and one coloured Spy" or "all blacks
    but the black 11", so the table must be asked. Where no shoot could score so, it is not.

    >>> shoot_candidates(STANDARD, (75, -5, -5, -5))
    (0,)
    >>> shoot_candidates(STANDARD, (68, 0, -5, -3))
    ()
    """
    if not rules.shoot_rule:
        return ()
    players = tuple(str(seat) for seat in range(len(raw)))
    return tuple(
        seat for seat, points in enumerate(raw) if points >= rules.shoot_threshold and _could_shoot(rules, players, raw, seat)
    )


def _could_shoot(rules: RuleSet, players: Sequence[str], raw: Sequence[int], seat: int) -> bool:
    try:
        check_shoot(rules, players, raw, seat)
    except RulesError:
        return False
    return True


def check_shoot(rules: RuleSet, players: Sequence[str], raw: Sequence[int], shooter: int) -> None:
    """Refuse a shoot that these raw points cannot come from.

    >>> check_shoot(STANDARD, "ABC", (75, -20, 5), shooter=0)
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: If A took all 16 black cards, everyone else holds only coloured Spies (-5 each); B's -20 and C's 5 cannot be.
    """
    if not rules.shoot_rule:
        raise RulesError.about("shooter", N_("The shoot rule is off in this game."))
    if not 0 <= shooter < len(players):
        raise RulesError.about("shooter", N_("The shooter must be one of the players."))
    name = players[shooter]
    spy = rules.coloured_spy_points
    taken_spies = shooters_coloured_spies(rules, name, raw[shooter])
    others = [seat for seat in range(len(players)) if seat != shooter]
    spies = [_coloured_spies_in(raw[seat], spy) for seat in others]
    # when coloured spies are worth nothing their count cannot be read from the points
    whole = all(count is not None and count >= 0 for count in spies)
    if not whole or (spy != 0 and sum(spies) != COLOURED_SPIES - taken_spies):  # type: ignore[arg-type]  # checked just above: every count is a whole number here
        held = [N_("%(name)s's %(points)s", points=raw[seat], name=players[seat]) for seat in others]
        message = N_(
            "If %(name)s took all %(blacks)s black cards, everyone else holds only coloured Spies "
            "(%(spy)s each); %(held)s cannot be.",
            name=name,
            blacks=BLACK_CARDS,
            spy=spy,
            held=held,
        )
        raise RulesError.about("shooter", message)


def shooters_coloured_spies(rules: RuleSet, name: str, points: int, field: str = "shooter") -> int:
    """How many coloured Spies a player who took all 16 black cards took beside them, to
    score ``points``; refused (about ``field``) when no such hand scores so.

    >>> shooters_coloured_spies(STANDARD, "A", 70)
    2
    >>> shooters_coloured_spies(STANDARD, "A", 0)
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: A cannot have taken all 16 black cards with 0: that is 80 plus -5 per coloured Spy.
    """
    taken_spies = _coloured_spies_in(points - rules.black_points, rules.coloured_spy_points)
    if taken_spies is None or not 0 <= taken_spies <= COLOURED_SPIES:
        message = N_(
            "%(name)s cannot have taken all %(blacks)s black cards with %(points)s: that is "
            "%(black_points)s plus %(spy)s per coloured Spy.",
            name=name,
            blacks=BLACK_CARDS,
            points=points,
            black_points=rules.black_points,
            spy=rules.coloured_spy_points,
        )
        raise RulesError.about(field, message)
    return taken_spies


def _coloured_spies_in(points: int, spy_points: int) -> int | None:
    """How many coloured Spies make exactly ``points``, or None if none do."""
    if spy_points == 0:
        return 0 if points == 0 else None
    count, remainder = divmod(points, spy_points)
    return count if remainder == 0 else None


# --- counting cards ------------------------------------------------------------------


def check_cards(rules: RuleSet, players: Sequence[str], cards: Sequence[Cards]) -> None:
    """Refuse counts that do not add up to the deck."""
    if len(cards) != len(players):
        raise RulesError(N_("A deal needs cards for all %(num)s players.", num=len(players)))
    errors = {}
    counted = {key for key, _, _ in rules.card_counts}
    for key, most, label in CARD_COUNTS:
        for seat, taken in enumerate(cards):
            if not 0 <= getattr(taken, key) <= most:
                errors[f"{key}-{seat}"] = count_out_of_range(players[seat], label, most)
        total = sum(getattr(taken, key) for taken in cards)
        # a kind the rules do not score may be left uncounted (all 0), as the form leaves it
        allowed = (most,) if key in counted else (0, most)
        if total not in allowed and f"{key}-total" not in errors:
            errors[f"{key}-total"] = deck_count(label, most, total)
    for card in HIGH_BLACKS:
        holders = [seat for seat, taken in enumerate(cards) if card in taken.high_blacks]
        if len(holders) != 1:
            errors[f"high-{card}"] = N_("Exactly one player took the black %(card)s.", card=card)
    for seat, taken in enumerate(cards):
        if not taken.high_blacks <= set(HIGH_BLACKS):
            errors[f"high-{seat}"] = N_(
                "%(name)s: only the black %(cards)s are high blacks.", name=players[seat], cards=list(HIGH_BLACKS)
            )
    if errors:
        raise RulesError.of(errors)


def count_out_of_range(name: str, label: str, most: int) -> Message:
    return N_("%(name)s: %(cards)s must be from 0 to %(most)s.", name=name, cards=label, most=most)


def deck_count(label: str, most: int, total: int | str) -> Message:
    return N_("The deck has %(most)s %(cards)s; these counts add up to %(total)s.", most=most, cards=label, total=total)
