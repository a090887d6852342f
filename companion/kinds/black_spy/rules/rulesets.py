"""Black Spy's rule sets: what the deck's cards are worth, the pass, the lead, the end.

Every number from the rulebook lives in this package (shared/rules/black-spy.md). The
standard rules and the classic rules are two frozen ``RuleSet`` values; a table's house
rules make a third.

>>> STANDARD.deal_total, STANDARD.min_raw, STANDARD.max_raw
(60, -20, 80)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property, lru_cache
from types import MappingProxyType
from typing import Any

from companion.rules import N_, RulesError

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


# what a by-cards entry counts: (field name, most in the deck, label)
CARD_COUNTS = (
    ("black_spies", BLACK_SPIES, N_("Black Spies")),
    ("low_blacks", LOW_BLACKS, N_("black 1–6")),
    ("coloured_spies", COLOURED_SPIES, N_("coloured Spies")),
)
# the counted kinds that are black cards: with every high black, all of them make a shoot
BLACK_COUNTS = ("black_spies", "low_blacks")


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


def _frozen(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
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
