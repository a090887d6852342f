"""Moving the Spy, and the mirror it spies through, at a table that tracks the Spies.

The rules as the companion keeps them, on public state only (no app, no database): a Spy
moved past an end carries on from the other end, as if walked card by card, and a card keeps
its number wherever the Spy stands; a player spies on the card that mirrors the one their
Spy faces (my kth card from my left is their kth from their right), which may be the other
Spy; a Spy facing an exposed card moves one or two places, one facing a hidden card any
distance announced, turned round before or after, never backwards, and from an end to the
other end for free; a move is refused at a table that does not track the Spies.
"""

from __future__ import annotations

import pytest

from companion.kinds.spy.rules import (
    Answer,
    Facing,
    Move,
    Setup,
    SpyAction,
    SpyPlace,
    Target,
    Turn,
    card_at,
    faced_slot,
    looked_at,
    mirror_slot,
    move_spy,
    play,
    slot_of,
    start,
    take,
)
from companion.rules import RulesError
from tests.spy_rules_helpers import ANA, BEN, run, spy, table

SIZES = [7, 8]


def walk(size: int, slot: int, facing: Facing, steps: int) -> int:
    """Move a Spy card by card through a fan, carrying it round the end when it gets there."""
    fan: list[object] = [f"card {n}" for n in range(1, size)]
    fan.insert(slot - 1, "SPY")
    for _ in range(steps):
        at = fan.index("SPY")
        if facing is Facing.RIGHT:
            if at == size - 1:
                fan.insert(0, fan.pop())
                at = 0
            fan[at], fan[at + 1] = fan[at + 1], fan[at]
        else:
            if at == 0:
                fan.append(fan.pop(0))
                at = size - 1
            fan[at], fan[at - 1] = fan[at - 1], fan[at]
    return fan.index("SPY") + 1


@pytest.mark.parametrize("size", SIZES)
def test_a_spy_at_an_end_facing_away_faces_the_card_at_the_other_end(size: int) -> None:
    assert faced_slot(size, size, Facing.RIGHT) == 1
    assert faced_slot(size, 1, Facing.LEFT) == size
    assert faced_slot(size, 1, Facing.RIGHT) == 2
    assert faced_slot(size, size, Facing.LEFT) == size - 1


@pytest.mark.parametrize("size", SIZES)
def test_a_spy_moving_past_an_end_carries_on_from_the_other_end(size: int) -> None:
    assert move_spy(size, size - 1, Facing.RIGHT, 1) == size  # passes the last card: at the right end
    assert move_spy(size, size - 1, Facing.RIGHT, 2) == 2  # then card 1 from the left end
    assert move_spy(size, size, Facing.RIGHT, 1) == 2  # faces card 1 across the end and passes it
    assert move_spy(size, 1, Facing.RIGHT, 1) == 2
    assert move_spy(size, 2, Facing.LEFT, 1) == 1  # passes card 1: at the left end
    assert move_spy(size, 2, Facing.LEFT, 2) == size - 1  # then the last card from the right end
    assert move_spy(size, 1, Facing.LEFT, 1) == size - 1  # faces the last card across the end
    assert move_spy(size, size, Facing.LEFT, 1) == size - 1


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("facing", list(Facing))
def test_moving_the_spy_matches_walking_it_card_by_card(size: int, facing: Facing) -> None:
    for slot in range(1, size + 1):
        for steps in range(1, 2 * size + 1):
            assert move_spy(size, slot, facing, steps) == walk(size, slot, facing, steps), (slot, steps)


@pytest.mark.parametrize("size", SIZES)
def test_my_kth_card_from_my_left_is_their_kth_from_their_right(size: int) -> None:
    assert mirror_slot(size, 1) == size
    assert mirror_slot(size, size) == 1
    assert all(mirror_slot(size, mirror_slot(size, slot)) == slot for slot in range(1, size + 1))
    assert sorted(mirror_slot(size, slot) for slot in range(1, size + 1)) == list(range(1, size + 1))


@pytest.mark.parametrize("size", SIZES)
def test_a_card_keeps_its_number_wherever_the_spy_stands(size: int) -> None:
    assert card_at(1, 1) is None and card_at(1, size) == size - 1
    assert card_at(size, size) is None and card_at(size, 1) == 1
    for spy_slot in range(1, size + 1):
        for card in range(1, size):
            assert card_at(spy_slot, slot_of(spy_slot, card)) == card


def tracked(players: int, *places: tuple[int, str]) -> Setup:
    return table(players, spies=[SpyPlace(slot, Facing(facing)) for slot, facing in places])


def test_the_mirror_counts_slots_with_each_spy_where_it_stands() -> None:
    state = start(tracked(2, (8, "right"), (4, "left")))
    # ana's spy at her right end faces her slot 1 across the end: opposite is ben's slot 8, his card 7
    assert looked_at(state, ANA, BEN) == 7
    # ben's spy faces his slot 3: opposite is ana's slot 6, her card 6 as her spy stands to its right
    assert looked_at(state, BEN, ANA) == 6
    state = start(tracked(2, (1, "left"), (4, "right")))
    # ben faces his slot 5: opposite is ana's slot 4, her card 3 as her spy stands to its left
    assert looked_at(state, BEN, ANA) == 3


def test_a_tracked_spy_moves_then_spies_on_the_mirror_of_its_new_place() -> None:
    setup = tracked(2, (1, "right"), (8, "left"))
    state = play(setup, [], Turn(ANA, move=Move(2), spy=SpyAction(BEN, 5, Answer.BOMB)))
    assert state.bases[ANA].spy == SpyPlace(3, Facing.RIGHT)
    assert state.bases[BEN].lit_bombs == (5,)


def test_the_mirror_can_fall_on_the_opponents_spy() -> None:
    state = start(tracked(2, (7, "right"), (1, "left")))  # Ana faces slot 8, opposite Ben's slot 1
    assert looked_at(state, ANA, BEN) is None
    assert take(state, spy(ANA, BEN, None, "spy")).bases == state.bases


def test_spying_a_card_other_than_the_mirror_is_refused_when_spies_are_tracked() -> None:
    state = start(tracked(2, (1, "right"), (8, "left")))
    assert looked_at(state, ANA, BEN) == 7
    with pytest.raises(RulesError, match="looks at Ben's card 7, not card 3") as caught:
        take(state, spy(ANA, BEN, 3, "safe"))
    assert "card" in caught.value.errors


def test_a_spy_facing_an_exposed_card_moves_one_or_two_places() -> None:
    setup = tracked(2, (1, "right"), (8, "left"))  # ana's spy faces her card 1; ben's looks at it
    state = run(setup, None, (ANA, 1, "target"))
    assert state.bases[ANA].exposed == {1: Target.SAFE_1}
    for steps in (1, 2):
        assert take(state, Turn(ANA, move=Move(steps))).bases[ANA].spy == SpyPlace(1 + steps, Facing.RIGHT)
    with pytest.raises(RulesError, match="moves 1 or 2 places") as caught:
        take(state, Turn(ANA, move=Move(3)))
    assert "steps" in caught.value.errors


def test_any_announced_distance_is_taken_when_the_faced_card_is_hidden() -> None:
    state = start(tracked(2, (1, "right"), (8, "left")))
    assert take(state, Turn(ANA, move=Move(5))).bases[ANA].spy == SpyPlace(6, Facing.RIGHT)


def test_the_spy_turns_round_before_or_after_the_move() -> None:
    state = start(tracked(2, (4, "right"), (8, "left")))
    assert take(state, Turn(ANA, move=Move(1, turn_before=True))).bases[ANA].spy == SpyPlace(3, Facing.LEFT)
    assert take(state, Turn(ANA, move=Move(1, turn_after=True))).bases[ANA].spy == SpyPlace(5, Facing.LEFT)
    assert take(state, Turn(ANA, move=Move(1, turn_before=True, turn_after=True))).bases[ANA].spy == SpyPlace(3, Facing.RIGHT)


def test_a_move_backwards_is_refused_with_the_turn_that_makes_it() -> None:
    state = start(tracked(2, (4, "right"), (8, "left")))
    # "-2" is a whole number: the table is told how the rules go the other way
    with pytest.raises(RulesError, match="turn it round before or after the move") as caught:
        take(state, Turn(ANA, move=Move(-2)))
    assert "steps" in caught.value.errors
    assert "whole number" not in str(caught.value.errors["steps"])


def test_a_spy_at_an_end_may_be_put_at_the_other_end_for_free() -> None:
    state = start(tracked(2, (6, "right"), (8, "left")))
    assert take(state, Turn(ANA, move=Move(2, other_end=True))).bases[ANA].spy == SpyPlace(1, Facing.RIGHT)
    at_an_end = start(tracked(2, (8, "left"), (8, "left")))
    assert take(at_an_end, Turn(ANA, move=Move(0, other_end=True))).bases[ANA].spy == SpyPlace(1, Facing.LEFT)
    with pytest.raises(RulesError, match="not at an end"):
        take(state, Turn(ANA, move=Move(1, other_end=True)))
    with pytest.raises(RulesError, match="at least 1 place"):
        take(state, Turn(ANA, move=Move(0)))


def test_a_move_is_refused_when_the_table_does_not_track_spies() -> None:
    with pytest.raises(RulesError, match="does not track") as caught:
        play(table(2), [], Turn(ANA, move=Move(1)))
    assert "move" in caught.value.errors
