"""Deal after deal: who deals, how many cards each, which way the pass goes, who leads.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import pytest

from companion.kinds.black_spy.rules import CLASSIC, STANDARD, Setup, deal_info, replay, rule_set
from tests.black_spy_rules_helpers import CARDS_EACH, CLASSIC_PASSES, STANDARD_PASSES, players


@pytest.mark.parametrize("rules, passes", [(STANDARD, STANDARD_PASSES), (CLASSIC, CLASSIC_PASSES)], ids=["standard", "classic"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_deal_moves_one_seat_left_and_the_pass_follows_the_cycle_in_deals_one_to_seven(rules, passes, n):
    for first in range(n):  # seat 0 and every other first dealer
        setup = Setup(rules, players(n), first)
        for number in range(1, 8):
            info = deal_info(setup, number)
            assert info.number == number
            assert info.dealer == (first + number - 1) % n
            assert info.pass_.value == passes[n][number - 1]


@pytest.mark.parametrize("rules", [STANDARD, CLASSIC], ids=["standard", "classic"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_each_player_is_dealt_sixty_cards_divided_by_the_player_count(rules, n):
    info = deal_info(Setup(rules, players(n), 0), 1)
    assert info.cards_each == CARDS_EACH[n]
    assert info.cards_each * n == 60


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_passing_left_goes_to_the_next_seat_clockwise_and_right_to_the_previous(n):
    setup = Setup(STANDARD, players(n), 0)
    left = deal_info(setup, 1)
    right = deal_info(setup, 2)
    assert left.pass_.value == "left" and right.pass_.value == "right"
    assert set(left.pass_pairs) == {(seat, (seat + 1) % n) for seat in range(n)}
    assert set(right.pass_pairs) == {(seat, (seat - 1) % n) for seat in range(n)}


def test_passing_across_at_four_players_goes_two_seats_away():
    info = deal_info(Setup(STANDARD, players(4), 2), 3)
    assert info.pass_.value == "across"
    assert set(info.pass_pairs) == {(0, 2), (1, 3), (2, 0), (3, 1)}


@pytest.mark.parametrize("rules", [STANDARD, CLASSIC], ids=["standard", "classic"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_every_player_passes_once_and_receives_once_and_never_to_themselves(rules, n):
    setup = Setup(rules, players(n), 1)
    for number in range(1, 8):
        pairs = deal_info(setup, number).pass_pairs
        assert sorted(giver for giver, _ in pairs) == list(range(n))
        assert sorted(receiver for _, receiver in pairs) == list(range(n))
        assert all(giver != receiver for giver, receiver in pairs)


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_in_standard_rules_whoever_holds_the_red_one_leads(n):
    setup = Setup(STANDARD, players(n), n - 1)
    assert all(deal_info(setup, number).leader is None for number in range(1, 8))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_in_classic_rules_the_player_on_the_dealers_left_leads(n):
    setup = Setup(CLASSIC, players(n), n - 1)
    for number in range(1, 8):
        info = deal_info(setup, number)
        assert info.leader == (info.dealer + 1) % n


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_house_rule_can_make_the_dealers_right_lead(n):
    setup = Setup(rule_set("classic", first_lead="dealer-right"), players(n), 0)
    for number in range(1, 8):
        info = deal_info(setup, number)
        assert info.leader == (info.dealer - 1) % n


def test_the_first_deal_is_dealt_by_the_first_dealer_and_the_next_deal_is_known_before_any_entry():
    game = replay(Setup(STANDARD, players(4), 2), [])
    assert game.next is not None
    assert game.next.number == 1
    assert game.next.dealer == 2
    assert game.totals == (0, 0, 0, 0)
    assert not game.finished


@pytest.mark.parametrize("rules", [STANDARD, CLASSIC], ids=["standard", "classic"])
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_pass_cycle_repeats_for_fifty_deals_and_the_deal_goes_round_the_table(rules, n):
    setup = Setup(rules, players(n), n // 2)
    for number in range(1, 51):
        info = deal_info(setup, number)
        if rules is CLASSIC:
            expected = "left"
        elif n == 4:
            expected = ("left", "right", "across")[(number - 1) % 3]
        else:
            expected = ("left", "right")[(number - 1) % 2]
        assert info.pass_.value == expected
        following = deal_info(setup, number + 1)
        assert following.dealer == (info.dealer + 1) % n
    # after n deals everyone has dealt once and the deal is back with the first dealer
    dealers = [deal_info(setup, number).dealer for number in range(1, n + 1)]
    assert sorted(dealers) == list(range(n))
    assert deal_info(setup, n + 1).dealer == setup.first_dealer
