"""The answers Spy allows for a card: the ones the table is offered, and the ones refused.

The rules as the companion keeps them, on public state only (no app, no database): an
impossible spy is refused naming its turn and the field at fault, inside a replay too; the
answers offered for a card follow from what is exposed, lit and answered before (a card once
answered a Safe can only be a Safe, or the target).
"""

from __future__ import annotations

import pytest

from companion.kinds.spy.rules import Answer, SpyAction, Turn, new_setup, possible_answers, replay, start, take
from companion.rules import RulesError
from tests.spy_rules_helpers import ANA, BEN, CY, run, spy, table

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
