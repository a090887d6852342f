"""Scorepad in a companion/1 file.

    {"id", "kind": "scorepad", "name", "players": [...], "lowest_wins": bool,
     "target": int or null, "ended": bool, "rounds": [{"<player>": int, …}], "created_at"}

and, on export, ``"derived": {"totals": {"<player>": int}, "finished": bool,
"winners": [...]}`` (no winners until the game is over; tied players share).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any, ClassVar

from companion.exchange.fields import (
    Bad,
    field_of,
    listed,
    names,
    optional,
    parse_id,
    parse_time,
    spreadsheet_text,
    timestamp,
    whole,
)
from companion.registry import Rows
from companion.rules import N_, Nn_, RulesError

from . import rules as sp
from .models import KEY, Scorepad, ScorepadEntry, ScorepadGame


@dataclass(frozen=True)
class ScorepadInput:
    """One score pad game of a file, its rounds replayed through the rules."""

    kind: ClassVar[str] = KEY

    id: str | None
    created_at: datetime | None
    setup: sp.Setup
    entries: tuple[sp.Entry, ...]
    state: sp.ScorepadState
    id_replaced: bool = False
    # the game's history of edits and undos, as the file holds it (store/changes.py)
    changes: tuple[dict[str, Any], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players


def to_json(game: ScorepadGame) -> dict[str, Any]:
    pad = game.pad
    state = game.state()
    players = game.player_names
    return {
        "id": game.id,
        "kind": KEY,
        "name": pad.name,
        "players": list(players),
        "lowest_wins": pad.lowest_wins,
        "target": pad.target,
        "ended": state.ended,
        "rounds": [dict(zip(players, played.points, strict=True)) for played in state.rounds],
        "created_at": timestamp(game.created_at),
        "derived": {
            "totals": dict(zip(players, state.totals, strict=True)),
            "finished": state.finished,
            "winners": [players[seat] for seat in state.winners],
        },
    }


def parse(data: dict[str, Any]) -> ScorepadInput:
    players = names(data)
    title = data.get("name")
    if not isinstance(title, str):
        raise Bad(N_("name must be the name of the game played, as text"))
    lowest_wins = data.get("lowest_wins", False)
    if not isinstance(lowest_wins, bool):
        raise Bad(N_("lowest_wins must be true or false"))
    target = optional(data.get("target"), int, N_("target"))
    ended = data.get("ended", False)
    if not isinstance(ended, bool):
        raise Bad(N_("ended must be true or false"))
    setup = sp.new_setup(title, players, lowest_wins=lowest_wins, target=target)
    if setup.players != tuple(players) or setup.name != title:
        raise Bad(N_("player names and the game's name must be trimmed, and the names distinct"))
    rounds = listed(
        data,
        "rounds",
        sp.MAX_ROUNDS,
        Nn_("a game may have at most %(num)s round", "a game may have at most %(num)s rounds", sp.MAX_ROUNDS),
    )
    entries: list[sp.Entry] = []
    for number, row in enumerate(rounds, start=1):
        if not isinstance(row, dict) or set(row) != set(players):
            raise Bad(
                N_("round %(number)s must give points to exactly the players %(players)s", number=number, players=list(players))
            )
        entries.append(sp.Round(tuple(whole(row[name], partial(field_of, name, "points")) for name in players)))
    if ended:
        entries.append(sp.End())
    try:
        state = sp.replay(setup, entries)
    except RulesError as error:
        # a round after the target was reached, or points beyond the pad's bounds
        raise Bad(error.message) from None
    game_id, replaced = parse_id(data.get("id"))
    return ScorepadInput(
        id=game_id,
        created_at=parse_time(data.get("created_at")),
        setup=setup,
        entries=tuple(entries),
        state=state,
        id_replaced=replaced,
    )


def rows(item: ScorepadInput, game_id: str, created: datetime) -> Rows:
    entries = [
        {
            "game_id": game_id,
            "number": number,
            "points": None if isinstance(entry, sp.End) else list(entry.points),
            "submission_id": None,
            "created_at": created,
        }
        for number, entry in enumerate(item.entries, start=1)
    ]
    pad = {"game_id": game_id, "name": item.setup.name, "lowest_wins": item.setup.lowest_wins, "target": item.setup.target}
    return Rows(game={"first_seat": 0}, tables={Scorepad: [pad], ScorepadEntry: entries})


CSV_COLUMNS = ("game_id", "date", "game", "round", "player", "seat", "points", "running_total")


def csv_rows(game: ScorepadGame) -> list[list[Any]]:
    """One row per player per round, for a spreadsheet."""
    pad = game.pad
    state = game.state()
    return [
        [
            game.id,
            game.created_at.date().isoformat(),
            spreadsheet_text(pad.name),
            played.number,
            spreadsheet_text(name),
            seat + 1,
            played.points[seat],
            played.totals[seat],
        ]
        for played in state.rounds
        for seat, name in enumerate(game.player_names)
    ]


def shared_csv_rows(game: ScorepadGame) -> list[list[Any]]:
    """Its rows in the spreadsheet of every game (``registry.CSV_COLUMNS``): the pad's name
    where a Black Spy row names its rule set, the round where it numbers the deal, the points
    as both the raw points and the score."""
    return [
        [game_id, date, name, number, "", "", player, seat, points, points, total, "", KEY]
        for game_id, date, name, number, player, seat, points, total in csv_rows(game)
    ]
