"""Seating the players: who may sit down, and who deals first, in a new game and in a rematch.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import random

import pytest

from companion.kinds.black_spy.rules import CLASSIC, STANDARD, GameState, PointsEntry, Setup, new_setup, rematch, replay, rule_set
from companion.rules import RulesError
from tests.black_spy_rules_helpers import NAMES, players

# --- seating the players ---------------------------------------------------------------------


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


# --- a rematch -------------------------------------------------------------------------------


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
