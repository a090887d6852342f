"""The rules of Spy as the companion keeps them: public state only, no app, no database."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.kinds.spy.rules import (
    DECK_SIZE,
    SET_BOMBS,
    SPIES_PER_BASE,
    TARGET_ORDER,
    Answer,
    Colour,
    Facing,
    GameOverError,
    Move,
    OutReason,
    Setup,
    SpyAction,
    SpyPlace,
    SpyState,
    Target,
    Turn,
    allowed_colours,
    base_size,
    bombs_in_base,
    card_at,
    faced_slot,
    looked_at,
    mirror_slot,
    move_spy,
    new_setup,
    play,
    possible_answers,
    rematch,
    replay,
    slot_of,
    start,
    take,
)
from companion.rules import RulesError

ANA, BEN, CY, DEE = 0, 1, 2, 3
NAMES = ("Ana", "Ben", "Cy", "Dee")
COLOURS = ("green", "red", "blue", "yellow")


def table(players: int, first: int = ANA, spies: Sequence[SpyPlace] | None = None) -> Setup:
    return new_setup(NAMES[:players], COLOURS[:players], first, spies)


def spy(player: int, target: int, card: int | None, answer: str) -> Turn:
    return Turn(player, spy=SpyAction(target, card, Answer(answer)))


def run(setup: Setup, *actions: tuple[int, int | None, str] | None) -> SpyState:
    """Play ``actions`` in turn order: (target, card, answer) to spy, None to pass."""
    state = start(setup)
    for action in actions:
        turn = Turn(state.to_play) if action is None else spy(state.to_play, *action)  # type: ignore[arg-type]
        state = take(state, turn)
    return state


def exposing_all_of(target: int, spier: int, players: int) -> list[tuple[int, int, str] | None]:
    """Rounds in which ``spier`` exposes all four targets of ``target`` and the others pass."""
    rounds: list[tuple[int, int, str] | None] = []
    for card in range(1, len(TARGET_ORDER) + 1):
        rounds.append((target, card, "target"))
        if card < len(TARGET_ORDER):
            rounds.extend([None] * (players - 1))
    return rounds


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


# --- refused answers ------------------------------------------------------------------

# (why, players, turns played in order before, the refused spy (target, card, answer), field)
REFUSED = [
    ("safe with both safes exposed", 2, [(BEN, 1, "target"), None, (BEN, 2, "target"), None], (BEN, 5, "safe"), "answer"),
    ("safe when the only hidden safe is the target", 2, [(BEN, 1, "target"), None], (BEN, 5, "safe"), "answer"),
    (
        "top-secret when the only hidden one is the target",
        2,
        [(BEN, 1, "target"), None, (BEN, 2, "target"), None, (BEN, 3, "target"), None],
        (BEN, 5, "top-secret"),
        "answer",
    ),
    ("safe on an exposed card", 2, [(BEN, 1, "target"), None], (BEN, 1, "safe"), "answer"),
    ("top-secret on a lit bomb", 2, [(BEN, 4, "bomb"), None], (BEN, 4, "top-secret"), "answer"),
    ("target on an exposed card", 2, [(BEN, 1, "target"), None], (BEN, 1, "target"), "answer"),
    ("target on a lit bomb", 2, [(BEN, 4, "bomb"), None], (BEN, 4, "target"), "answer"),
    (
        "a bomb more than the base holds",
        3,
        [(BEN, 5, "bomb"), None, None, (BEN, 6, "bomb"), None, None],
        (BEN, 4, "bomb"),
        "answer",
    ),
    ("bomb on a bomb already lit", 2, [(BEN, 4, "bomb"), None], (BEN, 4, "bomb"), "answer"),
    ("bomb on an exposed card", 2, [(BEN, 1, "target"), None], (BEN, 1, "bomb"), "answer"),
    ("lit-bomb on a card not lit", 2, [], (BEN, 4, "lit-bomb"), "answer"),
    ("lit-bomb on an exposed card", 2, [(BEN, 1, "target"), None], (BEN, 1, "lit-bomb"), "answer"),
    ("exposed on a hidden card", 2, [], (BEN, 4, "exposed"), "answer"),
    ("exposed on a lit bomb", 2, [(BEN, 4, "bomb"), None], (BEN, 4, "exposed"), "answer"),
    ("spy answered for a card", 2, [], (BEN, 4, "spy"), "answer"),
    ("a card answer for the Spy", 2, [], (BEN, None, "safe"), "answer"),
    ("spying on yourself", 2, [], (ANA, 4, "safe"), "target"),
    ("spying on a player who is out", 3, [(BEN, 1, "bomb"), None, (BEN, 1, "lit-bomb")], (CY, 4, "safe"), "target"),
    ("card 0", 2, [], (BEN, 0, "safe"), "card"),
    ("the Spy's own place counted as a card, two players", 2, [], (BEN, 8, "safe"), "card"),
    ("the Spy's own place counted as a card, three players", 3, [], (BEN, 7, "safe"), "card"),
]


@pytest.mark.parametrize(("why", "players", "before", "refused", "field"), REFUSED, ids=[row[0] for row in REFUSED])
def test_an_impossible_spy_is_refused_naming_its_turn(why: str, players: int, before: list, refused: tuple, field: str) -> None:
    state = run(table(players), *before)
    turn = spy(state.to_play, *refused)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=rf"^Turn {len(before) + 1}: ") as caught:
        take(state, turn)
    assert field in caught.value.errors
    if field == "answer" and refused[1] is not None:
        assert Answer(refused[2]) not in possible_answers(state, state.to_play, refused[0], refused[1])  # type: ignore[arg-type]


def test_a_refusal_inside_a_replay_names_the_first_impossible_turn() -> None:
    turns = [spy(ANA, BEN, 4, "bomb"), Turn(BEN), spy(ANA, BEN, 4, "safe"), spy(BEN, ANA, 9, "safe")]
    with pytest.raises(RulesError, match=r"^Turn 3: Ben's card 4 is a lit bomb"):
        replay(table(2), turns)


# --- the answers the table is offered -------------------------------------------------


def test_a_hidden_card_may_still_be_anything() -> None:
    state = start(table(2))
    assert possible_answers(state, ANA, BEN, 3) == (Answer.SAFE, Answer.TOP_SECRET, Answer.TARGET, Answer.BOMB)


def test_an_exposed_card_can_only_answer_exposed_and_a_lit_bomb_only_lit_bomb() -> None:
    state = run(table(2), (BEN, 1, "target"), None, (BEN, 2, "bomb"), None)
    assert possible_answers(state, ANA, BEN, 1) == (Answer.EXPOSED,)
    assert possible_answers(state, ANA, BEN, 2) == (Answer.LIT_BOMB,)


def test_the_opponents_spy_can_only_answer_spy() -> None:
    assert possible_answers(start(table(2)), ANA, BEN, None) == (Answer.SPY,)


def test_once_the_safes_are_exposed_a_hidden_card_cannot_be_a_safe() -> None:
    state = run(table(2), (BEN, 1, "target"), None, (BEN, 2, "target"), None)
    assert possible_answers(state, ANA, BEN, 3) == (Answer.TOP_SECRET, Answer.TARGET, Answer.BOMB)


def test_with_top_secret_2_the_target_and_every_bomb_lit_a_hidden_card_is_the_target() -> None:
    state = run(
        table(3),
        (BEN, 1, "target"),
        None,
        None,
        (BEN, 2, "target"),
        None,
        None,
        (BEN, 3, "target"),
        None,
        None,
        (BEN, 4, "bomb"),
        None,
        None,
        (BEN, 5, "bomb"),
        None,
        None,
    )
    assert possible_answers(state, ANA, BEN, 6) == (Answer.TARGET,)


def test_asking_about_your_own_base_is_refused() -> None:
    with pytest.raises(RulesError, match="own base"):
        possible_answers(start(table(2)), ANA, ANA, 1)


# --- moving the Spy and the mirror ----------------------------------------------------

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


# --- setup ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 5])
def test_spy_is_for_two_to_four_players(players: int) -> None:
    names = [f"P{n}" for n in range(players)]
    with pytest.raises(RulesError, match="2 to 4 players") as caught:
        new_setup(names, (COLOURS * 2)[:players], 0)
    assert "players" in caught.value.errors


@pytest.mark.parametrize("colours", [("green", "blue"), ("blue", "yellow"), ("red", "red")])
def test_two_players_play_green_and_red(colours: tuple[str, str]) -> None:
    with pytest.raises(RulesError):
        new_setup(["Ana", "Ben"], colours, 0)


def test_two_players_choose_who_plays_green() -> None:
    assert new_setup(["Ana", "Ben"], ["red", "green"], 1).colours == (Colour.RED, Colour.GREEN)


def test_three_or_four_players_play_distinct_colours() -> None:
    assert new_setup(["Ana", "Ben", "Cy"], ["yellow", "blue", "red"], 2).colours == (Colour.YELLOW, Colour.BLUE, Colour.RED)
    with pytest.raises(RulesError, match="Two players picked blue") as caught:
        new_setup(["Ana", "Ben", "Cy", "Dee"], ["blue", "red", "blue", "green"], 0)
    assert "colour-2" in caught.value.errors


def test_an_unknown_colour_is_refused() -> None:
    with pytest.raises(RulesError) as caught:
        new_setup(["Ana", "Ben", "Cy"], ["blue", "purple", "red"], 0)
    assert "colour-1" in caught.value.errors


def test_two_players_cannot_share_a_name() -> None:
    with pytest.raises(RulesError, match="Two players are called ana") as caught:
        new_setup(["Ana", "Ben", " ana "], ["blue", "red", "green"], 0)
    assert "player-2" in caught.value.errors


def test_blank_rows_are_left_out_and_the_first_player_follows_their_row() -> None:
    setup = new_setup(["Ana", "", "  Cy  ", "Dee"], ["green", "", "red", "blue"], 2)
    assert setup.players == ("Ana", "Cy", "Dee")
    assert setup.first_player == 1
    assert start(setup).to_play == 1


def test_the_first_player_must_be_one_of_the_players() -> None:
    with pytest.raises(RulesError) as caught:
        new_setup(["Ana", "Ben", ""], ["green", "red", ""], 2)
    assert "first_player" in caught.value.errors


def test_a_tracked_spy_starts_inside_its_base() -> None:
    with pytest.raises(RulesError, match="after one of cards 1 to 6") as caught:
        new_setup(
            ["Ana", "Ben", "Cy"],
            ["green", "red", "blue"],
            0,
            [SpyPlace(1, Facing.LEFT), SpyPlace(8, Facing.LEFT), SpyPlace(7, Facing.RIGHT)],
        )
    assert "spy-1" in caught.value.errors


def test_a_setup_built_by_hand_is_checked_too() -> None:
    with pytest.raises(RulesError, match="green and red"):
        replay(Setup(("Ana", "Ben"), (Colour.GREEN, Colour.YELLOW), 0), [])


# --- the rematch ----------------------------------------------------------------------


def won(first: int = ANA) -> SpyState:
    """A game of two that one of them wins: Ben finds Ana out, or Ana blows herself up on
    Ben's bomb, whoever plays first."""
    if first == BEN:
        state = run(table(2, BEN), *exposing_all_of(ANA, BEN, 2))
    else:
        state = run(table(2), (BEN, 1, "bomb"), None, (BEN, 1, "lit-bomb"))
    assert state.finished and state.winner == BEN
    return state


def test_a_spy_rematch_by_default_is_played_first_by_the_player_after_the_last_first_player() -> None:
    assert rematch(won()).first_player == BEN
    assert rematch(won(first=BEN)).first_player == ANA


def test_a_spy_rematch_seats_the_same_players_with_the_same_colours_and_any_first_player() -> None:
    state = won()
    again = rematch(state, "0")
    assert (again.players, again.colours, again.first_player) == (state.setup.players, state.setup.colours, ANA)
    assert rematch(state, "draw").first_player in (ANA, BEN)


@pytest.mark.parametrize("pick", ["2", "7", "-1", "Ana", "1.0", "999"])
def test_a_spy_rematch_first_player_who_is_not_at_the_table_is_refused(pick: str) -> None:
    with pytest.raises(RulesError, match=r"The first player must be one of the players\."):
        rematch(won(), pick)


def test_a_spy_game_still_being_played_cannot_be_rematched() -> None:
    with pytest.raises(RulesError, match="The game is not over yet"):
        rematch(start(table(3)))


def test_a_tracked_spy_rematch_leaves_the_spies_to_be_placed_again() -> None:
    # each player arranges their base anew: the last game's places say nothing of the next
    spies = [SpyPlace(1, Facing.RIGHT), SpyPlace(1, Facing.RIGHT)]
    # Ana's Spy faces her slot 2, so she looks at Ben's card 6, twice: the second time it is lit
    state = run(table(2, ANA, spies), (BEN, 6, "bomb"), None, (BEN, 6, "lit-bomb"))
    assert state.setup.tracking and state.winner == BEN
    assert rematch(state).spies is None


def test_a_card_answered_a_safe_can_only_be_a_safe_from_then_on() -> None:
    state = start(new_setup(["Ana", "Ben", "Cy"], ["blue", "red", "green"], ANA))
    state = take(state, Turn(ANA, spy=SpyAction(BEN, 3, Answer.SAFE)))
    state = take(state, Turn(BEN, spy=SpyAction(ANA, 1, Answer.SAFE)))
    # Ben's card 3 is a Safe that is not the target (Safe 1): Safe 2. It is a Safe or, once
    # Safe 1 is out, the target; never a Top Secret nor a bomb
    assert possible_answers(state, CY, BEN, 3) == (Answer.SAFE,)
    with pytest.raises(RulesError, match="card 3 was answered “safe” on an earlier turn: it cannot be “bomb”"):
        take(state, Turn(CY, spy=SpyAction(BEN, 3, Answer.BOMB)))
    # any other card of Ben's may still be anything hidden
    assert possible_answers(state, CY, BEN, 4) == (Answer.SAFE, Answer.TOP_SECRET, Answer.TARGET, Answer.BOMB)
    state = take(state, Turn(CY, spy=SpyAction(BEN, 5, Answer.TARGET)))  # Safe 1 exposed: Safe 2 is the target
    assert possible_answers(state, ANA, BEN, 3) == (Answer.TARGET,)
    # the only hidden Safe is known to be card 3: no other card can be the target now
    assert Answer.TARGET not in possible_answers(state, ANA, BEN, 4)
    assert Answer.SAFE not in possible_answers(state, ANA, BEN, 4)
