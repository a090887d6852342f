"""Spy in a companion/1 file: who sat where in which colours, the turns, and the public
state they derive (ignored on import, where the turns are replayed instead)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from companion.exchange.fields import (
    Bad,
    field_of,
    listed,
    names,
    one_of,
    parse_id,
    parse_time,
    shown,
    spreadsheet_text,
    timestamp,
    whole,
)
from companion.registry import Rows
from companion.rules import N_, Nn_

from . import rules as spy
from .models import KEY, SpyGame, SpyTurn

# turns one game of a file may hold: far above any real game's
MAX_TURNS = 2_000


@dataclass(frozen=True)
class SpyInput:
    """One Spy game of a file, its turns replayed through the rules."""

    kind: ClassVar[str] = KEY

    id: str | None
    created_at: datetime | None
    setup: spy.Setup
    turns: tuple[spy.Turn, ...]
    state: spy.SpyState
    id_replaced: bool = False
    # the game's history of edits and undos, as the file holds it (store/changes.py)
    changes: tuple[dict[str, Any], ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players


def to_json(game: SpyGame) -> dict[str, Any]:
    names = game.player_names
    state = game.state()
    turns = []
    for turn in game.turns:
        item: dict[str, Any] = {"player": names[turn.player]}
        if turn.move is not None:
            item["move"] = dict(turn.move)
        item["spy"] = (
            None
            if turn.spy is None
            else {
                "target": names[turn.spy["target"]],
                # a card counted from the owner's left, leaving out the Spy
                "slot": turn.spy["card"],
                "answer": turn.spy["answer"],
            }
        )
        turns.append(item)
    data: dict[str, Any] = {
        "id": game.id,
        "kind": KEY,
        "players": list(names),
        "colours": {name: seat.colour for name, seat in zip(names, game.seats, strict=True)},
        "first_player": names[game.first_seat],
        "created_at": timestamp(game.created_at),
    }
    if game.spies is not None:
        data["spies"] = dict(zip(names, game.spies, strict=True))
    data["turns"] = turns
    data["derived"] = spy_derived_json(state)
    return data


def spy_derived_json(state: spy.SpyState) -> dict[str, Any]:
    names = state.setup.players
    bases = {}
    for base in state.bases:
        entry: dict[str, Any] = {
            "size": base.size,
            "target": None if base.target is None else base.target.value,
            "exposed": {str(card): target.value for card, target in sorted(base.exposed.items())},
            "lit_bombs": list(base.lit_bombs),
            "unlit_bombs": base.unlit_bombs,
        }
        if base.spy is not None:
            entry["spy"] = {"slot": base.spy.slot, "facing": base.spy.facing.value}
        bases[names[base.owner]] = entry
    return {
        "turn": None if state.to_play is None else names[state.to_play],
        "out": {names[seat]: reason.value for seat, reason in state.out.items()},
        "winner": None if state.winner is None else names[state.winner],
        "bases": bases,
    }


def parse(data: dict[str, Any]) -> SpyInput:
    players = names(data)
    colours = data.get("colours")
    if not isinstance(colours, dict) or set(colours) != set(players):
        raise Bad(N_("colours must give a colour to each of the players %(players)s", players=list(players)))
    first = data.get("first_player")
    if not isinstance(first, str) or first not in players:
        raise Bad(N_("the first player %(name)s is not one of the players", name=shown(first)))
    places = None
    spies = data.get("spies")
    if spies is not None:
        if not isinstance(spies, dict) or set(spies) != set(players):
            raise Bad(N_("spies must place each player's Spy"))
        places = []
        for name in players:
            place = spies[name]
            if not isinstance(place, dict) or not one_of(place.get("facing"), spy.Facing):
                raise Bad(N_("%(name)s's Spy needs a slot and a facing (left or right)", name=name))
            places.append(spy.SpyPlace(whole(place.get("slot"), field_of(name, "slot")), spy.Facing(place["facing"])))
    setup = spy.new_setup(players, [str(colours[name]) for name in players], players.index(first), places)
    if setup.players != tuple(players):
        raise Bad(N_("player names must be trimmed and distinct"))
    raw_turns = listed(
        data,
        "turns",
        MAX_TURNS,
        Nn_("a game may have at most %(num)s turn", "a game may have at most %(num)s turns", MAX_TURNS),
    )
    turns = []
    for number, item in enumerate(raw_turns, start=1):
        try:
            turns.append(_parse_turn(item, setup.players))
        except Bad as error:
            raise Bad(N_("turn %(number)s: %(problem)s", number=number, problem=error.message)) from None
    state = spy.replay(setup, turns)  # raises, naming the turn, if any turn is impossible
    game_id, replaced = parse_id(data.get("id"))
    return SpyInput(
        id=game_id,
        created_at=parse_time(data.get("created_at")),
        setup=setup,
        turns=tuple(turns),
        state=state,
        id_replaced=replaced,
    )


def _parse_turn(item: Any, players: tuple[str, ...]) -> spy.Turn:
    if not isinstance(item, dict) or not isinstance(item.get("player"), str) or item["player"] not in players:
        raise Bad(N_("a turn names its player"))
    move = item.get("move")
    if move is not None:
        if not isinstance(move, dict):
            raise Bad(N_("a move must be an object"))
        flags = {key: move.get(key, False) for key in ("turn_before", "turn_after", "other_end")}
        if not all(isinstance(flag, bool) for flag in flags.values()):
            raise Bad(N_("turn_before, turn_after and other_end are true or false"))
        move = spy.Move(steps=whole(move.get("steps"), N_("a move's steps")), **flags)
    action = item.get("spy")
    if action is not None:
        if not isinstance(action, dict) or not isinstance(action.get("target"), str) or action["target"] not in players:
            raise Bad(N_("a spy names the player spied on"))
        if not one_of(action.get("answer"), spy.Answer):
            raise Bad(N_("unknown answer %(answer)s", answer=shown(action.get("answer"))))
        slot = action.get("slot")
        action = spy.SpyAction(
            target=players.index(action["target"]),
            card=None if slot is None else whole(slot, N_("a spy's slot")),
            answer=spy.Answer(action["answer"]),
        )
    return spy.Turn(player=players.index(item["player"]), move=move, spy=action)


def rows(item: SpyInput, game_id: str, created: datetime) -> Rows:
    """The rows of one checked game of a file, for a bulk import."""
    turns = []
    for number, turn in enumerate(item.turns, start=1):
        stored = SpyTurn(number=number)
        stored.set_entry(turn)
        turns.append(
            {
                "game_id": game_id,
                "number": number,
                "player": stored.player,
                "move": stored.move,
                "spy": stored.spy,
                "created_at": created,
                "submission_id": None,
            }
        )
    return Rows(
        game={
            "first_seat": item.setup.first_player,
            "spies": None
            if item.setup.spies is None
            else [{"slot": place.slot, "facing": place.facing.value} for place in item.setup.spies],
        },
        seats=tuple({"colour": colour.value} for colour in item.setup.colours),
        tables={SpyTurn: turns},
    )


def csv_rows(game: SpyGame) -> list[list[Any]]:
    """Its rows in the spreadsheet of every game (``registry.CSV_COLUMNS``): one per turn,
    naming who played it (Spy keeps no points)."""
    names = game.player_names
    day = game.created_at.date().isoformat()
    return [
        [game.id, day, "", turn.number, "", "", spreadsheet_text(names[turn.player]), turn.player + 1, "", "", "", "", KEY]
        for turn in game.turns
    ]
