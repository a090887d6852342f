"""Black Spy: rule sets, deal scoring and validation, seating order, standings, the end.

A game is its inputs (the seating, the first dealer, the rule set and one entry per
deal); :func:`replay` folds the rules over them to derive everything else.

Seats are numbered from 0 in clockwise order; "left" is the next seat clockwise.

>>> rules = STANDARD
>>> rules.deal_total, rules.min_raw, rules.max_raw
(60, -20, 80)
>>> game = replay(Setup(rules, ("Ana", "Ben", "Cy", "Dee"), first_dealer=1), [])
>>> game.next.dealer, game.next.pass_.value, game.next.cards_each
(1, 'left', 15)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from types import MappingProxyType

from . import N_, Message, Nn_, RulesError
from .players import name_problem

MAX_END_VALUE = 10_000
# a deal in which a player took this many raw points or more counts as "heavy" in the statistics
HEAVY_DEAL = 30

# the deck never changes between rule sets; only what its cards are worth does
DECK_SIZE = 60
BLACK_SPIES = 6  # the black 7 and five extra black 7s
LOW_BLACKS = 6  # black 1 to 6
HIGH_BLACKS = (8, 9, 10, 11)
BLACK_SPY_RANK = 7
COLOURED_SPIES = 4
BLACK_CARDS = BLACK_SPIES + LOW_BLACKS + len(HIGH_BLACKS)
PASSED_CARDS = 3  # each player passes three cards every deal
SHOOTER_SCORE = 0  # a shooter scores nothing; everyone else scores the deal total
# more digits than any deal's points could need: such a number is refused unread, so no
# message has to print it (number formatting gives up past 25 digits)
MAX_SCORE_DIGITS = 9


class Pass(StrEnum):
    LEFT = "left"
    RIGHT = "right"
    ACROSS = "across"

    def receiver(self, seat: int, players: int) -> int:
        """The seat that ``seat`` passes its three cards to."""
        step = {Pass.LEFT: 1, Pass.RIGHT: -1, Pass.ACROSS: 2}[self]
        return (seat + step) % players


class FirstLead(StrEnum):
    RED_ONE = "red-one"
    DEALER_LEFT = "dealer-left"
    DEALER_RIGHT = "dealer-right"


class Preset(StrEnum):
    STANDARD = "standard"
    CLASSIC = "classic"


def _frozen(mapping: Mapping) -> Mapping:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True, eq=False)
class RuleSet:
    """Everything a table agrees on before the first deal."""

    preset: Preset
    low_black_points: int
    black_spy_points: int
    high_black_points: Mapping[int, int]
    coloured_spy_points: int
    pass_cycles: Mapping[int, tuple[Pass, ...]]
    end_values: Mapping[int, int]
    first_lead: FirstLead
    shoot_rule: bool
    custom_end_value: int | None = None

    # the figures below are read for every seat of every deal of each replay: worked out
    # once per rule set (frozen, so they never change), not at every reading
    @cached_property
    def player_counts(self) -> tuple[int, ...]:
        return tuple(sorted(self.end_values))

    @property
    def min_players(self) -> int:
        return self.player_counts[0]

    @property
    def max_players(self) -> int:
        return self.player_counts[-1]

    @cached_property
    def black_points(self) -> int:
        """What all 16 black cards are worth together."""
        return LOW_BLACKS * self.low_black_points + BLACK_SPIES * self.black_spy_points + sum(self.high_black_points.values())

    @cached_property
    def deal_total(self) -> int:
        """What every deal adds up to across the table."""
        return self.black_points + COLOURED_SPIES * self.coloured_spy_points

    @cached_property
    def min_raw(self) -> int:
        return COLOURED_SPIES * min(0, self.coloured_spy_points)

    @cached_property
    def max_raw(self) -> int:
        return self.black_points + COLOURED_SPIES * max(0, self.coloured_spy_points)

    @property
    def negative_scores(self) -> bool:
        """Whether a player can score below zero in a deal (so the form offers a minus)."""
        return self.min_raw < 0

    @property
    def card_values(self) -> Mapping[str, int]:
        """What one card of each kind a by-cards entry counts is worth, by field name.

        A kind worth nothing is not counted, so not asked for (coloured Spies in classic).
        """
        worth = {
            "black_spies": self.black_spy_points,
            "low_blacks": self.low_black_points,
            "coloured_spies": self.coloured_spy_points,
        }
        return {key: points for key, points in worth.items() if points != 0}

    @property
    def card_counts(self) -> tuple[tuple[str, int, str], ...]:
        """The counts a by-cards entry asks for: (field name, most in the deck, label)."""
        return tuple(count for count in CARD_COUNTS if count[0] in self.card_values)

    @property
    def shoot_threshold(self) -> int:
        """The lowest raw score of a player who took all 16 black cards."""
        return self.black_points + COLOURED_SPIES * min(0, self.coloured_spy_points)

    def end_value(self, players: int) -> int:
        if self.custom_end_value is not None:
            return self.custom_end_value
        return self.end_values[players]

    def cards_each(self, players: int) -> int:
        return DECK_SIZE // players

    def pass_for(self, players: int, deal_number: int) -> Pass:
        cycle = self.pass_cycles[players]
        return cycle[(deal_number - 1) % len(cycle)]

    def first_leader(self, players: int, dealer: int) -> int | None:
        """The seat that leads the first trick, or None for "whoever holds the Red 1"."""
        if self.first_lead is FirstLead.DEALER_LEFT:
            return (dealer + 1) % players
        if self.first_lead is FirstLead.DEALER_RIGHT:
            return (dealer - 1) % players
        return None

    def pass_groups(self) -> tuple[tuple[tuple[Pass, ...], tuple[int, ...]], ...]:
        """Each distinct pass cycle with the player counts that use it."""
        groups: dict[tuple[Pass, ...], list[int]] = {}
        for players in self.player_counts:
            groups.setdefault(self.pass_cycles[players], []).append(players)
        return tuple((cycle, tuple(counts)) for cycle, counts in groups.items())

    def with_house_rules(
        self,
        end_value: int | None = None,
        shoot_rule: bool | None = None,
        first_lead: FirstLead | None = None,
    ) -> RuleSet:
        """This rule set with the table's own changes; None keeps the preset's."""
        return replace(
            self,
            custom_end_value=end_value,
            shoot_rule=self.shoot_rule if shoot_rule is None else shoot_rule,
            first_lead=self.first_lead if first_lead is None else first_lead,
        )

    def house_rules(self) -> frozenset[str]:
        """What the table changed from its preset, by the names ``with_house_rules`` takes.

        A house rule that repeats the preset changes nothing, so it is none (a RuleSet is
        compared by identity, so ``!=`` cannot say this).

        >>> sorted(CLASSIC.with_house_rules(end_value=50, shoot_rule=False).house_rules())
        ['end_value']
        >>> STANDARD.with_house_rules(end_value=150).house_rules()  # 150 is the 4-player end only
        frozenset({'end_value'})
        """
        preset = PRESETS[self.preset]
        changed = set()
        if self.custom_end_value is not None and set(preset.end_values.values()) != {self.custom_end_value}:
            changed.add("end_value")
        if self.shoot_rule != preset.shoot_rule:
            changed.add("shoot_rule")
        if self.first_lead != preset.first_lead:
            changed.add("first_lead")
        return frozenset(changed)


STANDARD = RuleSet(
    preset=Preset.STANDARD,
    low_black_points=1,
    black_spy_points=10,
    high_black_points=_frozen({8: 2, 9: 3, 10: 4, 11: 5}),
    coloured_spy_points=-5,
    pass_cycles=_frozen(
        {
            3: (Pass.LEFT, Pass.RIGHT),
            4: (Pass.LEFT, Pass.RIGHT, Pass.ACROSS),
            5: (Pass.LEFT, Pass.RIGHT),
            6: (Pass.LEFT, Pass.RIGHT),
        }
    ),
    end_values=_frozen({3: 200, 4: 150, 5: 120, 6: 100}),
    first_lead=FirstLead.RED_ONE,
    shoot_rule=True,
)

CLASSIC = RuleSet(
    preset=Preset.CLASSIC,
    low_black_points=1,
    black_spy_points=10,
    high_black_points=_frozen({8: 2, 9: 3, 10: 4, 11: 5}),
    coloured_spy_points=0,
    pass_cycles=_frozen({n: (Pass.LEFT,) for n in (3, 4, 5, 6)}),
    end_values=_frozen({n: 200 for n in (3, 4, 5, 6)}),
    first_lead=FirstLead.DEALER_LEFT,
    shoot_rule=False,
)

PRESETS: Mapping[Preset, RuleSet] = _frozen({Preset.STANDARD: STANDARD, Preset.CLASSIC: CLASSIC})
# the rule set a game has when nobody picks one (and a game stored before presets had)
DEFAULT_PRESET = Preset.STANDARD


# one RuleSet per combination a table can choose, made once: a rule set is compared by
# identity, so the same game's rules are the same object at every replay, and what the
# replay keeps (below) is found again
@lru_cache(maxsize=256, typed=True)
def rule_set(
    preset: str,
    end_value: int | None = None,
    shoot_rule: bool | None = None,
    first_lead: str | None = None,
) -> RuleSet:
    """The preset named ``preset`` with the table's house rules applied.

    >>> rule_set("standard", end_value=80) is rule_set("standard", end_value=80)
    True
    """
    errors = {}
    try:
        base = PRESETS[Preset(preset)]
    except ValueError:
        errors["preset"] = N_("Unknown rule set %(preset)s: choose standard or classic.", preset=repr(preset)[:40])
        base = STANDARD
    if end_value is not None and not 1 <= end_value <= MAX_END_VALUE:
        errors["end_value"] = N_("The end value must be between 1 and %(most)s.", most=MAX_END_VALUE)
    lead = None
    if first_lead is not None:
        try:
            lead = FirstLead(first_lead)
        except ValueError:
            errors["first_lead"] = N_("Unknown first lead %(lead)s.", lead=repr(first_lead)[:40])
    if errors:
        raise RulesError.of(errors)
    return base.with_house_rules(end_value=end_value, shoot_rule=shoot_rule, first_lead=lead)


def parse_end_value(text: str | None) -> int | None:
    """A house-rule end value typed by the table; blank means the preset's."""
    text = (text or "").strip()
    if not text:
        return None
    try:
        value = int(text)
    except ValueError:
        raise RulesError.about("end_value", N_("The end value must be a whole number.")) from None
    if not 1 <= value <= MAX_END_VALUE:
        raise RulesError.about("end_value", N_("The end value must be between 1 and %(most)s.", most=MAX_END_VALUE))
    return value


# --- seating -------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """Who sits where, who deals first, and the rules they play."""

    rules: RuleSet
    players: tuple[str, ...]
    first_dealer: int

    @property
    def size(self) -> int:
        return len(self.players)

    def seat_of(self, name: str) -> int:
        return self.players.index(name)

    def left_of(self, seat: int) -> int:
        """The seat on this one's left (play goes clockwise): the dealer deals to it first."""
        return (seat + 1) % self.size


def new_setup(
    rules: RuleSet,
    names: Sequence[str],
    first_dealer: int | None,
    rng: random.Random | None = None,
) -> Setup:
    """Seat the named players in the order given, blank rows left out.

    ``first_dealer`` is the row (in ``names``) of whoever won the draw, or None for
    the companion to draw: ties are redrawn until one is highest, so a uniform pick
    of one player is the same thing.

    >>> new_setup(STANDARD, [" Ana ", "", "Ben", "Cy"], first_dealer=2).players
    ('Ana', 'Ben', 'Cy')
    >>> new_setup(STANDARD, ["Ana", "ana", "Cy"], first_dealer=0)
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: Two players are called ana.
    """
    errors: dict[str, str] = {}
    seated: list[str] = []
    rows: dict[int, int] = {}
    seen: dict[str, int] = {}
    for row, raw in enumerate(names):
        name = " ".join(raw.split())
        if not name:
            continue
        problem = name_problem(name)
        if problem is not None:
            errors[f"player-{row}"] = problem
        elif name.casefold() in seen:
            errors[f"player-{row}"] = N_("Two players are called %(name)s.", name=name)
        seen[name.casefold()] = row
        rows[row] = len(seated)
        seated.append(name)
    if not errors and not rules.min_players <= len(seated) <= rules.max_players:
        errors["players"] = Nn_(
            "Black Spy is for %(least)s to %(most)s players; %(num)s is named.",
            "Black Spy is for %(least)s to %(most)s players; %(num)s are named.",
            len(seated),
            least=rules.min_players,
            most=rules.max_players,
        )
    if first_dealer is not None and first_dealer not in rows:
        errors["first_dealer"] = N_("The first dealer must be one of the named players.")
    if errors:
        raise RulesError.of(errors)
    dealer = draw_first_dealer(len(seated), rng) if first_dealer is None else rows[first_dealer]
    return Setup(rules=rules, players=tuple(seated), first_dealer=dealer)


# --- what each deal is worth ---------------------------------------------------------


@dataclass(frozen=True)
class Cards:
    """The scoring cards one player took in a deal."""

    black_spies: int = 0
    low_blacks: int = 0
    high_blacks: frozenset[int] = frozenset()
    coloured_spies: int = 0

    @property
    def black_cards(self) -> int:
        return sum(getattr(self, key) for key in BLACK_COUNTS) + len(self.high_blacks)

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
            errors[f"points-{seat}"] = _too_long(rules, players[seat])
        elif not rules.min_raw <= points <= rules.max_raw:
            errors[f"points-{seat}"] = _impossible_points(rules, players[seat], points)
    if errors:
        raise RulesError.of(errors)
    total = sum(raw)
    if total != rules.deal_total:
        shooter = _shoot_typed_as_scores(rules, raw)
        if shooter is not None:
            raise RulesError.about("total", _how_to_enter_a_shoot(rules, players, shooter))
        raise RulesError.about("total", _wrong_sum(rules, total))


# the sentences of the deal checks, one function each: the checks say them, and
# :func:`deal_checks` hands them to a page with slots for what only the page knows


def _impossible_points(rules: RuleSet, name: str, points: int | str) -> Message:
    return N_(
        "%(name)s: %(points)s is not possible; a deal gives between %(least)s and %(most)s.",
        name=name,
        points=points,
        least=rules.min_raw,
        most=rules.max_raw,
    )


def _wrong_sum(rules: RuleSet, total: int | str) -> Message:
    return N_(
        "The points add up to %(total)s, not %(deal_total)s: check each player's count.",
        total=total,
        deal_total=rules.deal_total,
    )


def _points_missing(name: str) -> Message:
    return N_("Enter %(name)s's points (0 if none).", name=name)


def _not_whole(name: str, text: str) -> Message:
    return N_("%(name)s: %(text)s is not a whole number.", name=name, text=text)


def _too_long(rules: RuleSet, name: str) -> Message:
    return N_(
        "%(name)s: that number is too long to be a deal's points; a deal gives between %(least)s and %(most)s.",
        name=name,
        least=rules.min_raw,
        most=rules.max_raw,
    )


def _shoot_typed_as_scores(rules: RuleSet, raw: Sequence[int]) -> int | None:
    """The seat whose shoot these are the scores of (0 there, the deal total everywhere else)."""
    if not rules.shoot_rule or len(raw) < 2:
        return None
    for seat in range(len(raw)):
        if tuple(raw) == _shoot_scores(rules, len(raw), seat):
            return seat
    return None


def _how_to_enter_a_shoot(rules: RuleSet, players: Sequence[str], shooter: int) -> str:
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


def parse_points(rules: RuleSet, players: Sequence[str], texts: Sequence[str | None]) -> tuple[int, ...]:
    """Read one typed score per player and check them as a deal.

    A typographic minus (as some phone keyboards type it) counts as a minus.
    """
    if len(texts) != len(players):
        raise RulesError(N_("A deal needs points for all %(num)s players.", num=len(players)))
    errors = {}
    raw = []
    for seat, text in enumerate(texts):
        cleaned = (text or "").strip().replace("\u2212", "-")
        if not cleaned:
            errors[f"points-{seat}"] = _points_missing(players[seat])
            continue
        if len(cleaned.lstrip("+-")) > MAX_SCORE_DIGITS and cleaned.lstrip("+-").isdecimal():
            errors[f"points-{seat}"] = _too_long(rules, players[seat])
            continue
        try:
            raw.append(int(cleaned))
        except ValueError:
            errors[f"points-{seat}"] = _not_whole(players[seat], repr((text or "").strip()[:20]))
    if errors:
        raise RulesError.of(errors)
    check_points(rules, players, raw)
    return tuple(raw)


def shoot_candidates(rules: RuleSet, raw: Sequence[int]) -> tuple[int, ...]:
    """Seats whose raw score is high enough that they may have taken all 16 black cards.

    A high score is not proof: 75 is "all blacks and one coloured Spy" or "all blacks
    but the black 11", so the table must be asked.
    """
    if not rules.shoot_rule:
        return ()
    return tuple(seat for seat, points in enumerate(raw) if points >= rules.shoot_threshold)


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
    taken_spies = _coloured_spies_in(raw[shooter] - rules.black_points, spy)
    if taken_spies is None or not 0 <= taken_spies <= COLOURED_SPIES:
        message = N_(
            "%(name)s cannot have taken all %(blacks)s black cards with %(points)s: that is "
            "%(black_points)s plus %(spy)s per coloured Spy.",
            name=name,
            blacks=BLACK_CARDS,
            points=raw[shooter],
            black_points=rules.black_points,
            spy=spy,
        )
        raise RulesError.about("shooter", message)
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


def _coloured_spies_in(points: int, spy_points: int) -> int | None:
    """How many coloured Spies make exactly ``points``, or None if none do."""
    if spy_points == 0:
        return 0 if points == 0 else None
    count, remainder = divmod(points, spy_points)
    return count if remainder == 0 else None


# --- counting cards ------------------------------------------------------------------

CARD_COUNTS = (
    ("black_spies", BLACK_SPIES, N_("Black Spies")),
    ("low_blacks", LOW_BLACKS, N_("black 1–6")),
    ("coloured_spies", COLOURED_SPIES, N_("coloured Spies")),
)
# the counted kinds that are black cards: with every high black, all of them make a shoot
BLACK_COUNTS = ("black_spies", "low_blacks")


def parse_cards(
    players: Sequence[str],
    form: Mapping[str, str],
    rest: int | None,
    rules: RuleSet = STANDARD,
) -> tuple[Cards, ...]:
    """Read a by-cards entry: counts per player and who took each high black.

    Fields are ``black_spies-N``, ``low_blacks-N``, ``coloured_spies-N`` (blank is 0)
    and ``high-8`` … ``high-11`` (a seat number). The ``rest`` seat's counts are not
    read: that player gets whatever the others did not take, high blacks included.
    Only the counts ``rules`` score are read; a kind worth nothing is 0 for everyone.
    """
    errors: dict[str, str] = {}
    counts: list[dict[str, int]] = []
    asked = rules.card_counts
    others = [seat for seat in range(len(players)) if seat != rest]
    if asked:
        # a row left blank is a row missed, not a player who took nothing: blank, its
        # player would count 0 and the rest would get their cards (an untouched form, every
        # card: a shoot nobody counted). A table types a player's zeros, as it gives a 0 by
        # points; a high black taken is a count too
        for seat in others:
            typed = any((form.get(f"{key}-{seat}") or "").strip() for key, _, _ in asked)
            if not typed and not any((form.get(f"high-{card}") or "").strip() == str(seat) for card in HIGH_BLACKS):
                errors[f"{asked[0][0]}-{seat}"] = _row_blank(players[seat])
    elif rest is not None and others and not any((form.get(f"high-{card}") or "").strip() for card in HIGH_BLACKS):
        # only the high blacks are scored: an untouched form would give the rest all of them
        raise RulesError.about(f"high-{HIGH_BLACKS[0]}", _nothing_counted(players[others[0]]))
    for seat, name in enumerate(players):
        row = {key: 0 for key, _, _ in CARD_COUNTS}
        for key, most, label in asked:
            if seat == rest:
                row[key] = 0
                continue
            text = (form.get(f"{key}-{seat}") or "").strip()
            try:
                value = int(text) if text else 0
            except ValueError:
                errors[f"{key}-{seat}"] = _count_not_a_number(name, label, most)
                continue
            if not 0 <= value <= most:
                errors[f"{key}-{seat}"] = _count_out_of_range(name, label, most)
            row[key] = value
        counts.append(row)
    high: dict[int, set[int]] = {seat: set() for seat in range(len(players))}
    for card in HIGH_BLACKS:
        text = (form.get(f"high-{card}") or "").strip()
        if not text and rest is not None and 0 <= rest < len(players):
            high[rest].add(card)  # nobody else took it, so the rest did
            continue
        if not text:
            errors[f"high-{card}"] = _high_untaken(card)
            continue
        try:
            seat = int(text)
        except ValueError:
            seat = -1
        if seat not in high:
            errors[f"high-{card}"] = N_("Who took the black %(card)s? Pick a player.", card=card)
            continue
        high[seat].add(card)
    if rest is not None and not 0 <= rest < len(players):
        errors["rest"] = N_("The player who gets the rest must be one of the players.")
    if errors:
        raise RulesError.of(errors)
    if rest is not None:
        for key, most, label in asked:
            taken = sum(row[key] for row in counts)
            if taken > most:
                raise RulesError.about(f"{key}-total", _others_took(taken, label, most))
            counts[rest][key] = most - taken
    cards = tuple(
        Cards(
            black_spies=row["black_spies"],
            low_blacks=row["low_blacks"],
            high_blacks=frozenset(high[seat]),
            coloured_spies=row["coloured_spies"],
        )
        for seat, row in enumerate(counts)
    )
    return cards


def check_cards(rules: RuleSet, players: Sequence[str], cards: Sequence[Cards]) -> None:
    """Refuse counts that do not add up to the deck."""
    if len(cards) != len(players):
        raise RulesError(N_("A deal needs cards for all %(num)s players.", num=len(players)))
    errors = {}
    counted = {key for key, _, _ in rules.card_counts}
    for key, most, label in CARD_COUNTS:
        for seat, taken in enumerate(cards):
            if not 0 <= getattr(taken, key) <= most:
                errors[f"{key}-{seat}"] = _count_out_of_range(players[seat], label, most)
        total = sum(getattr(taken, key) for taken in cards)
        # a kind the rules do not score may be left uncounted (all 0), as the form leaves it
        allowed = (most,) if key in counted else (0, most)
        if total not in allowed and f"{key}-total" not in errors:
            errors[f"{key}-total"] = _deck_count(label, most, total)
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


def _count_not_a_number(name: str, label: str, most: int) -> Message:
    return N_("%(name)s: %(cards)s must be a number from 0 to %(most)s.", name=name, cards=label, most=most)


def _count_out_of_range(name: str, label: str, most: int) -> Message:
    return N_("%(name)s: %(cards)s must be from 0 to %(most)s.", name=name, cards=label, most=most)


def _row_blank(name: str) -> Message:
    return N_("Enter the cards %(name)s took (0 if none).", name=name)


def _nothing_counted(name: str) -> Message:
    return N_("Nothing is counted yet: enter the cards %(name)s took (0 if none).", name=name)


def _high_untaken(card: int) -> Message:
    return N_("Who took the black %(card)s?", card=card)


def _others_took(taken: int | str, label: str, most: int) -> Message:
    return N_("The others took %(taken)s %(cards)s; the deck has only %(most)s.", taken=taken, cards=label, most=most)


def _deck_count(label: str, most: int, total: int | str) -> Message:
    return N_("The deck has %(most)s %(cards)s; these counts add up to %(total)s.", most=most, cards=label, total=total)


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


@lru_cache(maxsize=64)
def _replay(setup: Setup, entries: tuple[DealEntry, ...]) -> GameState:
    rules = setup.rules
    end_value = rules.end_value(setup.size)
    totals = (0,) * setup.size
    played: list[PlayedDeal] = []
    finished = False
    for number, entry in enumerate(entries, start=1):
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


def draw_first_dealer(players: int, rng: random.Random | None = None) -> int:
    """Draw for the first deal: ties are redrawn, so every seat is equally likely."""
    return (rng or random.SystemRandom()).randrange(players)


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


def deal_checks(rules: RuleSet, players: Sequence[str]) -> dict[str, object]:
    """What a page needs to check a deal as :func:`parse_points`, :func:`check_points` and
    :func:`parse_cards` do, for when it cannot reach the server: the rule set's numbers,
    and each sentence those checks say, with a slot (``{name}``, ``{points}``, ``{text}``,
    ``{total}``, ``{taken}``) for what only the typed numbers tell.

    >>> checks = deal_checks(STANDARD, ("Ana", "Ben", "Cy"))
    >>> checks["deal_total"], checks["least"], checks["most"], checks["shoot_threshold"]
    (60, -20, 80, 60)
    >>> str(checks["say"]["sum"])
    "The points add up to {total}, not 60: check each player's count."
    """
    shoot = rules.shoot_rule and len(players) >= 2
    labels = {key: (most, label) for key, most, label in rules.card_counts}
    return {
        "players": list(players),
        "deal_total": rules.deal_total,
        "least": rules.min_raw,
        "most": rules.max_raw,
        "digits": MAX_SCORE_DIGITS,
        "shoot_threshold": rules.shoot_threshold if shoot else None,
        # a shoot's final scores typed as points: each seat's row, as the table would type it
        "shoot_scores": [list(_shoot_scores(rules, len(players), seat)) for seat in range(len(players))] if shoot else [],
        # in the order the checks go through them: the first refused is the one said
        "counts": [[key, most] for key, (most, _) in labels.items()],
        "high_blacks": list(HIGH_BLACKS),
        "say": {
            "missing": _points_missing("{name}"),
            "not_whole": _not_whole("{name}", "{text}"),
            "too_long": _too_long(rules, "{name}"),
            "impossible": _impossible_points(rules, "{name}", "{points}"),
            "sum": _wrong_sum(rules, "{total}"),
            # said of the seat whose shoot the typed numbers are the scores of
            "as_scores": _how_to_enter_a_shoot(rules, ("{name}",), 0) if shoot else "",
            "count_not_a_number": {key: _count_not_a_number("{name}", label, most) for key, (most, label) in labels.items()},
            "count_out_of_range": {key: _count_out_of_range("{name}", label, most) for key, (most, label) in labels.items()},
            "others_took": {key: _others_took("{taken}", label, most) for key, (most, label) in labels.items()},
            "deck_count": {key: _deck_count(label, most, "{total}") for key, (most, label) in labels.items()},
            "high_untaken": {str(card): _high_untaken(card) for card in HIGH_BLACKS},
            "nothing_counted": _nothing_counted("{name}"),
            "row_blank": _row_blank("{name}"),
        },
    }
