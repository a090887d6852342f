"""The score pad's rules (companion/rules/scorepad.py), as ../shared/rules/scorepad.md states them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.kinds.scorepad import rules as sp
from companion.kinds.scorepad.forms import parse_points
from companion.rules import RulesError


def test_a_pad_seats_one_to_twelve_distinct_players_and_names_the_game() -> None:
    setup = sp.new_setup("  Wingspan ", ["Ana", "", "Ben"])
    assert (setup.name, setup.players, setup.lowest_wins, setup.target) == ("Wingspan", ("Ana", "Ben"), False, None)
    assert sp.new_setup("Solitaire", ["Ana"]).size == 1
    assert sp.new_setup("Big", [f"P{n}" for n in range(12)]).size == 12
    with pytest.raises(RulesError, match="1 to 12 players; 13 are named"):
        sp.new_setup("Too big", [f"P{n}" for n in range(13)])
    with pytest.raises(RulesError, match="1 to 12 players; 0 are named"):
        sp.new_setup("Empty", ["", " "])
    with pytest.raises(RulesError, match="Two players are called ana") as refused:
        sp.new_setup("Golf", ["Ana", "ana"])
    assert set(refused.value.errors) == {"player-1"}


def test_a_game_needs_a_name_and_a_target_is_a_positive_whole_number() -> None:
    with pytest.raises(RulesError, match="Name the game") as refused:
        sp.new_setup("  ", ["Ana"])
    assert set(refused.value.errors) == {"name"}
    for target in (0, -5, sp.MAX_TARGET + 1):
        with pytest.raises(RulesError, match="A target is a whole number"):
            sp.new_setup("Golf", ["Ana"], target=target)


def test_totals_run_round_by_round_and_negatives_count() -> None:
    setup = sp.new_setup("Cribbage", ["Ana", "Ben"])
    state = sp.replay(setup, [sp.Round((5, -3)), sp.Round((7, 10))])
    assert [played.totals for played in state.rounds] == [(5, -3), (12, 7)]
    assert state.totals == (12, 7) and not state.finished and state.winners == ()
    assert state.next_number == 3


def test_with_a_target_the_game_ends_after_the_round_that_reaches_it_whichever_way_wins() -> None:
    for lowest_wins, winner in ((False, "Ana"), (True, "Ben")):
        setup = sp.new_setup("Hearts", ["Ana", "Ben"], lowest_wins=lowest_wins, target=100)
        state = sp.replay(setup, [sp.Round((60, 10)), sp.Round((40, 5))])
        assert state.finished and state.reached == 0
        assert [setup.players[seat] for seat in state.winners] == [winner]
        with pytest.raises(RulesError, match="Ana reached the target of 100"):
            sp.record(setup, state.entries, sp.Round((1, 1)))


def test_without_a_target_the_table_ends_the_game_and_undo_reopens_it() -> None:
    setup = sp.new_setup("Wingspan", ["Ana", "Ben", "Cy"])
    state = sp.record(setup, [sp.Round((30, 40, 40))], sp.End())
    assert state.finished and state.ended
    assert [setup.players[seat] for seat in state.winners] == ["Ben", "Cy"]  # tied players share
    with pytest.raises(RulesError, match="the table ended it"):
        sp.record(setup, state.entries, sp.Round((1, 1, 1)))
    reopened = sp.replay(setup, sp.undo(state.entries))
    assert not reopened.finished and reopened.winners == () and reopened.next_number == 2


def test_a_game_with_a_target_can_be_ended_early() -> None:
    setup = sp.new_setup("Golf", ["Ana", "Ben"], lowest_wins=True, target=100)
    state = sp.record(setup, [sp.Round((3, 5))], sp.End())
    assert state.finished and state.reached is None and [setup.players[s] for s in state.winners] == ["Ana"]


def test_a_round_gives_every_player_a_whole_number_within_bounds() -> None:
    setup = sp.new_setup("Golf", ["Ana", "Ben"])
    with pytest.raises(RulesError, match="every player"):
        sp.record(setup, [], sp.Round((1,)))
    with pytest.raises(RulesError, match="whole number") as refused:
        sp.record(setup, [], sp.Round((1, sp.MAX_POINTS + 1)))
    assert set(refused.value.errors) == {"points-1"}
    with pytest.raises(RulesError):
        sp.record(setup, [], sp.Round((True, 1)))  # type: ignore[arg-type]  # a file's true is no number
    for typed in ("12.5", "1e3", "", "9" * 30, "٣"):
        with pytest.raises(ValueError):
            parse_points(typed)


def test_an_edit_recomputes_what_follows_and_may_not_reach_the_target_before_the_last_round() -> None:
    setup = sp.new_setup("Hearts", ["Ana", "Ben"], lowest_wins=True, target=100)
    entries = [sp.Round((30, 10)), sp.Round((30, 10)), sp.Round((30, 10))]
    edited = sp.edit(setup, entries, 1, (50, 0))
    assert edited.totals == (110, 20) and edited.finished and len(edited.rounds) == 3
    with pytest.raises(RulesError, match="would be reached before the last round"):
        sp.edit(setup, entries, 1, (95, 0))
    with pytest.raises(RulesError, match="There is no round 4"):
        sp.edit(setup, entries, 4, (1, 1))


@given(
    players=st.integers(1, 12),
    rounds=st.lists(st.lists(st.integers(-50, 50), min_size=12, max_size=12), max_size=12),
    target=st.one_of(st.none(), st.integers(1, 200)),
    lowest_wins=st.booleans(),
)
def test_the_fold_is_the_sum_of_the_rounds_and_ends_exactly_when_the_rules_say(players, rounds, target, lowest_wins) -> None:
    setup = sp.new_setup("Any", [f"P{n}" for n in range(players)], lowest_wins=lowest_wins, target=target)
    entries: list[sp.Entry] = []
    for row in rounds:
        state = sp.replay(setup, entries)
        if state.finished:
            break
        entries.append(sp.Round(tuple(row[:players])))
    state = sp.replay(setup, entries)
    sums = tuple(sum(entry.points[seat] for entry in entries if isinstance(entry, sp.Round)) for seat in range(players))
    assert state.totals == sums
    reached_at = [
        index
        for index in range(len(entries))
        if target is not None and max(sp.replay(setup, entries[: index + 1]).totals) >= target
    ]
    assert state.finished == bool(reached_at)
    if reached_at:
        assert reached_at[0] == len(entries) - 1  # nothing follows the round that reached it
        best = (min if lowest_wins else max)(sums)
        assert state.winners == tuple(seat for seat in range(players) if sums[seat] == best)
