"""The Black Spy rules, as the rulebook (shared/rules/black-spy.md) states them.

Pure rules: no Flask, no database. Every expected figure below comes from the
rulebook, not from the implementation.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kinds.black_spy.forms import parse_cards, parse_points
from companion.kinds.black_spy.rules import (
    CLASSIC,
    HIGH_BLACKS,
    STANDARD,
    Cards,
    CardsEntry,
    GameOverError,
    GameState,
    PointsEntry,
    Setup,
    check_cards,
    check_points,
    deal_info,
    edit,
    new_setup,
    record,
    rematch,
    replay,
    rule_set,
    score_deal,
    shoot_candidates,
)
from companion.rules import RulesError

NAMES = ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")


def players(n: int) -> tuple[str, ...]:
    return NAMES[:n]


# --- figures straight from the rulebook ------------------------------------------------

CARDS_EACH = {3: 20, 4: 15, 5: 12, 6: 10}
STANDARD_END = {3: 200, 4: 150, 5: 120, 6: 100}
CLASSIC_END = 200
STANDARD_DEAL_TOTAL = 60
CLASSIC_DEAL_TOTAL = 80

# pass direction of deals 1 to 7
STANDARD_PASSES = {
    3: ("left", "right", "left", "right", "left", "right", "left"),
    4: ("left", "right", "across", "left", "right", "across", "left"),
    5: ("left", "right", "left", "right", "left", "right", "left"),
    6: ("left", "right", "left", "right", "left", "right", "left"),
}
CLASSIC_PASSES = {n: ("left",) * 7 for n in (3, 4, 5, 6)}

# what each card is worth, per rule set: (colour, rank) -> points
COLOURS = ("blue", "yellow", "red", "green")


def card_value(card: tuple[str, int], coloured_spy: int) -> int:
    colour, rank = card
    if colour == "black":
        if rank <= 6:
            return 1
        if rank == 7:
            return 10
        return {8: 2, 9: 3, 10: 4, 11: 5}[rank]
    return coloured_spy if rank == 7 else 0


STANDARD_COLOURED_SPY = -5
CLASSIC_COLOURED_SPY = 0

DECK = [(colour, rank) for colour in COLOURS for rank in range(1, 12)] + [
    ("black", rank) for rank in [*range(1, 12), 7, 7, 7, 7, 7]
]


def all_blacks(coloured_spies: int = 0) -> Cards:
    return Cards(black_spies=6, low_blacks=6, high_blacks=frozenset({8, 9, 10, 11}), coloured_spies=coloured_spies)


# --- the deck itself ---------------------------------------------------------------------


def test_the_deck_has_sixty_cards_sixteen_of_them_black_with_six_black_spies():
    assert len(DECK) == 60
    blacks = [card for card in DECK if card[0] == "black"]
    assert len(blacks) == 16
    assert blacks.count(("black", 7)) == 6
    assert sum(card_value(card, STANDARD_COLOURED_SPY) for card in DECK) == STANDARD_DEAL_TOTAL
    assert sum(card_value(card, CLASSIC_COLOURED_SPY) for card in DECK) == CLASSIC_DEAL_TOTAL


def test_each_preset_knows_its_deal_total():
    assert STANDARD.deal_total == STANDARD_DEAL_TOTAL
    assert CLASSIC.deal_total == CLASSIC_DEAL_TOTAL


# --- 1. seating: dealer, pass, cards, lead -------------------------------------------------


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


# --- 2. the end of the game ---------------------------------------------------------------


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


# --- 3. the shoot ---------------------------------------------------------------------------


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


# --- 4. typed points ------------------------------------------------------------------------


def test_typed_points_that_add_up_to_sixty_are_read_as_numbers():
    assert parse_points(STANDARD, players(3), [" 20 ", "45", "-5"]) == (20, 45, -5)


def test_a_typographic_minus_counts_as_a_minus():
    assert parse_points(STANDARD, players(3), ["\u221210", "50", "20"]) == (-10, 50, 20)


def test_the_extremes_of_a_deal_are_accepted():
    assert parse_points(STANDARD, players(3), ["-20", "80", "0"]) == (-20, 80, 0)
    assert parse_points(CLASSIC, players(3), ["0", "80", "0"]) == (0, 80, 0)


@pytest.mark.parametrize(
    "texts, field",
    [
        (["", "30", "30"], "points-0"),
        (["30", None, "30"], "points-1"),
        (["30", "30", "thirty"], "points-2"),
        (["30", "30", "2.5"], "points-2"),
        (["81", "-1", "-20"], "points-0"),
        (["-21", "81", "0"], "points-0"),
        (["40", "-25", "45"], "points-1"),
        (["20", "20", "21"], "total"),
        (["20", "20", "19"], "total"),
    ],
)
def test_standard_points_are_refused_when_blank_not_a_number_out_of_range_or_not_totalling_sixty(texts, field):
    with pytest.raises(RulesError) as caught:
        parse_points(STANDARD, players(3), texts)
    assert field in caught.value.errors


@pytest.mark.parametrize(
    "texts, field",
    [
        (["-5", "45", "40"], "points-0"),  # coloured Spies are worth nothing: no negatives
        (["81", "0", "-1"], "points-0"),
        (["20", "20", "20"], "total"),  # a classic deal totals 80, not 60
    ],
)
def test_classic_points_run_from_zero_to_eighty_and_total_eighty(texts, field):
    with pytest.raises(RulesError) as caught:
        parse_points(CLASSIC, players(3), texts)
    assert field in caught.value.errors


def test_every_bad_field_is_named_at_once():
    with pytest.raises(RulesError) as caught:
        parse_points(STANDARD, players(4), ["", "x", "20", ""])
    assert {"points-0", "points-1", "points-3"} <= set(caught.value.errors)
    assert "points-2" not in caught.value.errors


# --- 5. counted cards ------------------------------------------------------------------------


def test_the_rest_seat_gets_whatever_the_others_did_not_take():
    form = {
        "black_spies-0": "2",
        "low_blacks-0": "1",
        "coloured_spies-0": "1",
        "black_spies-1": "3",
        "low_blacks-1": "",
        "coloured_spies-1": "2",
        "high-8": "0",
        "high-9": "1",
        "high-10": "2",
        "high-11": "2",
    }
    cards = parse_cards(players(3), form, rest=2)
    assert cards[2] == Cards(black_spies=1, low_blacks=5, high_blacks=frozenset({10, 11}), coloured_spies=1)
    assert cards[0] == Cards(black_spies=2, low_blacks=1, high_blacks=frozenset({8}), coloured_spies=1)
    assert cards[1] == Cards(black_spies=3, low_blacks=0, high_blacks=frozenset({9}), coloured_spies=2)
    check_cards(STANDARD, players(3), cards)
    raw = score_deal(STANDARD, players(3), CardsEntry(cards)).raw
    # 2x10 + 1 + 2 - 5, 3x10 + 3 - 10, 10 + 5 + 4 + 5 - 5
    assert raw == (18, 23, 19)
    assert sum(raw) == STANDARD_DEAL_TOTAL


def test_counts_that_are_more_than_the_deck_holds_are_refused():
    base = {"high-8": "0", "high-9": "0", "high-10": "1", "high-11": "1", "low_blacks-0": "0", "low_blacks-1": "0"}
    with pytest.raises(RulesError):
        parse_cards(players(3), {**base, "black_spies-0": "4", "black_spies-1": "3"}, rest=2)
    with pytest.raises(RulesError):
        parse_cards(players(3), {**base, "coloured_spies-0": "3", "coloured_spies-1": "2"}, rest=2)
    with pytest.raises(RulesError) as caught:
        parse_cards(players(3), {**base, "black_spies-0": "7"}, rest=2)
    assert "black_spies-0" in caught.value.errors


def test_a_high_black_nobody_took_is_refused_when_nobody_gets_the_rest():
    form = {"high-8": "0", "high-9": "0", "high-10": "1", "low_blacks-0": "0", "low_blacks-1": "0", "low_blacks-2": "0"}
    with pytest.raises(RulesError) as caught:
        parse_cards(players(3), form, rest=None)
    assert "high-11" in caught.value.errors


def test_a_high_black_nobody_else_took_goes_to_the_player_who_gets_the_rest():
    form = {"high-8": "0", "high-9": "0", "high-10": "1", "low_blacks-0": "0", "low_blacks-1": "0"}
    cards = parse_cards(players(3), form, rest=2)
    assert cards[2].high_blacks == frozenset({11})
    assert cards[0].high_blacks == frozenset({8, 9})


def test_an_untouched_cards_form_is_refused_not_read_as_the_rest_taking_every_card():
    with pytest.raises(RulesError) as caught:
        parse_cards(players(3), {"black_spies-0": " ", "high-8": ""}, rest=0)
    assert caught.value.errors == {
        "black_spies-1": "Enter the cards Ben took (0 if none).",
        "black_spies-2": "Enter the cards Cy took (0 if none).",
    }
    # a zero typed for each is a count: the rest took everything, which is a shoot the table meant
    cards = parse_cards(players(3), {"black_spies-1": "0", "low_blacks-2": "0"}, rest=0)
    assert cards[0] == Cards(black_spies=6, low_blacks=6, high_blacks=frozenset(HIGH_BLACKS), coloured_spies=4)


def test_a_player_row_left_blank_is_refused_not_read_as_nothing_taken():
    # the table filled Ana and Ben and skipped Cy: blank, Cy's cards would go to the rest
    form = {"black_spies-0": "2", "low_blacks-0": "1", "black_spies-1": "1", "coloured_spies-1": "0"}
    with pytest.raises(RulesError) as caught:
        parse_cards(players(4), form, rest=3)
    assert caught.value.errors == {"black_spies-2": "Enter the cards Cy took (0 if none)."}
    # a black 8-11 tapped for Cy while Cy's boxes are blank is a row half counted: flagged too
    with pytest.raises(RulesError) as caught:
        parse_cards(players(4), {**form, "high-9": "2"}, rest=3)
    assert caught.value.errors == {"black_spies-2": "Enter the cards Cy took (0 if none)."}
    # with a 0 typed beside it, it is Cy's only card
    cards = parse_cards(players(4), {**form, "high-9": "2", "low_blacks-2": "0"}, rest=3)
    assert cards[2] == Cards(black_spies=0, low_blacks=0, high_blacks=frozenset({9}), coloured_spies=0)
    # with nobody for the rest, every row is the table's to fill, and a blank one is refused the same
    with pytest.raises(RulesError) as caught:
        parse_cards(players(3), {"black_spies-0": "6", "black_spies-1": "0"}, rest=None)
    assert caught.value.errors["black_spies-2"] == "Enter the cards Cy took (0 if none)."


def test_a_high_black_given_to_a_seat_that_is_not_at_the_table_is_refused():
    form = {"high-8": "0", "high-9": "0", "high-10": "1", "high-11": "5"}
    with pytest.raises(RulesError) as caught:
        parse_cards(players(3), form, rest=2)
    assert "high-11" in caught.value.errors


def valid_cards() -> list[Cards]:
    return [
        Cards(black_spies=2, low_blacks=2, high_blacks=frozenset({8, 9}), coloured_spies=1),
        Cards(black_spies=2, low_blacks=2, high_blacks=frozenset({10}), coloured_spies=1),
        Cards(black_spies=2, low_blacks=2, high_blacks=frozenset({11}), coloured_spies=2),
    ]


def test_counts_that_match_the_deck_are_accepted():
    check_cards(STANDARD, players(3), valid_cards())


@pytest.mark.parametrize(
    "seat, change, field",
    [
        (0, {"black_spies": 1}, "black_spies-total"),  # 5 Black Spies
        (0, {"black_spies": 3}, "black_spies-total"),  # 7 Black Spies
        (1, {"low_blacks": 1}, "low_blacks-total"),  # 5 black 1-6
        (2, {"coloured_spies": 1}, "coloured_spies-total"),  # 3 coloured Spies
        (2, {"coloured_spies": 3}, "coloured_spies-total"),  # 5 coloured Spies
        (0, {"high_blacks": frozenset({8})}, "high-9"),  # nobody took the black 9
        (1, {"high_blacks": frozenset({9, 10})}, "high-9"),  # two players took the black 9
    ],
)
def test_counts_that_do_not_match_the_deck_are_refused(seat, change, field):
    cards = valid_cards()
    cards[seat] = Cards(**{**cards[seat].__dict__, **change})
    with pytest.raises(RulesError) as caught:
        check_cards(STANDARD, players(3), cards)
    assert field in caught.value.errors


def test_one_player_with_all_sixteen_black_cards_is_a_shoot_in_standard_rules():
    cards = (all_blacks(coloured_spies=1), Cards(coloured_spies=3), Cards())
    score = score_deal(STANDARD, players(3), CardsEntry(cards))
    assert score.raw == (75, -15, 0)
    assert score.shooter == 0
    assert score.scores == (0, 60, 60)


def test_all_sixteen_black_cards_are_no_shoot_in_classic_rules():
    cards = (Cards(coloured_spies=4), all_blacks(), Cards())
    score = score_deal(CLASSIC, players(3), CardsEntry(cards))
    assert score.shooter is None
    assert score.scores == (0, 80, 0)


def test_all_sixteen_black_cards_are_a_shoot_in_classic_rules_with_the_shoot_rule_on():
    cards = (Cards(coloured_spies=4), all_blacks(), Cards(), Cards())
    score = score_deal(rule_set("classic", shoot_rule=True), players(4), CardsEntry(cards))
    assert score.shooter == 1
    assert score.scores == (80, 0, 80, 80)


def test_fifteen_black_cards_are_no_shoot():
    cards = (
        Cards(black_spies=6, low_blacks=6, high_blacks=frozenset({8, 9, 10})),
        Cards(high_blacks=frozenset({11}), coloured_spies=4),
        Cards(),
    )
    score = score_deal(STANDARD, players(3), CardsEntry(cards))
    assert score.shooter is None
    assert score.scores == (75, -15, 0)


# --- 6. seating the players ------------------------------------------------------------------


def test_names_are_trimmed_and_blank_rows_left_out():
    setup = new_setup(STANDARD, ["  Ana ", "", "   ", "Ben", "Cy\t"], first_dealer=0)
    assert setup.players == ("Ana", "Ben", "Cy")


def test_the_first_dealer_is_the_row_that_won_the_draw_even_after_blank_rows():
    setup = new_setup(STANDARD, ["Ana", "", "Ben", "Cy"], first_dealer=3)
    assert setup.players[setup.first_dealer] == "Cy"


def test_two_players_with_the_same_name_in_any_case_are_refused():
    with pytest.raises(RulesError):
        new_setup(STANDARD, ["Ana", "Ben", " ANA "], first_dealer=0)


def test_a_forty_character_name_is_allowed_and_a_longer_one_refused():
    new_setup(STANDARD, ["A" * 40, "Ben", "Cy"], first_dealer=0)
    with pytest.raises(RulesError):
        new_setup(STANDARD, ["A" * 41, "Ben", "Cy"], first_dealer=0)


@pytest.mark.parametrize("count", [0, 1, 2, 7, 8])
def test_black_spy_is_for_three_to_six_players(count):
    with pytest.raises(RulesError):
        new_setup(STANDARD, [f"Player {i}" for i in range(count)], first_dealer=None, rng=random.Random(0))


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_three_to_six_players_may_sit_down(count):
    setup = new_setup(CLASSIC, list(NAMES[:count]), first_dealer=count - 1)
    assert setup.size == count
    assert setup.first_dealer == count - 1


def test_two_named_players_and_blank_rows_are_still_too_few():
    with pytest.raises(RulesError):
        new_setup(STANDARD, ["Ana", "", "Ben", ""], first_dealer=0)


@pytest.mark.parametrize("row", [1, 9])
def test_the_first_dealer_must_be_a_named_row(row):
    with pytest.raises(RulesError) as caught:
        new_setup(STANDARD, ["Ana", "", "Ben", "Cy"], first_dealer=row)
    assert "first_dealer" in caught.value.errors


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_without_a_first_dealer_the_companion_draws_one_and_any_seat_can_win(n):
    picked = set()
    for seed in range(300):
        setup = new_setup(STANDARD, list(NAMES[:n]), first_dealer=None, rng=random.Random(seed))
        assert 0 <= setup.first_dealer < n
        picked.add(setup.first_dealer)
    assert picked == set(range(n))


# --- 7. editing a past deal --------------------------------------------------------------------


def test_changing_deal_two_of_four_recomputes_every_later_total():
    setup = Setup(STANDARD, players(4), 0)
    entries = [PointsEntry((15, 15, 15, 15))] * 4
    game = edit(setup, entries, 1, PointsEntry((40, -5, 0, 25)))
    assert [deal.totals for deal in game.deals] == [
        (15, 15, 15, 15),
        (55, 10, 15, 40),
        (70, 25, 30, 55),
        (85, 40, 45, 70),
    ]
    assert game.totals == (85, 40, 45, 70)
    assert entries[1] == PointsEntry((15, 15, 15, 15))  # the list given is not changed


def test_an_edit_can_turn_a_deal_into_a_shoot():
    setup = Setup(STANDARD, players(3), 0)
    entries = [PointsEntry((20, 20, 20)), PointsEntry((65, -5, 0)), PointsEntry((20, 20, 20))]
    game = edit(setup, entries, 1, PointsEntry((65, -5, 0), shooter=0))
    assert game.totals == (40, 100, 100)


def test_an_edit_that_would_end_the_game_before_its_last_deal_is_refused():
    setup = Setup(STANDARD, players(6), 0)  # ends at 100
    entries = [PointsEntry((20, 10, 10, 10, 5, 5))] * 4  # seat 0 at 80
    assert not replay(setup, entries).finished
    with pytest.raises(RulesError):
        edit(setup, entries, 1, PointsEntry((80, -20, 0, 0, 0, 0)))  # seat 0 at 100 after deal 2


def test_an_edit_that_ends_the_game_on_its_last_deal_is_allowed():
    setup = Setup(STANDARD, players(6), 0)
    entries = [PointsEntry((20, 10, 10, 10, 5, 5))] * 4
    game = edit(setup, entries, 3, PointsEntry((40, 0, 0, 10, 5, 5)))
    assert game.totals[0] == 100
    assert game.finished


def test_an_edit_with_an_invalid_deal_is_refused():
    setup = Setup(STANDARD, players(3), 0)
    entries = [PointsEntry((20, 20, 20))] * 2
    with pytest.raises(RulesError):
        edit(setup, entries, 0, PointsEntry((20, 20, 21)))
    with pytest.raises(RulesError):
        edit(setup, entries, 2, PointsEntry((20, 20, 20)))  # there is no deal 3


# --- 8. any way the cards can fall ---------------------------------------------------------------


def count_cards(owners: list[int], n: int) -> tuple[Cards, ...]:
    held: list[dict] = [{"black_spies": 0, "low_blacks": 0, "high_blacks": set(), "coloured_spies": 0} for _ in range(n)]
    for (colour, rank), seat in zip(DECK, owners, strict=True):
        mine = held[seat]
        if colour == "black":
            if rank == 7:
                mine["black_spies"] += 1
            elif rank <= 6:
                mine["low_blacks"] += 1
            else:
                mine["high_blacks"].add(rank)
        elif rank == 7:
            mine["coloured_spies"] += 1
    return tuple(
        Cards(
            black_spies=h["black_spies"],
            low_blacks=h["low_blacks"],
            high_blacks=frozenset(h["high_blacks"]),
            coloured_spies=h["coloured_spies"],
        )
        for h in held
    )


@st.composite
def dealt_decks(draw):
    n = draw(st.integers(min_value=3, max_value=6))
    owners = draw(st.lists(st.integers(min_value=0, max_value=n - 1), min_size=60, max_size=60))
    # often enough, one player takes every black card
    shooter = draw(st.none() | st.integers(min_value=0, max_value=n - 1))
    if shooter is not None:
        owners = [shooter if colour == "black" else seat for (colour, _), seat in zip(DECK, owners, strict=True)]
    return n, owners


@settings(max_examples=200, deadline=None)
@given(dealt_decks())
def test_any_deal_of_the_sixty_cards_scores_by_the_rulebook(deal):
    n, owners = deal
    names = players(n)
    cards = count_cards(owners, n)
    blacks = [sum(1 for card, seat in zip(DECK, owners, strict=True) if card[0] == "black" and seat == s) for s in range(n)]
    holder = next((seat for seat in range(n) if blacks[seat] == 16), None)

    for rules, coloured_spy, deal_total, shoots in (
        (STANDARD, STANDARD_COLOURED_SPY, STANDARD_DEAL_TOTAL, True),
        (CLASSIC, CLASSIC_COLOURED_SPY, CLASSIC_DEAL_TOTAL, False),
    ):
        expected_raw = tuple(
            sum(card_value(card, coloured_spy) for card, owner in zip(DECK, owners, strict=True) if owner == seat)
            for seat in range(n)
        )
        by_cards = score_deal(rules, names, CardsEntry(cards))
        assert by_cards.raw == expected_raw
        assert sum(by_cards.raw) == deal_total == rules.deal_total

        shooter = holder if shoots else None
        by_points = score_deal(rules, names, PointsEntry(expected_raw, shooter=shooter))
        assert by_cards == by_points
        assert by_cards.shooter == shooter

        if shooter is None:
            assert by_cards.scores == expected_raw
            assert sum(by_cards.scores) == deal_total
        else:
            assert by_cards.scores == tuple(0 if seat == shooter else deal_total for seat in range(n))
            assert sum(by_cards.scores) == (n - 1) * deal_total
            assert shooter in shoot_candidates(rules, expected_raw)
        if not shoots:
            assert shoot_candidates(rules, expected_raw) == ()


# --- 9. what the deal form asks, and what it answers ------------------------------------------


def test_a_shoot_typed_as_the_final_scores_is_refused_with_how_a_shoot_is_entered():
    with pytest.raises(RulesError) as caught:
        parse_points(STANDARD, players(4), ["0", "60", "60", "60"])
    message = caught.value.errors["total"]
    assert "final scores" in message
    # the shooter's own count runs from all the blacks less the four coloured Spies to all of them
    assert "Ana" in message and "between 60 and 80" in message and "-5 for each coloured Spy they took, 0 if none" in message
    assert "asked whether Ana took all 16 black cards" in message


def test_a_shoot_typed_as_final_scores_follows_the_rule_sets_numbers():
    rules = rule_set("classic", shoot_rule=True)
    with pytest.raises(RulesError) as caught:
        parse_points(rules, players(3), ["80", "0", "80"])
    message = caught.value.errors["total"]
    assert "Ben 0, everyone else 80" in message and "Ben's 80" in message


def test_final_scores_are_no_shoot_where_the_shoot_rule_is_off():
    with pytest.raises(RulesError) as caught:
        parse_points(CLASSIC, players(3), ["0", "80", "80"])
    assert "final scores" not in caught.value.errors["total"]
    assert "add up to 160, not 80" in caught.value.errors["total"]


@pytest.mark.parametrize("text", ["1" * 26, "-" + "9" * 26, "1" * 400, "0" * 30 + "5"])
def test_a_number_too_long_for_any_score_is_refused_without_being_read(text):
    with pytest.raises(RulesError) as caught:
        parse_points(STANDARD, players(3), [text, "30", "30"])
    message = caught.value.errors["points-0"]
    assert "too long" in message and "between -20 and 80" in message
    # the message never prints the number, which no formatter need then handle
    assert "1111" not in message and "9999" not in message


def test_a_score_with_too_many_digits_is_refused_by_check_points_too():
    with pytest.raises(RulesError) as caught:
        check_points(STANDARD, players(3), [10**30, 0, 0])
    assert "too long" in caught.value.errors["points-0"]


def test_only_standard_scores_can_be_negative():
    assert STANDARD.negative_scores
    assert not CLASSIC.negative_scores
    assert not rule_set("classic", shoot_rule=True, end_value=300).negative_scores


def test_the_classic_rules_count_no_coloured_spies_and_the_standard_rules_do():
    assert [key for key, _, _ in STANDARD.card_counts] == ["black_spies", "low_blacks", "coloured_spies"]
    assert [key for key, _, _ in CLASSIC.card_counts] == ["black_spies", "low_blacks"]
    assert STANDARD.card_values == {"black_spies": 10, "low_blacks": 1, "coloured_spies": -5}
    assert CLASSIC.card_values == {"black_spies": 10, "low_blacks": 1}


def test_a_classic_deal_by_cards_needs_no_coloured_spies():
    form = {"black_spies-0": "2", "low_blacks-0": "1", "black_spies-1": "3", "high-8": "0", "high-9": "1"}
    cards = parse_cards(players(3), form, rest=2, rules=CLASSIC)
    assert [taken.coloured_spies for taken in cards] == [0, 0, 0]
    score = score_deal(CLASSIC, players(3), CardsEntry(cards))
    # 2x10 + 1 + 2, 3x10 + 3, 10 + 5x1 + 4 + 5
    assert score.raw == (23, 33, 24)
    assert sum(score.raw) == CLASSIC_DEAL_TOTAL


def test_a_classic_deal_by_cards_ignores_coloured_spies_sent_anyway():
    form = {
        "black_spies-0": "6",
        "low_blacks-0": "6",
        "coloured_spies-0": "3",
        "high-8": "0",
        "high-9": "0",
        "high-10": "0",
        "high-11": "0",
    }
    form.update({"black_spies-1": "0", "black_spies-2": "0"})
    cards = parse_cards(players(3), form, rest=None, rules=CLASSIC)
    assert cards[0].coloured_spies == 0
    check_cards(CLASSIC, players(3), cards)


def test_classic_cards_counted_with_coloured_spies_before_still_replay():
    cards = (Cards(coloured_spies=4), all_blacks(), Cards())
    check_cards(CLASSIC, players(3), cards)


def finished_game(first_dealer: int = 3) -> GameState:
    setup = Setup(rule_set("standard", end_value=50), players(4), first_dealer)
    return replay(setup, [PointsEntry((60, 0, 0, 0))])


def test_a_rematch_by_default_is_dealt_first_by_the_player_after_the_last_first_dealer():
    again = rematch(finished_game(first_dealer=3))
    assert again.players == players(4) and again.first_dealer == 0
    assert again.rules.end_value(4) == 50


def test_a_rematch_can_be_dealt_first_by_anyone_or_drawn():
    assert rematch(finished_game(), "2").first_dealer == 2
    drawn = {rematch(finished_game(), "draw", random.Random(seed)).first_dealer for seed in range(40)}
    assert drawn == {0, 1, 2, 3}


@pytest.mark.parametrize("pick", ["4", "-1", "Ana", "1" * 30])
def test_a_rematch_first_dealer_who_is_not_at_the_table_is_refused(pick):
    with pytest.raises(RulesError) as caught:
        rematch(finished_game(), pick)
    assert "first_dealer" in caught.value.errors


def test_a_game_still_being_played_cannot_be_rematched():
    setup = Setup(STANDARD, players(4), 0)
    with pytest.raises(RulesError) as caught:
        rematch(replay(setup, [PointsEntry((20, 15, 25, 0))]))
    assert "not over" in caught.value.message


# --- folds kept ------------------------------------------------------------------------------


def test_a_fold_is_kept_for_the_same_game_and_a_refused_deal_is_refused_every_time() -> None:
    table = Setup(rule_set("standard", end_value=80), ("Ana", "Ben", "Cy", "Dee"), 0)
    deals = [PointsEntry((20, 15, 25, 0)), PointsEntry((0, 30, 30, 0))]
    first = replay(table, deals)
    # the same game read again, as a request that writes a deal reads it, is not folded again
    assert replay(Setup(rule_set("standard", end_value=80), ("Ana", "Ben", "Cy", "Dee"), 0), list(deals)) is first
    # another house rule is another game: nothing of the first is taken for it
    other = replay(Setup(rule_set("standard", end_value=50), ("Ana", "Ben", "Cy", "Dee"), 0), deals)
    assert other is not first and other.end_value == 50 and first.end_value == 80
    assert first.totals == (20, 45, 55, 0)
    for _ in range(2):
        with pytest.raises(RulesError):
            replay(table, [*deals, PointsEntry((61, 0, 0, 0))])
    # one more deal scores that deal and keeps the rest
    longer = replay(table, [*deals, PointsEntry((10, 10, 10, 30))])
    assert longer.deals[:2] == first.deals and longer.totals == (30, 55, 65, 30)


def test_a_deal_made_of_each_players_share_is_checked_as_one_typed_whole() -> None:
    from companion.kinds.black_spy.rules import Share, ShootUnanswered, deal_from_shares

    players = ("Ana", "Ben", "Cy", "Dee")
    shares = [Share(points=20), Share(points=15), Share(points=25), Share(points=0)]
    assert deal_from_shares(STANDARD, players, shares) == PointsEntry((20, 15, 25, 0))
    with pytest.raises(RulesError, match="add up to 65, not 60"):
        deal_from_shares(STANDARD, players, [*shares[:3], Share(points=5)])
    shoot = [Share(points=70), Share(points=-5), Share(points=-5), Share(points=0)]
    with pytest.raises(ShootUnanswered) as asked:
        deal_from_shares(STANDARD, players, shoot)
    assert asked.value.seats == (0,)
    assert deal_from_shares(STANDARD, players, [Share(points=70, shot=True), *shoot[1:]]).shooter == 0
    assert deal_from_shares(STANDARD, players, [Share(points=70, shot=False), *shoot[1:]]) == PointsEntry((70, -5, -5, 0))
    with pytest.raises(RulesError, match="Ana and Ben each say they took all 16 black cards"):
        deal_from_shares(STANDARD, players, [Share(points=70, shot=True), Share(points=-5, shot=True), *shoot[2:]])


def fold_of(setup: Setup, entries: list[PointsEntry], together: int, monkeypatch: pytest.MonkeyPatch) -> object:
    """The game's state, or the refusal, with folds started from kept folds of ``together`` deals."""
    from companion.kinds.black_spy.rules import game

    monkeypatch.setattr(game, "FOLDED_TOGETHER", together)
    game._replay.cache_clear()
    try:
        return replay(setup, entries)
    except RulesError as refusal:
        return (type(refusal), refusal.message, refusal.errors)
    finally:
        game._replay.cache_clear()


@settings(max_examples=40, deadline=None)
@given(
    deals=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=45),
    end=st.sampled_from([100, 300, 1000]),
)
def test_a_long_game_folded_from_its_first_deals_kept_is_the_game_folded_whole(deals, end) -> None:
    # every deal sums to 60 but some, which the rules refuse; a game may end before its last deal
    entries = [PointsEntry((a, b, 60 - a - b)) if a + b <= 60 else PointsEntry((a, b, c)) for a, b, c in deals]
    setup = Setup(rule_set("standard", end_value=end), ("Ana", "Ben", "Cy"), 0)
    with pytest.MonkeyPatch.context() as monkeypatch:
        whole = fold_of(setup, entries, 10_000, monkeypatch)
        for together in (1, 4, 16):
            assert fold_of(setup, entries, together, monkeypatch) == whole
