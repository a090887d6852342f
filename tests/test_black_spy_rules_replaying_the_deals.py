"""A game is its deals replayed in order, from the first.

An edited past deal recomputes every later total, and is refused if it would end the game
early; a fold kept for a game is the game folded whole.

Pure rules: no Flask, no database. Every expected figure comes from the rulebook
(shared/rules/black-spy.md), by way of tests/black_spy_rules_helpers.py, not from the
implementation.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.kinds.black_spy.rules import STANDARD, PointsEntry, Setup, edit, replay, rule_set
from companion.rules import RulesError
from tests.black_spy_rules_helpers import players

# --- editing a past deal ---------------------------------------------------------------------


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
