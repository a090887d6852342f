"""Setting up a game of Spy, and the rematch that sets up the next one.

The rules as the companion keeps them, on public state only (no app, no database): two to
four players, two of them playing green and red and more of them distinct colours, no name
shared, blank rows left out, the first player one of the players, and a tracked Spy inside
its base; a rematch, once the game is over, seats the same players with the same colours,
the next player or the one picked first, its Spies to be placed again.
"""

from __future__ import annotations

import pytest

from companion.kinds.spy.rules import Colour, Facing, Setup, SpyPlace, SpyState, new_setup, rematch, replay, start
from companion.rules import RulesError
from tests.spy_rules_helpers import ANA, BEN, COLOURS, exposing_all_of, run, table

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
