"""What the deal form reads from typed points, and what it answers when a deal is wrong.

Points are read as numbers in the rule set's range and must total a deal; every bad field is
named, a shoot typed as final scores is explained, and the form asks only for the counts the
rule set scores.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import pytest

from companion.kinds.black_spy.forms import parse_cards, parse_points
from companion.kinds.black_spy.rules import (
    CLASSIC,
    STANDARD,
    Cards,
    CardsEntry,
    PointsEntry,
    check_cards,
    check_points,
    rule_set,
    score_deal,
)
from companion.rules import RulesError
from tests.black_spy_rules_helpers import CLASSIC_DEAL_TOTAL, all_blacks, players

# --- typed points ----------------------------------------------------------------------------


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


# --- what the deal form asks, and what it answers --------------------------------------------


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
