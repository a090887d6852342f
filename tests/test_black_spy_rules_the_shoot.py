"""The shoot: all sixteen black cards score 0 for the shooter and the deal total for the others.

Only a shoot the points can come from is taken, and only where the rule set has the shoot rule on.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import pytest

from companion.kinds.black_spy.rules import CLASSIC, STANDARD, PointsEntry, Setup, replay, rule_set, score_deal, shoot_candidates
from companion.rules import RulesError
from tests.black_spy_rules_helpers import players


@pytest.mark.parametrize(
    "raw",
    [
        (80, -5, -5, -5, -5),  # no coloured Spy with the shooter
        (75, 0, -5, -5, -5),  # one
        (70, -10, 0, 0, 0),  # two
        (65, -5, 0, 0, 0),  # three
        (60, 0, 0, 0, 0),  # all four
    ],
    ids=["0-spies", "1-spy", "2-spies", "3-spies", "4-spies"],
)
def test_taking_all_sixteen_black_cards_scores_zero_for_the_shooter_and_sixty_for_everyone_else(raw):
    score = score_deal(STANDARD, players(5), PointsEntry(raw, shooter=0))
    assert score.shooter == 0
    assert score.raw == raw
    assert score.scores == (0, 60, 60, 60, 60)


def test_the_shooter_can_sit_anywhere():
    score = score_deal(STANDARD, players(4), PointsEntry((-5, 0, 70, -5), shooter=2))
    assert score.scores == (60, 60, 0, 60)


def test_a_shoot_adds_zero_to_the_shooters_total_and_sixty_to_the_others():
    setup = Setup(STANDARD, players(3), 0)
    game = replay(setup, [PointsEntry((20, 20, 20)), PointsEntry((-10, 70, 0), shooter=1)])
    assert game.totals == (80, 20, 80)
    assert game.deals[1].shooter == 1


def test_a_75_shooter_with_three_coloured_spies_among_the_others_is_a_valid_shoot():
    # 75 = all 16 blacks (80) and one coloured Spy; -15 and 0 hold the other three
    score = score_deal(STANDARD, players(3), PointsEntry((75, -15, 0), shooter=0))
    assert score.scores == (0, 60, 60)


def test_a_75_shooter_with_the_other_spies_spread_over_three_players_is_a_valid_shoot():
    score = score_deal(STANDARD, players(4), PointsEntry((75, 0, -5, -10), shooter=0))
    assert score.scores == (0, 60, 60, 60)


@pytest.mark.parametrize(
    "raw, shooter",
    [
        ((72, -2, -10), 0),  # 72 is not 80 less a whole number of coloured Spies
        ((55, 5, 0), 0),  # below 60: the shooter would have held five coloured Spies
        ((70, 5, -15), 0),  # the others hold black points
        ((65, 10, -15), 0),  # black points hidden by coloured Spies
        ((20, 20, 20), 1),  # nowhere near a shoot
    ],
)
def test_a_shoot_that_the_points_cannot_come_from_is_refused(raw, shooter):
    with pytest.raises(RulesError) as caught:
        score_deal(STANDARD, players(len(raw)), PointsEntry(raw, shooter=shooter))
    assert "shooter" in caught.value.errors


def test_a_shoot_is_refused_when_the_others_hold_points_that_are_not_whole_coloured_spies():
    # 75 = 80 less one coloured Spy; Ben's 1 and Cy's -1 can only be black cards,
    # so Ana cannot have taken all 16 black cards: the table must be told, not crash
    with pytest.raises(RulesError) as caught:
        score_deal(STANDARD, players(4), PointsEntry((75, 1, -1, -15), shooter=0))
    assert "shooter" in caught.value.errors


def test_a_shooter_who_is_not_at_the_table_is_refused():
    with pytest.raises(RulesError):
        score_deal(STANDARD, players(3), PointsEntry((80, -20, 0), shooter=3))


@pytest.mark.parametrize("raw", [(80, -20, 0), (75, -15, 0), (60, 0, 0)])
def test_sixty_or_more_without_a_shooter_scores_the_raw_points(raw):
    score = score_deal(STANDARD, players(3), PointsEntry(raw))
    assert score.shooter is None
    assert score.scores == raw


def test_shoot_candidates_are_the_seats_at_sixty_or_more_in_standard_rules():
    assert shoot_candidates(STANDARD, (60, 0, 0)) == (0,)
    assert shoot_candidates(STANDARD, (-10, 80, -10)) == (1,)
    assert shoot_candidates(STANDARD, (59, 1, 0)) == ()
    assert shoot_candidates(STANDARD, (20, 20, 20)) == ()


def test_classic_rules_with_the_shoot_rule_off_never_offer_a_shoot():
    assert CLASSIC.shoot_rule is False
    assert shoot_candidates(CLASSIC, (80, 0, 0)) == ()
    with pytest.raises(RulesError):
        score_deal(CLASSIC, players(3), PointsEntry((80, 0, 0), shooter=0))
    assert score_deal(CLASSIC, players(3), PointsEntry((80, 0, 0))).scores == (80, 0, 0)


def test_standard_rules_with_the_shoot_rule_turned_off_never_offer_a_shoot():
    rules = rule_set("standard", shoot_rule=False)
    assert shoot_candidates(rules, (80, -20, 0)) == ()
    with pytest.raises(RulesError):
        score_deal(rules, players(3), PointsEntry((80, -20, 0), shooter=0))


def test_classic_rules_with_the_shoot_rule_on_score_zero_for_the_shooter_and_eighty_for_the_others():
    rules = rule_set("classic", shoot_rule=True)
    assert shoot_candidates(rules, (80, 0, 0, 0)) == (0,)
    assert shoot_candidates(rules, (79, 1, 0, 0)) == ()
    score = score_deal(rules, players(4), PointsEntry((0, 80, 0, 0), shooter=1))
    assert score.scores == (80, 0, 80, 80)


def test_classic_shoot_is_refused_when_another_player_holds_black_points():
    rules = rule_set("classic", shoot_rule=True)
    with pytest.raises(RulesError):
        score_deal(rules, players(3), PointsEntry((79, 1, 0), shooter=0))
