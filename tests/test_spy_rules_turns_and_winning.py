"""Whose turn it is in Spy, who leaves the game, and who wins.

The rules as the companion keeps them, on public state only (no app, no database): turns go
clockwise from the first player, skip the players who are out, and are played only by the
player whose turn it is; a player whose Top Secret 2 is exposed is found out, one who finds a
lit bomb is blown up, and the last one standing wins, after which no turn is taken.
"""

from __future__ import annotations

import pytest

from companion.kinds.spy.rules import GameOverError, OutReason, Target, Turn, play, replay, start, take
from companion.rules import RulesError
from tests.spy_rules_helpers import ANA, BEN, CY, DEE, exposing_all_of, run, spy, table

# --- turn order -----------------------------------------------------------------------


def test_turns_go_clockwise_from_the_first_player() -> None:
    state = start(table(4, first=DEE))
    order = []
    for _ in range(5):
        order.append(state.to_play)
        state = take(state, Turn(state.to_play))  # type: ignore[arg-type]
    assert order == [DEE, ANA, BEN, CY, DEE]


def test_turn_order_skips_players_who_are_out() -> None:
    state = run(table(4), (BEN, 1, "bomb"), None, (BEN, 1, "lit-bomb"))  # Cy blown up
    order = []
    for _ in range(6):
        order.append(state.to_play)
        state = take(state, Turn(state.to_play))  # type: ignore[arg-type]
    assert order == [DEE, ANA, BEN, DEE, ANA, BEN]


def test_a_player_blown_up_on_their_turn_hands_it_on_clockwise() -> None:
    state = run(table(4), (CY, 3, "bomb"), (CY, 3, "lit-bomb"))
    assert state.out == {BEN: OutReason.BLOWN_UP}
    assert state.to_play == CY


def test_only_the_player_whose_turn_it_is_may_play() -> None:
    with pytest.raises(RulesError, match=r"^Turn 2: It is Ben's turn") as caught:
        replay(table(3), [Turn(ANA), Turn(CY)])
    assert "player" in caught.value.errors


# --- leaving the game and winning -----------------------------------------------------


def test_a_player_whose_top_secret_2_is_exposed_is_found_out() -> None:
    state = run(table(3), *exposing_all_of(BEN, ANA, 3))
    assert state.out == {BEN: OutReason.FOUND_OUT}
    assert state.bases[BEN].target is None
    assert state.bases[BEN].exposed[4] == Target.TOP_SECRET_2
    assert state.winner is None


def test_a_found_out_base_is_no_longer_spied_on() -> None:
    state = run(table(3), *exposing_all_of(BEN, ANA, 3))
    with pytest.raises(RulesError, match="Ben is out"):
        take(state, spy(state.to_play, BEN, 5, "bomb"))  # type: ignore[arg-type]


def test_with_two_players_finding_the_other_out_wins() -> None:
    state = run(table(2), *exposing_all_of(BEN, ANA, 2))
    assert state.winner == ANA
    assert state.to_play is None
    assert state.finished


def test_with_two_players_blowing_yourself_up_hands_the_other_the_win() -> None:
    state = run(table(2, first=BEN), (ANA, 1, "bomb"), None, (ANA, 1, "lit-bomb"))
    assert state.out == {BEN: OutReason.BLOWN_UP}
    assert state.winner == ANA


def test_with_three_players_the_last_one_standing_wins() -> None:
    state = run(table(3), *exposing_all_of(BEN, ANA, 3))
    assert state.to_play == CY
    state = run(table(3), *exposing_all_of(BEN, ANA, 3), (ANA, 2, "bomb"), None, (ANA, 2, "lit-bomb"))
    assert state.out == {BEN: OutReason.FOUND_OUT, CY: OutReason.BLOWN_UP}
    assert state.winner == ANA
    assert state.to_play is None


def test_with_four_players_the_last_one_standing_wins() -> None:
    state = run(
        table(4, first=CY),
        (ANA, 1, "bomb"),  # Cy lights Ana's first bomb
        (ANA, 1, "lit-bomb"),  # Dee finds it: out
        None,  # Ana
        (ANA, 2, "bomb"),  # Ben lights Ana's second bomb
        (ANA, 2, "lit-bomb"),  # Cy finds it: out
        None,  # Ana
        (ANA, 1, "lit-bomb"),  # Ben finds the first: out
    )
    assert state.out == {DEE: OutReason.BLOWN_UP, CY: OutReason.BLOWN_UP, BEN: OutReason.BLOWN_UP}
    assert state.winner == ANA
    assert state.to_play is None


def test_no_turn_is_taken_once_there_is_a_winner() -> None:
    turns = [spy(ANA, BEN, card, "target") if seat == ANA else Turn(BEN) for card in range(1, 5) for seat in (ANA, BEN)][:-1]
    with pytest.raises(GameOverError, match=r"^Turn 8: The game is over: Ana won"):
        replay(table(2), [*turns, Turn(BEN)])
    with pytest.raises(GameOverError):
        play(table(2), turns, Turn(ANA))
