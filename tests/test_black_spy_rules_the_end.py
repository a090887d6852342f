"""The end of the game: the deal that reaches the end value ends it, and the lowest total wins.

The end value by player count and rule set, or the house's own; a shared win; no deal after the end.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import pytest

from companion.kinds.black_spy.rules import CLASSIC, STANDARD, GameOverError, PointsEntry, Setup, record, replay, rule_set
from tests.black_spy_rules_helpers import CLASSIC_DEAL_TOTAL, CLASSIC_END, STANDARD_DEAL_TOTAL, STANDARD_END, players


def spread(n: int, first: int, total: int) -> tuple[int, ...]:
    """Raw points where seat 0 takes ``first`` and seat 1 the rest of ``total``."""
    return (first, total - first) + (0,) * (n - 2)


# a per-deal score for seat 0 that divides the end value, and how many deals reach it
EXACT_STEPS = {3: (50, 4), 4: (50, 3), 5: (40, 3), 6: (50, 2)}


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_standard_game_ends_after_the_deal_that_reaches_the_end_value_for_the_player_count(n):
    step, deals = EXACT_STEPS[n]
    assert step * deals == STANDARD_END[n]
    setup = Setup(STANDARD, players(n), 0)
    entries = [PointsEntry(spread(n, step, STANDARD_DEAL_TOTAL))] * deals

    before = replay(setup, entries[:-1])
    assert before.totals[0] == STANDARD_END[n] - step
    assert not before.finished
    assert before.next is not None and before.next.number == deals

    after = replay(setup, entries)
    assert after.totals[0] == STANDARD_END[n]
    assert after.end_value == STANDARD_END[n]
    assert after.finished
    assert after.next is None


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_one_point_short_of_the_end_value_the_game_goes_on(n):
    step, deals = EXACT_STEPS[n]
    setup = Setup(STANDARD, players(n), 0)
    entries = [PointsEntry(spread(n, step, STANDARD_DEAL_TOTAL))] * (deals - 1)
    entries.append(PointsEntry(spread(n, step - 1, STANDARD_DEAL_TOTAL)))
    game = replay(setup, entries)
    assert game.totals[0] == STANDARD_END[n] - 1
    assert not game.finished
    assert game.next is not None and game.next.number == deals + 1


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_classic_game_ends_at_two_hundred_whatever_the_player_count(n):
    setup = Setup(CLASSIC, players(n), 0)
    entries = [PointsEntry(spread(n, 50, CLASSIC_DEAL_TOTAL))] * 4
    assert not replay(setup, entries[:3]).finished
    game = replay(setup, entries)
    assert game.end_value == CLASSIC_END
    assert game.totals[0] == CLASSIC_END
    assert game.finished and game.next is None


def test_passing_the_end_value_ends_the_game_as_well_as_reaching_it():
    setup = Setup(STANDARD, players(3), 0)
    entries = [PointsEntry((70, -10, 0))] * 3  # 210 after three deals, 140 after two
    assert not replay(setup, entries[:2]).finished
    game = replay(setup, entries)
    assert game.totals[0] == 210
    assert game.finished and game.next is None


def test_a_custom_end_value_overrides_the_presets():
    rules = rule_set("standard", end_value=50)
    setup = Setup(rules, players(4), 0)
    assert not replay(setup, [PointsEntry((49, 11, 0, 0))]).finished
    game = replay(setup, [PointsEntry((50, 10, 0, 0))])
    assert game.end_value == 50
    assert game.finished


def test_a_custom_end_value_above_the_preset_keeps_the_game_going():
    rules = rule_set("classic", end_value=300)
    setup = Setup(rules, players(3), 0)
    game = replay(setup, [PointsEntry((50, 30, 0))] * 4)  # 200: would end a classic game
    assert game.totals[0] == 200
    assert not game.finished


def test_several_players_crossing_the_end_value_in_the_same_deal_still_ends_it_and_lowest_wins():
    setup = Setup(STANDARD, players(3), 0)
    entries = [PointsEntry((30, 30, 0))] * 6 + [PointsEntry((25, 35, 0))]
    game = replay(setup, entries)
    assert game.totals == (205, 215, 0)
    assert game.finished
    assert game.winners == (2,)


def test_the_lowest_total_wins():
    setup = Setup(STANDARD, players(4), 0)
    entries = [PointsEntry((50, 5, 0, 5))] * 3  # 150, 15, 0, 15
    game = replay(setup, entries)
    assert game.finished
    assert game.winners == (2,)
    assert game.standings[0].seat == 2 and game.standings[0].rank == 1


def test_players_tied_for_the_lowest_total_share_the_win():
    setup = Setup(STANDARD, players(4), 0)
    entries = [PointsEntry((50, 10, 0, 0))] * 3  # 150, 30, 0, 0
    game = replay(setup, entries)
    assert game.finished
    assert game.winners == (2, 3)
    assert {standing.seat for standing in game.standings if standing.rank == 1} == {2, 3}


def test_nobody_has_won_while_the_game_goes_on():
    game = replay(Setup(STANDARD, players(3), 0), [PointsEntry((20, 20, 20))])
    assert not game.finished
    assert game.winners == ()


def test_no_deal_can_be_recorded_after_the_game_has_ended():
    setup = Setup(STANDARD, players(6), 0)
    entries = [PointsEntry(spread(6, 50, 60))] * 2  # 100: the end for six players
    assert replay(setup, entries).finished
    with pytest.raises(GameOverError):
        record(setup, entries, PointsEntry((10,) * 6))
    with pytest.raises(GameOverError):
        replay(setup, [*entries, PointsEntry((10,) * 6)])


def test_recording_a_deal_adds_its_scores_to_the_running_totals():
    setup = Setup(STANDARD, players(3), 0)
    game = record(setup, [PointsEntry((20, 30, 10))], PointsEntry((-5, 40, 25)))
    assert game.totals == (15, 70, 35)
    assert [deal.totals for deal in game.deals] == [(20, 30, 10), (15, 70, 35)]
    assert game.next is not None and game.next.number == 3 and game.next.dealer == 2
