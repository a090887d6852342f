"""A deal entered as counted cards: the rest go to one player, and the counts must match the deck.

Cards the deck does not hold, a high black nobody took, a row left blank are refused; all
sixteen black cards in one hand are a shoot where the rule set says so.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import pytest

from companion.kinds.black_spy.forms import parse_cards
from companion.kinds.black_spy.rules import CLASSIC, HIGH_BLACKS, STANDARD, Cards, CardsEntry, check_cards, rule_set, score_deal
from companion.rules import RulesError
from tests.black_spy_rules_helpers import STANDARD_DEAL_TOTAL, all_blacks, players


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
