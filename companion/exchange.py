"""The ``companion/1`` file: every game's inputs, with what they derive beside them.

Export writes inputs at a game's top level and derived figures under ``"derived"``.
Import ignores ``"derived"``, replays the inputs through the rules, and writes
nothing unless every game in the file is valid.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import select

from .extensions import db
from .models import BLACK_SPY, SPY, Deal, Game, Seat, SpyTurn, cards_from_json, cards_to_json, player_named, utcnow
from .rules import Message, N_, RulesError
from .rules import black_spy as bs
from .rules import spy

FORMAT = "companion/1"


class ImportRefused(ValueError):
    """A file that cannot be imported; ``problems`` names each game and deal at fault."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = list(problems)


def _timestamp(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z")


def export_file(games: Iterable[Game]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "exported_at": _timestamp(utcnow()),
        "games": [game_to_json(game) for game in games],
    }


def game_to_json(game: Game) -> dict[str, Any]:
    if game.kind == SPY:
        return spy_game_to_json(game)
    return black_spy_game_to_json(game)


def black_spy_game_to_json(game: Game) -> dict[str, Any]:
    names = game.player_names
    state = game.state()
    rules = state.setup.rules
    deals = []
    for deal in game.deals:
        if deal.cards is not None:
            deals.append({"cards": dict(zip(names, deal.cards, strict=True)), "shooter": None})
        else:
            shooter = None if deal.shooter is None else names[deal.shooter]
            deals.append({"raw": dict(zip(names, deal.raw or [], strict=True)), "shooter": shooter})
    return {
        "id": game.id,
        "kind": BLACK_SPY,
        "rules": {
            "preset": game.preset,
            "end_value": game.end_value,
            "shoot_rule": game.shoot_rule,
            "first_lead": game.first_lead,
        },
        "players": list(names),
        "first_dealer": names[game.first_seat],
        "created_at": _timestamp(game.created_at),
        "deals": deals,
        "derived": derived_json(state, rules),
    }


def derived_json(state: bs.GameState, rules: bs.RuleSet) -> dict[str, Any]:
    names = state.setup.players

    def by_name(values: Sequence[int]) -> dict[str, int]:
        return dict(zip(names, values, strict=True))

    nxt = state.next
    return {
        "end_value": state.end_value,
        "deal_total": rules.deal_total,
        "finished": state.finished,
        "winners": [names[seat] for seat in state.winners],
        "totals": by_name(state.totals),
        "deals": [
            {
                "number": deal.number,
                "dealer": names[deal.info.dealer],
                "pass": deal.info.pass_.value,
                "raw": by_name(deal.raw),
                "shooter": None if deal.shooter is None else names[deal.shooter],
                "scores": by_name(deal.scores),
                "totals": by_name(deal.totals),
            }
            for deal in state.deals
        ],
        "next": None
        if nxt is None
        else {
            "number": nxt.number,
            "dealer": names[nxt.dealer],
            "pass": nxt.pass_.value,
            "cards_each": nxt.cards_each,
        },
    }


def spy_game_to_json(game: Game) -> dict[str, Any]:
    names = game.player_names
    state = game.spy_state()
    turns = []
    for turn in game.turns:
        item: dict[str, Any] = {"player": names[turn.player]}
        if turn.move is not None:
            item["move"] = dict(turn.move)
        item["spy"] = None if turn.spy is None else {
            "target": names[turn.spy["target"]],
            # a card counted from the owner's left, leaving out the Spy
            "slot": turn.spy["card"],
            "answer": turn.spy["answer"],
        }
        turns.append(item)
    data: dict[str, Any] = {
        "id": game.id,
        "kind": SPY,
        "players": list(names),
        "colours": {name: seat.colour for name, seat in zip(names, game.seats, strict=True)},
        "first_player": names[game.first_seat],
        "created_at": _timestamp(game.created_at),
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


CSV_COLUMNS = (
    "game_id", "date", "rule_set", "deal", "dealer", "pass", "player", "seat",
    "raw_points", "score", "running_total", "shooter",
)


def csv_text(games: Iterable[Game]) -> str:
    """One row per player per deal of every Black Spy game, for a spreadsheet."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in games:
        if game.kind != BLACK_SPY:
            continue
        state = game.state()
        names = state.setup.players
        rule_set = game.preset or "standard"
        if game.end_value is not None:
            rule_set += f" (end {game.end_value})"
        for deal in state.deals:
            for seat, name in enumerate(names):
                writer.writerow([
                    game.id, game.created_at.date().isoformat(), rule_set, deal.number,
                    names[deal.info.dealer], deal.info.pass_.value, name, seat + 1,
                    deal.raw[seat], deal.scores[seat], deal.totals[seat],
                    "yes" if deal.shooter == seat else "no",
                ])
    return out.getvalue()


# --- import ------------------------------------------------------------------------


@dataclass(frozen=True)
class GameInput:
    """One Black Spy game of a file, checked against the rules and ready to store."""

    id: str | None
    created_at: datetime | None
    preset: str
    end_value: int | None
    shoot_rule: bool | None
    first_lead: str | None
    setup: bs.Setup
    entries: tuple[bs.DealEntry, ...]


@dataclass(frozen=True)
class SpyInput:
    """One Spy game of a file, its turns replayed through the rules."""

    id: str | None
    created_at: datetime | None
    setup: spy.Setup
    turns: tuple[spy.Turn, ...]


class _Bad(ValueError):
    """One thing wrong with a game in a file, as a message for the reader."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


def _shown(value: Any) -> str:
    # a value from the file, quoted and cut short: it is shown, never trusted
    return repr(value)[:40]


def _field(name: str, field: str) -> Message:
    return N_("%(name)s's %(field)s", name=name, field=field)


def _about_game(index: int, game_id: str | None, problem: Message) -> Message:
    if game_id is None:
        return N_("Game %(number)s: %(problem)s", number=index, problem=problem)
    return N_("Game %(number)s (%(id)s): %(problem)s", number=index, id=game_id, problem=problem)


def _int(value: Any, what: str) -> int:
    # json true/false are ints to python; a count is never a boolean
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(N_("%(what)s must be a whole number, not %(value)s", what=what, value=_shown(value)))
    return value


def _optional(value: Any, kind: type, what: str) -> Any:
    if value is None:
        return None
    if kind is int:
        return _int(value, what)
    if not isinstance(value, kind):
        raise _Bad(N_("%(what)s must be %(kind)s or null, not %(value)s", what=what, kind=kind.__name__, value=_shown(value)))
    return value


def _parse_entry(deal: Any, players: tuple[str, ...]) -> bs.DealEntry:
    if not isinstance(deal, dict):
        raise _Bad(N_("a deal must be an object"))
    if "cards" in deal and deal["cards"] is not None:
        cards = deal["cards"]
        if not isinstance(cards, dict) or set(cards) != set(players):
            raise _Bad(N_("cards must name exactly the players %(players)s", players=list(players)))
        taken = []
        for name in players:
            row = cards[name]
            if not isinstance(row, dict):
                raise _Bad(N_("%(name)s's cards must be an object", name=name))
            high = row.get("high_blacks", [])
            if not isinstance(high, list):
                raise _Bad(N_("%(name)s's high_blacks must be a list", name=name))
            taken.append(
                cards_from_json(
                    {
                        "black_spies": _int(row.get("black_spies", 0), _field(name, "black_spies")),
                        "low_blacks": _int(row.get("low_blacks", 0), _field(name, "low_blacks")),
                        "high_blacks": [_int(card, _field(name, "high_blacks")) for card in high],
                        "coloured_spies": _int(row.get("coloured_spies", 0), _field(name, "coloured_spies")),
                    }
                )
            )
        return bs.CardsEntry(tuple(taken))
    raw = deal.get("raw")
    if not isinstance(raw, dict) or set(raw) != set(players):
        raise _Bad(N_("raw must name exactly the players %(players)s", players=list(players)))
    shooter = deal.get("shooter")
    if shooter is not None and shooter not in players:
        raise _Bad(N_("the shooter %(name)s is not a player", name=_shown(shooter)))
    return bs.PointsEntry(
        raw=tuple(_int(raw[name], _field(name, "points")) for name in players),
        shooter=None if shooter is None else players.index(shooter),
    )


def _parse_black_spy(data: dict[str, Any]) -> GameInput:
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise _Bad(N_("rules must be an object"))
    preset = rules_data.get("preset", "standard")
    if not isinstance(preset, str):
        raise _Bad(N_("rules.preset must be a string"))
    end_value = _optional(rules_data.get("end_value"), int, N_("rules.end_value"))
    shoot_rule = _optional(rules_data.get("shoot_rule"), bool, N_("rules.shoot_rule"))
    first_lead = _optional(rules_data.get("first_lead"), str, N_("rules.first_lead"))
    rules = bs.rule_set(preset, end_value=end_value, shoot_rule=shoot_rule, first_lead=first_lead)
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise _Bad(N_("players must be a list of names"))
    dealer = data.get("first_dealer")
    if dealer not in players:
        raise _Bad(N_("the first dealer %(name)s is not one of the players", name=_shown(dealer)))
    setup = bs.new_setup(rules, players, players.index(dealer))
    if setup.players != tuple(players):
        raise _Bad(N_("player names must be trimmed and distinct"))
    deals = data.get("deals", [])
    if not isinstance(deals, list):
        raise _Bad(N_("deals must be a list"))
    entries = []
    for number, deal in enumerate(deals, start=1):
        try:
            entries.append(_parse_entry(deal, setup.players))
        except _Bad as error:
            raise _Bad(N_("deal %(number)s: %(problem)s", number=number, problem=error.message)) from None
    bs.replay(setup, entries)  # raises, naming the deal, if any deal breaks the rules
    return GameInput(
        id=_parse_id(data.get("id")),
        created_at=_parse_time(data.get("created_at")),
        preset=rules.preset.value,
        end_value=end_value,
        shoot_rule=shoot_rule,
        first_lead=first_lead,
        setup=setup,
        entries=tuple(entries),
    )


def _parse_spy(data: dict[str, Any]) -> SpyInput:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise _Bad(N_("players must be a list of names"))
    colours = data.get("colours")
    if not isinstance(colours, dict) or set(colours) != set(players):
        raise _Bad(N_("colours must give a colour to each of the players %(players)s", players=list(players)))
    first = data.get("first_player")
    if first not in players:
        raise _Bad(N_("the first player %(name)s is not one of the players", name=_shown(first)))
    places = None
    spies = data.get("spies")
    if spies is not None:
        if not isinstance(spies, dict) or set(spies) != set(players):
            raise _Bad(N_("spies must place each player's Spy"))
        places = []
        for name in players:
            place = spies[name]
            if not isinstance(place, dict) or place.get("facing") not in set(spy.Facing):
                raise _Bad(N_("%(name)s's Spy needs a slot and a facing (left or right)", name=name))
            places.append(spy.SpyPlace(_int(place.get("slot"), _field(name, "slot")), spy.Facing(place["facing"])))
    setup = spy.new_setup(players, [str(colours[name]) for name in players], players.index(first), places)
    if setup.players != tuple(players):
        raise _Bad(N_("player names must be trimmed and distinct"))
    raw_turns = data.get("turns", [])
    if not isinstance(raw_turns, list):
        raise _Bad(N_("turns must be a list"))
    turns = []
    for number, item in enumerate(raw_turns, start=1):
        try:
            turns.append(_parse_turn(item, setup.players))
        except _Bad as error:
            raise _Bad(N_("turn %(number)s: %(problem)s", number=number, problem=error.message)) from None
    spy.replay(setup, turns)  # raises, naming the turn, if any turn is impossible
    return SpyInput(
        id=_parse_id(data.get("id")),
        created_at=_parse_time(data.get("created_at")),
        setup=setup,
        turns=tuple(turns),
    )


def _parse_turn(item: Any, players: tuple[str, ...]) -> spy.Turn:
    if not isinstance(item, dict) or item.get("player") not in players:
        raise _Bad(N_("a turn names its player"))
    move = item.get("move")
    if move is not None:
        if not isinstance(move, dict):
            raise _Bad(N_("a move must be an object"))
        flags = {key: move.get(key, False) for key in ("turn_before", "turn_after", "other_end")}
        if not all(isinstance(flag, bool) for flag in flags.values()):
            raise _Bad(N_("turn_before, turn_after and other_end are true or false"))
        move = spy.Move(steps=_int(move.get("steps"), N_("a move's steps")), **flags)
    action = item.get("spy")
    if action is not None:
        if not isinstance(action, dict) or action.get("target") not in players:
            raise _Bad(N_("a spy names the player spied on"))
        if action.get("answer") not in set(spy.Answer):
            raise _Bad(N_("unknown answer %(answer)s", answer=_shown(action.get("answer"))))
        slot = action.get("slot")
        action = spy.SpyAction(
            target=players.index(action["target"]),
            card=None if slot is None else _int(slot, N_("a spy's slot")),
            answer=spy.Answer(action["answer"]),
        )
    return spy.Turn(player=players.index(item["player"]), move=move, spy=action)


def _parse_id(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or not 4 <= len(value) <= 32 or not value.isascii() or not value.isalnum():
        raise _Bad(N_("id must be 4 to 32 letters and digits, not %(value)s", value=_shown(value)))
    return value


def _parse_time(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Bad(N_("created_at must be an ISO 8601 time"))
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise _Bad(N_("created_at %(value)s is not an ISO 8601 time", value=_shown(value))) from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def parse_file(data: Any) -> list[GameInput | SpyInput]:
    """Check a whole file; raise :class:`ImportRefused` listing every bad game."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([N_('This is not a %(format)s file (its "format" must be "%(format)s").', format=FORMAT)])
    games = data.get("games")
    if not isinstance(games, list):
        raise ImportRefused([N_('The file has no "games" list.')])
    problems: list[Message] = []
    parsed: list[GameInput | SpyInput] = []
    seen: set[str] = set()
    for index, game in enumerate(games, start=1):
        game_id = game["id"][:32] if isinstance(game, dict) and isinstance(game.get("id"), str) else None
        try:
            if not isinstance(game, dict):
                raise _Bad(N_("a game must be an object"))
            parser = {BLACK_SPY: _parse_black_spy, SPY: _parse_spy}.get(game.get("kind", BLACK_SPY))
            if parser is None:
                raise _Bad(N_("unknown kind %(kind)s", kind=_shown(game.get("kind"))))
            item = parser(game)
        except (_Bad, RulesError) as error:
            problems.append(_about_game(index, game_id, error.message))
            continue
        if item.id is not None:
            if item.id in seen:
                problems.append(_about_game(index, game_id, N_("the id %(id)s appears twice in the file", id=item.id)))
            seen.add(item.id)
        parsed.append(item)
    if not problems:
        ids = [item.id for item in parsed if item.id is not None]
        if ids:
            taken = set(db.session.scalars(select(Game.id).where(Game.id.in_(ids))))
            problems += [N_("Game %(id)s: a game with this id is already here", id=game_id) for game_id in sorted(taken)]
    if problems:
        raise ImportRefused(problems)
    return parsed


def store(items: Sequence[GameInput | SpyInput]) -> list[Game]:
    """Write checked games in one transaction."""
    games = []
    for item in items:
        if isinstance(item, SpyInput):
            game = new_spy_game(item.setup, item.turns, item.created_at)
        else:
            game = _black_spy_game(item)
        if item.id is not None:
            game.id = item.id
        if item.created_at is not None:
            game.created_at = item.created_at
        game.touch()
        db.session.add(game)
        games.append(game)
    db.session.commit()
    return games


def new_spy_game(setup: spy.Setup, turns: Sequence[spy.Turn] = (), seen: datetime | None = None) -> Game:
    """A Spy game's rows, seated as the setup says."""
    game = Game(
        kind=SPY,
        first_seat=setup.first_player,
        spies=None if setup.spies is None else [
            {"slot": place.slot, "facing": place.facing.value} for place in setup.spies
        ],
    )
    game.seats = [
        Seat(position=seat, player=player_named(name, seen), colour=colour.value)
        for seat, (name, colour) in enumerate(zip(setup.players, setup.colours, strict=True))
    ]
    for number, turn in enumerate(turns, start=1):
        row = SpyTurn(number=number)
        row.set_turn(turn)
        game.turns.append(row)
    return game


def _black_spy_game(item: GameInput) -> Game:
    return new_black_spy_game(
        item.setup,
        HouseRules(item.preset, item.end_value, item.shoot_rule, item.first_lead),
        item.entries,
        item.created_at,
    )


@dataclass(frozen=True)
class HouseRules:
    """A Black Spy game's rule set as stored: the preset and what the table changed."""

    preset: str
    end_value: int | None = None
    shoot_rule: bool | None = None
    first_lead: str | None = None


def new_black_spy_game(
    setup: bs.Setup, rules: HouseRules, entries: Sequence[bs.DealEntry] = (), seen: datetime | None = None
) -> Game:
    """A Black Spy game's rows, seated as the setup says."""
    game = Game(
        kind=BLACK_SPY,
        preset=rules.preset,
        end_value=rules.end_value,
        shoot_rule=rules.shoot_rule,
        first_lead=rules.first_lead,
        first_seat=setup.first_dealer,
    )
    game.seats = [Seat(position=position, player=player_named(name, seen)) for position, name in enumerate(setup.players)]
    for number, entry in enumerate(entries, start=1):
        deal = Deal(number=number)
        deal.set_entry(entry)
        game.deals.append(deal)
    return game


def import_file(data: Any) -> list[Game]:
    return store(parse_file(data))


__all__ = ["FORMAT", "ImportRefused", "cards_to_json", "export_file", "game_to_json", "import_file", "parse_file"]
