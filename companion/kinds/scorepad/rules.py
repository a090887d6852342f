"""Scorepad: the plain score pad for the other games of the night, as a fold over its inputs.

The table names the game ("Wingspan"), its players (1 to 12), whether the highest or the
lowest total wins, and an optional target. Each input is a round (a whole number of
points for every player, negatives allowed) or the end (a tap). With a target, the game
ends after the round in which any total reaches or passes it.

>>> setup = new_setup("Hearts", ["Ana", "Ben", "Cy"], lowest_wins=True, target=100)
>>> state = replay(setup, [Round((40, 10, 30)), Round((65, 20, 5))])
>>> state.totals, state.finished, [setup.players[seat] for seat in state.winners]
((105, 30, 35), True, ['Ben'])
>>> record(setup, state.entries, Round((1, 1, 1)))
Traceback (most recent call last):
...
companion.rules.RulesError: The game is over: Ana reached the target of 100. Undo the last round to play on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from companion.rules import N_, Message, Nn_, RulesError
from companion.rules.players import MAX_NAME_LENGTH, name_problem

MIN_PLAYERS = 1
MAX_PLAYERS = 12
# the longest game name, as a player's name: it heads a page and a list line
MAX_GAME_NAME_LENGTH = MAX_NAME_LENGTH
# points in one round, and a target: far beyond any game's, and inside a database integer
MAX_POINTS = 1_000_000
MAX_TARGET = 1_000_000
# rounds of one game, as for the other kinds (companion/rules/files.py)
MAX_ROUNDS = 1_000


@dataclass(frozen=True)
class Setup:
    name: str  # the game being played: "Wingspan"
    players: tuple[str, ...]
    lowest_wins: bool = False
    target: int | None = None

    @property
    def size(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class Round:
    """Each player's points for one round, by seat."""

    points: tuple[int, ...]


@dataclass(frozen=True)
class End:
    """The table ends the game here."""


Entry = Round | End


@dataclass(frozen=True)
class PlayedRound:
    number: int
    points: tuple[int, ...]
    totals: tuple[int, ...]  # running totals after this round


@dataclass(frozen=True)
class ScorepadState:
    setup: Setup
    entries: tuple[Entry, ...]
    rounds: tuple[PlayedRound, ...]
    totals: tuple[int, ...]
    ended: bool  # the table tapped "end"
    reached: int | None  # the seat whose total reached the target first, if any

    @property
    def finished(self) -> bool:
        return self.ended or self.reached is not None

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats with the winning total so far (all of them before any round)."""
        best = min(self.totals) if self.setup.lowest_wins else max(self.totals)
        return tuple(seat for seat, total in enumerate(self.totals) if total == best)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.leaders if self.finished else ()

    @property
    def ranking(self) -> tuple[tuple[int, int], ...]:
        """(rank, seat) from the best total down; tied totals share a rank, seats in order.

        >>> state = replay(new_setup("Hearts", ["Ana", "Ben", "Cy"], lowest_wins=True), [Round((9, 3, 3))])
        >>> state.ranking
        ((1, 1), (1, 2), (3, 0))
        """
        lowest = self.setup.lowest_wins

        def ahead(other: int, total: int) -> bool:
            return other < total if lowest else other > total

        order = sorted(range(len(self.totals)), key=lambda seat: self.totals[seat] if lowest else -self.totals[seat])
        return tuple((1 + sum(ahead(other, self.totals[seat]) for other in self.totals), seat) for seat in order)

    @property
    def next_number(self) -> int | None:
        return None if self.finished else len(self.rounds) + 1


def new_setup(name: str, players: Sequence[str], lowest_wins: bool = False, target: int | None = None) -> Setup:
    """A scorepad checked whole: a game name, 1 to 12 distinct names, a target if any.

    Blank player rows are left out. Errors name the form field they are about.

    >>> new_setup(" Wingspan ", ["Ana", "", " Ben "]).players
    ('Ana', 'Ben')
    >>> new_setup("Golf", ["Ana", "ana"])
    Traceback (most recent call last):
    ...
    companion.rules.RulesError: Two players are called ana.
    """
    errors: dict[str, str] = {}
    title = " ".join((name or "").split())
    if not title:
        errors["name"] = N_("Name the game you are playing.")
    elif (problem := name_problem(title)) is not None:
        errors["name"] = problem
    seated: list[str] = []
    seen: set[str] = set()
    for row, raw in enumerate(players):
        player = " ".join((raw or "").split())
        if not player:
            continue
        if (problem := name_problem(player)) is not None:
            errors[f"player-{row}"] = problem
        elif player.casefold() in seen:
            errors[f"player-{row}"] = N_("Two players are called %(name)s.", name=player)
        seen.add(player.casefold())
        seated.append(player)
    # said beside any other fault: a table mending one would be refused again for the count
    if not MIN_PLAYERS <= len(seated) <= MAX_PLAYERS:
        errors["players"] = Nn_(
            "A score pad is for %(least)s to %(most)s players; %(num)s is named.",
            "A score pad is for %(least)s to %(most)s players; %(num)s are named.",
            len(seated),
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
        )
    if target is not None and not 1 <= target <= MAX_TARGET:
        errors["target"] = N_("A target is a whole number from 1 to %(most)s.", most=MAX_TARGET)
    if errors:
        raise RulesError.of(errors)
    return Setup(name=title, players=tuple(seated), lowest_wins=lowest_wins, target=target)


def out_of_bounds(name: str) -> Message:
    return N_("%(name)s: points are a whole number from %(least)s to %(most)s.", name=name, least=-MAX_POINTS, most=MAX_POINTS)


def check_round(setup: Setup, points: Sequence[int]) -> Round:
    """A round with a whole number for every player, none beyond the pad's bound."""
    if len(points) != setup.size:
        raise RulesError(N_("A round gives points to every player."))
    errors = {
        f"points-{seat}": out_of_bounds(name)
        for seat, (name, value) in enumerate(zip(setup.players, points, strict=True))
        if isinstance(value, bool) or not isinstance(value, int) or not -MAX_POINTS <= value <= MAX_POINTS
    }
    if errors:
        raise RulesError.of(errors)
    return Round(tuple(points))


def _over(setup: Setup, state: ScorepadState) -> RulesError:
    if state.ended:
        return RulesError(N_("The game is over: the table ended it. Undo the end to play on."))
    assert state.reached is not None
    return RulesError(
        N_(
            "The game is over: %(name)s reached the target of %(target)s. Undo the last round to play on.",
            name=setup.players[state.reached],
            target=setup.target,
        )
    )


def replay(setup: Setup, entries: Sequence[Entry]) -> ScorepadState:
    """Fold the inputs: running totals, whether and how the game ended, the winners."""
    totals = [0] * setup.size
    rounds: list[PlayedRound] = []
    ended = False
    reached: int | None = None
    state = ScorepadState(setup, (), (), tuple(totals), False, None)
    for index, entry in enumerate(entries):
        if state.finished:
            error = _over(setup, state)
            raise RulesError(N_("Input %(number)s: %(problem)s", number=index + 1, problem=error.message))
        if isinstance(entry, End):
            ended = True
        else:
            played = check_round(setup, entry.points)
            if len(rounds) >= MAX_ROUNDS:
                raise RulesError(
                    Nn_("A game may have at most %(num)s round.", "A game may have at most %(num)s rounds.", MAX_ROUNDS)
                )
            totals = [total + points for total, points in zip(totals, played.points, strict=True)]
            rounds.append(PlayedRound(len(rounds) + 1, played.points, tuple(totals)))
            if setup.target is not None:
                over = [seat for seat, total in enumerate(totals) if total >= setup.target]
                reached = over[0] if over else None
        state = ScorepadState(setup, tuple(entries[: index + 1]), tuple(rounds), tuple(totals), ended, reached)
    return state


def record(setup: Setup, entries: Sequence[Entry], entry: Entry) -> ScorepadState:
    """The game after one more input, or a RulesError naming why it cannot follow."""
    state = replay(setup, entries)
    if state.finished:
        raise _over(setup, state)
    if isinstance(entry, Round):
        check_round(setup, entry.points)
    return replay(setup, [*entries, entry])


def edit(setup: Setup, entries: Sequence[Entry], number: int, points: Sequence[int]) -> ScorepadState:
    """Change round ``number``; every total after it follows. Refused when the change
    would reach the target before the last round (the later rounds could not have been played).
    """
    positions = [index for index, entry in enumerate(entries) if isinstance(entry, Round)]
    if not 1 <= number <= len(positions):
        raise RulesError(N_("There is no round %(number)s.", number=number))
    changed = list(entries)
    changed[positions[number - 1]] = check_round(setup, points)
    try:
        return replay(setup, changed)
    except RulesError:
        raise RulesError(
            N_(
                "With these points the target of %(target)s would be reached before the last round, so the rounds after could not have been played. Nothing was changed.",
                target=setup.target,
            )
        ) from None


def undo(entries: Sequence[Entry]) -> tuple[Entry, ...]:
    """The inputs without the last one (a round or the end)."""
    if not entries:
        raise RulesError(N_("There is nothing to undo."))
    return tuple(entries[:-1])


def entries_from(rounds: Sequence[Mapping[str, int]], players: Sequence[str], ended: bool) -> list[Entry]:
    """The inputs of a game as a file writes them: rounds by player name, then maybe the end."""
    made: list[Entry] = [Round(tuple(row[name] for name in players)) for row in rounds]
    return [*made, End()] if ended else made


__all__ = [
    "MAX_PLAYERS",
    "MAX_POINTS",
    "MAX_ROUNDS",
    "MAX_TARGET",
    "MIN_PLAYERS",
    "End",
    "Entry",
    "PlayedRound",
    "Round",
    "ScorepadState",
    "Setup",
    "check_round",
    "edit",
    "entries_from",
    "new_setup",
    "out_of_bounds",
    "record",
    "replay",
    "undo",
]
