"""What a Spy base holds and what spying on it uncovers: its cards, its targets, its bombs.

The rules as the companion keeps them, on public state only (no app, no database): how many
cards and bombs a base holds for two players and for more, the deck, the colours two players
pick from; the targets that ``target`` answers expose one after another, and the answers
that expose nothing; a bomb lit where it is first found, and a player who finds it lit
blown up.
"""

from __future__ import annotations

import pytest

from companion.kinds.spy.rules import (
    DECK_SIZE,
    SET_BOMBS,
    SPIES_PER_BASE,
    TARGET_ORDER,
    Answer,
    Colour,
    OutReason,
    Target,
    Turn,
    allowed_colours,
    base_size,
    bombs_in_base,
    start,
    take,
)
from tests.spy_rules_helpers import ANA, BEN, CY, run, spy, table

# --- the cards ------------------------------------------------------------------------


@pytest.mark.parametrize("colour", [Colour.GREEN, Colour.RED])
def test_with_two_players_a_base_holds_eight_cards_three_of_them_bombs(colour: Colour) -> None:
    assert bombs_in_base(colour, 2) == 3
    assert base_size(colour, 2) == 8


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("colour", list(Colour))
def test_with_three_or_four_players_a_base_holds_seven_cards_two_of_them_bombs(colour: Colour, players: int) -> None:
    assert bombs_in_base(colour, players) == 2
    assert base_size(colour, players) == 7


def test_the_deck_is_four_spies_eight_safes_eight_top_secrets_and_ten_bombs() -> None:
    assert len(Colour) * SPIES_PER_BASE == 4
    assert len(Colour) * len(TARGET_ORDER) == 16
    assert sum(SET_BOMBS.values()) == 10
    assert DECK_SIZE == 4 + 16 + 10


def test_two_players_pick_from_green_and_red_and_more_from_all_four_colours() -> None:
    assert set(allowed_colours(2)) == {Colour.GREEN, Colour.RED}
    assert set(allowed_colours(3)) == set(allowed_colours(4)) == set(Colour)


# --- exposure targets -----------------------------------------------------------------


def test_targets_run_safe_1_safe_2_top_secret_1_top_secret_2() -> None:
    assert [target.value for target in TARGET_ORDER] == ["safe-1", "safe-2", "top-secret-1", "top-secret-2"]


def test_each_target_answer_exposes_the_current_target_and_the_next_becomes_current() -> None:
    state = start(table(2))
    seen = [state.bases[BEN].target]
    for card in (6, 2, 7):
        state = take(state, spy(ANA, BEN, card, "target"))
        seen.append(state.bases[BEN].target)
        state = take(state, Turn(BEN))
    assert seen == [Target.SAFE_1, Target.SAFE_2, Target.TOP_SECRET_1, Target.TOP_SECRET_2]
    assert dict(state.bases[BEN].exposed) == {6: Target.SAFE_1, 2: Target.SAFE_2, 7: Target.TOP_SECRET_1}


def test_a_safe_or_top_secret_that_is_not_the_target_exposes_nothing_and_is_remembered_of_its_card() -> None:
    from dataclasses import replace

    before = start(table(2))
    after = run(table(2), (BEN, 3, "safe"), None, (BEN, 4, "top-secret"))
    assert [replace(base, known={}) for base in after.bases] == [replace(base, known={}) for base in before.bases]
    assert {card: answer for card, (answer, _) in after.bases[BEN].known.items()} == {3: Answer.SAFE, 4: Answer.TOP_SECRET}
    assert after.out == {}
    assert len(after.turns) == 3
    assert after.to_play == BEN


def test_looking_at_the_opponents_spy_reveals_nothing() -> None:
    state = run(table(2), (BEN, None, "spy"))
    assert state.bases == start(table(2)).bases


# --- bombs ----------------------------------------------------------------------------


def test_a_bomb_found_for_the_first_time_is_lit_in_its_place() -> None:
    state = run(table(2), (BEN, 5, "bomb"), None, (BEN, 2, "bomb"))
    assert state.bases[BEN].lit_bombs == (2, 5)
    assert state.bases[BEN].unlit_bombs == 1
    assert state.out == {}


def test_finding_a_lit_bomb_blows_up_the_spying_player_and_the_bomb_stays_lit() -> None:
    state = run(table(3), (BEN, 5, "bomb"), None, (BEN, 3, "safe"), None, None, (BEN, 5, "lit-bomb"))
    assert state.turns[-1].player == CY
    assert state.out == {CY: OutReason.BLOWN_UP}
    assert state.bases[BEN].lit_bombs == (5,)
    assert state.bases[BEN].unlit_bombs == 1
    assert state.winner is None
