"""The ``companion/1`` file: every game's inputs, with what they derive beside them.

Export writes inputs at a game's top level and derived figures under ``"derived"``.
Import ignores ``"derived"``, replays the inputs through the rules, and writes
nothing unless every game in the file is valid.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import insert, select, update

from .extensions import db
from .models import (
    BLACK_SPY,
    PUBLIC_ID_ALPHABET,
    PUBLIC_ID_LENGTH,
    SPY,
    Deal,
    DealScore,
    Game,
    KeptFigures,
    Player,
    Seat,
    SpyTurn,
    cards_from_json,
    cards_to_json,
    insert_players,
    kept_figures,
    new_public_id,
    player_named,
    utcnow,
)
from .rules import Message, N_, Nn_, RulesError, files
from .rules import black_spy as bs
from .rules import spy
from .rules.players import name_problem
from .stats import hold_players, refresh_players

FORMAT = "companion/1"


class ImportRefused(ValueError):
    """A file that cannot be imported; ``problems`` names each game and deal at fault,
    the first of them (``more`` counts the others). ``existing`` counts games refused
    only because a game with their id is already here."""

    def __init__(self, problems: Sequence[str], more: int = 0, existing: int = 0) -> None:
        listed = list(problems)[: files.MAX_PROBLEMS_LISTED]
        more += len(problems) - len(listed)
        super().__init__("; ".join(listed) + (f"; and {more} more" if more else ""))
        self.problems = listed
        self.more = more
        self.existing = existing


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


# a cell a spreadsheet would read as a formula (=HYPERLINK(...) in a player's name);
# OWASP: https://owasp.org/www-community/attacks/CSV_Injection
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """Text that a spreadsheet shows as typed: a leading ' keeps it from being a formula.

    Numbers are written as numbers, never through this.

    >>> spreadsheet_text("=1+2"), spreadsheet_text("-Cy"), spreadsheet_text("Ana")
    ("'=1+2", "'-Cy", 'Ana')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


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
                    spreadsheet_text(names[deal.info.dealer]), deal.info.pass_.value, spreadsheet_text(name), seat + 1,
                    deal.raw[seat], deal.scores[seat], deal.totals[seat],
                    "yes" if deal.shooter == seat else "no",
                ])
    return out.getvalue()


# --- import ------------------------------------------------------------------------
#
# An import is checked whole first, by the rules alone, with no database in sight; then
# it is written in one short transaction of bulk inserts. So a large file keeps the
# other tables waiting for a moment only, and a refused one writes nothing.


@dataclass(frozen=True)
class GameInput:
    """One Black Spy game of a file, checked against the rules and ready to store."""

    id: str | None  # None: the game gets a new id
    created_at: datetime | None
    preset: str
    end_value: int | None
    shoot_rule: bool | None
    first_lead: str | None
    setup: bs.Setup
    entries: tuple[bs.DealEntry, ...]
    state: bs.GameState
    id_replaced: bool = False  # the file's id was too short or malformed to keep


@dataclass(frozen=True)
class SpyInput:
    """One Spy game of a file, its turns replayed through the rules."""

    id: str | None
    created_at: datetime | None
    setup: spy.Setup
    turns: tuple[spy.Turn, ...]
    state: spy.SpyState
    id_replaced: bool = False


@dataclass(frozen=True)
class Imported:
    """What an import did: games written, games skipped as already here, ids replaced."""

    games: list[str] = field(default_factory=list)
    skipped: int = 0
    new_ids: int = 0


class _Bad(ValueError):
    """One thing wrong with a game in a file, as a message for the reader."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message


NOT_JSON = N_("This is not a companion backup: the file is not JSON text, so it cannot be read.")


class _Duplicate(ValueError):
    pass


class _TooLong(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of two equal keys without a word: a file that says two things
    # about one field is refused instead
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]
        raise _Duplicate(repeated)
    return data


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > files.MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def read_json(raw: bytes) -> Any:
    """The JSON in a file's bytes, or :class:`ImportRefused` saying in words why not.

    UTF-8 with or without a byte-order mark; no key twice in one object; no number of
    more digits than any score has; nesting no deeper than a companion/1 file's.
    """
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text, object_pairs_hook=_object, parse_int=_whole)
    except _Duplicate as error:
        raise ImportRefused([N_("The file gives %(key)s twice in one object; say it once.", key=_shown(str(error)))]) from None
    except _TooLong as error:
        raise ImportRefused([
            N_("The file has a number of %(digits)s digits (%(start)s…); no figure of a game has more than %(most)s.",
               digits=len(str(error)), start=str(error)[:12], most=files.MAX_DIGITS)
        ]) from None
    except RecursionError:
        raise ImportRefused([_too_deep()]) from None
    except (UnicodeDecodeError, ValueError):
        raise ImportRefused([NOT_JSON]) from None
    if _depth(data) > files.MAX_DEPTH:
        raise ImportRefused([_too_deep()])
    return data


def _too_deep() -> Message:
    return N_("The file nests lists and objects more than %(most)s deep; a companion/1 file never does.", most=files.MAX_DEPTH)


def _depth(value: Any) -> int:
    """How deep lists and objects nest, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= files.MAX_DEPTH:
                stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _shown(value: Any) -> str:
    # a value from the file, quoted and cut short: it is shown, never trusted
    if isinstance(value, dict | list):
        return "{…}" if isinstance(value, dict) else "[…]"
    return repr(value)[:40]


def _field(name: str, field: str) -> Message:
    return N_("%(name)s's %(field)s", name=name, field=field)


def _about_game(index: int, game_id: str | None, problem: Message) -> Message:
    if game_id is None:
        return N_("Game %(number)s: %(problem)s", number=index, problem=problem)
    return N_("Game %(number)s (%(id)s): %(problem)s", number=index, id=game_id, problem=problem)


def _int(value: Any, what: str | Callable[[], str]) -> int:
    """A whole number from the file; ``what`` names it (made only when it is wrong: a
    large file has hundreds of thousands of numbers)."""
    # json true/false are ints to python; a count is never a boolean
    if isinstance(value, bool) or not isinstance(value, int):
        named = what() if callable(what) else what
        raise _Bad(N_("%(what)s must be a whole number, not %(value)s", what=named, value=_shown(value)))
    return value


def _optional(value: Any, kind: type, what: str) -> Any:
    if value is None:
        return None
    if kind is int:
        return _int(value, what)
    if not isinstance(value, kind):
        raise _Bad(N_("%(what)s must be %(kind)s or null, not %(value)s", what=what, kind=kind.__name__, value=_shown(value)))
    return value


def _one_of(value: Any, choices: type[Any]) -> bool:
    """Whether a value from the file is one of an enum's values (a list or object is not)."""
    return isinstance(value, str) and value in set(choices)


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
                        "black_spies": _int(row.get("black_spies", 0), lambda: _field(name, "black_spies")),
                        "low_blacks": _int(row.get("low_blacks", 0), lambda: _field(name, "low_blacks")),
                        "high_blacks": [_int(card, lambda: _field(name, "high_blacks")) for card in high],
                        "coloured_spies": _int(row.get("coloured_spies", 0), lambda: _field(name, "coloured_spies")),
                    }
                )
            )
        return bs.CardsEntry(tuple(taken))
    raw = deal.get("raw")
    if not isinstance(raw, dict) or set(raw) != set(players):
        raise _Bad(N_("raw must name exactly the players %(players)s", players=list(players)))
    shooter = deal.get("shooter")
    if shooter is not None and (not isinstance(shooter, str) or shooter not in players):
        raise _Bad(N_("the shooter %(name)s is not a player", name=_shown(shooter)))
    return bs.PointsEntry(
        raw=tuple(_int(raw[name], lambda name=name: _field(name, "points")) for name in players),
        shooter=None if shooter is None else players.index(shooter),
    )


def _names(data: dict[str, Any]) -> list[str]:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise _Bad(N_("players must be a list of names"))
    # before any message quotes a name: one that no page could show is refused first
    for number, name in enumerate(players, start=1):
        if (problem := name_problem(" ".join(name.split()))) is not None:
            raise _Bad(N_("player %(number)s: %(problem)s", number=number, problem=problem))
    return players


def _listed(data: dict[str, Any], key: str, most: int, too_many: Message) -> list[Any]:
    items = data.get(key, [])
    if not isinstance(items, list):
        raise _Bad(N_("%(key)s must be a list", key=key))
    if len(items) > most:
        raise _Bad(too_many)
    return items


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
    players = _names(data)
    dealer = data.get("first_dealer")
    if not isinstance(dealer, str) or dealer not in players:
        raise _Bad(N_("the first dealer %(name)s is not one of the players", name=_shown(dealer)))
    setup = bs.new_setup(rules, players, players.index(dealer))
    if setup.players != tuple(players):
        raise _Bad(N_("player names must be trimmed and distinct"))
    deals = _listed(
        data, "deals", files.MAX_DEALS,
        Nn_("a game may have at most %(num)s deal", "a game may have at most %(num)s deals", files.MAX_DEALS),
    )
    entries = []
    for number, deal in enumerate(deals, start=1):
        try:
            entries.append(_parse_entry(deal, setup.players))
        except _Bad as error:
            raise _Bad(N_("deal %(number)s: %(problem)s", number=number, problem=error.message)) from None
    state = bs.replay(setup, entries)  # raises, naming the deal, if any deal breaks the rules
    game_id, replaced = _parse_id(data.get("id"))
    return GameInput(
        id=game_id,
        created_at=_parse_time(data.get("created_at")),
        preset=rules.preset.value,
        end_value=end_value,
        shoot_rule=shoot_rule,
        first_lead=first_lead,
        setup=setup,
        entries=tuple(entries),
        state=state,
        id_replaced=replaced,
    )


def _parse_spy(data: dict[str, Any]) -> SpyInput:
    players = _names(data)
    colours = data.get("colours")
    if not isinstance(colours, dict) or set(colours) != set(players):
        raise _Bad(N_("colours must give a colour to each of the players %(players)s", players=list(players)))
    first = data.get("first_player")
    if not isinstance(first, str) or first not in players:
        raise _Bad(N_("the first player %(name)s is not one of the players", name=_shown(first)))
    places = None
    spies = data.get("spies")
    if spies is not None:
        if not isinstance(spies, dict) or set(spies) != set(players):
            raise _Bad(N_("spies must place each player's Spy"))
        places = []
        for name in players:
            place = spies[name]
            if not isinstance(place, dict) or not _one_of(place.get("facing"), spy.Facing):
                raise _Bad(N_("%(name)s's Spy needs a slot and a facing (left or right)", name=name))
            places.append(spy.SpyPlace(_int(place.get("slot"), _field(name, "slot")), spy.Facing(place["facing"])))
    setup = spy.new_setup(players, [str(colours[name]) for name in players], players.index(first), places)
    if setup.players != tuple(players):
        raise _Bad(N_("player names must be trimmed and distinct"))
    raw_turns = _listed(
        data, "turns", files.MAX_TURNS,
        Nn_("a game may have at most %(num)s turn", "a game may have at most %(num)s turns", files.MAX_TURNS),
    )
    turns = []
    for number, item in enumerate(raw_turns, start=1):
        try:
            turns.append(_parse_turn(item, setup.players))
        except _Bad as error:
            raise _Bad(N_("turn %(number)s: %(problem)s", number=number, problem=error.message)) from None
    state = spy.replay(setup, turns)  # raises, naming the turn, if any turn is impossible
    game_id, replaced = _parse_id(data.get("id"))
    return SpyInput(
        id=game_id,
        created_at=_parse_time(data.get("created_at")),
        setup=setup,
        turns=tuple(turns),
        state=state,
        id_replaced=replaced,
    )


def _parse_turn(item: Any, players: tuple[str, ...]) -> spy.Turn:
    if not isinstance(item, dict) or not isinstance(item.get("player"), str) or item["player"] not in players:
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
        if not isinstance(action, dict) or not isinstance(action.get("target"), str) or action["target"] not in players:
            raise _Bad(N_("a spy names the player spied on"))
        if not _one_of(action.get("answer"), spy.Answer):
            raise _Bad(N_("unknown answer %(answer)s", answer=_shown(action.get("answer"))))
        slot = action.get("slot")
        action = spy.SpyAction(
            target=players.index(action["target"]),
            card=None if slot is None else _int(slot, N_("a spy's slot")),
            answer=spy.Answer(action["answer"]),
        )
    return spy.Turn(player=players.index(item["player"]), move=move, spy=action)


def _parse_id(value: Any) -> tuple[str | None, bool]:
    """The id to keep, and whether the file's own id was given up.

    An id shorter than a new one could be guessed, and one of other characters may not
    fit a url: either is replaced by a new id. A longer one of the same alphabet is kept.
    """
    if value is None:
        return None, False
    if (
        isinstance(value, str)
        and PUBLIC_ID_LENGTH <= len(value) <= Game.id.type.length
        and all(character in PUBLIC_ID_ALPHABET for character in value)
    ):
        return value, False
    return None, True


# the times a game can have been played: a file's 0001 or 9999 is a mistake, and would
# overflow the day arithmetic of the statistics
EARLIEST, LATEST = datetime(1970, 1, 1), datetime(9000, 1, 1)


def _parse_time(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise _Bad(N_("created_at must be an ISO 8601 time"))
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):
        raise _Bad(N_("created_at %(value)s is not an ISO 8601 time", value=_shown(value))) from None
    if not EARLIEST <= moment < LATEST:
        raise _Bad(N_("created_at %(value)s is not a time a game was played", value=_shown(value)))
    return moment


PARSERS = {BLACK_SPY: _parse_black_spy, SPY: _parse_spy}


def parse_file(data: Any) -> list[GameInput | SpyInput]:
    """Check a whole file by the rules alone; raise :class:`ImportRefused` listing the
    first bad games and counting the others. Reads no database."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([N_('This is not a %(format)s file (its "format" must be "%(format)s").', format=FORMAT)])
    games = data.get("games")
    if not isinstance(games, list):
        raise ImportRefused([N_('The file has no "games" list.')])
    if len(games) > files.MAX_GAMES:
        raise ImportRefused([
            N_("The file holds %(games)s games; one file may hold at most %(most)s. Split it and import each part.",
               games=len(games), most=files.MAX_GAMES)
        ])
    problems: list[Message] = []
    parsed: list[GameInput | SpyInput] = []
    seen: set[str] = set()
    for index, game in enumerate(games, start=1):
        # the file's id names the game in a refusal: as it is when it could be an id, quoted when not
        game_id = None
        if isinstance(game, dict) and game.get("id") is not None:
            raw_id = game["id"]
            game_id = raw_id if isinstance(raw_id, str) and raw_id.isascii() and raw_id.isalnum() and len(raw_id) <= 32 else _shown(raw_id)
        try:
            if not isinstance(game, dict):
                raise _Bad(N_("a game must be an object"))
            kind = game.get("kind", BLACK_SPY)
            if not isinstance(kind, str) or kind not in PARSERS:
                raise _Bad(N_("unknown kind %(kind)s", kind=_shown(kind)))
            item = PARSERS[kind](game)
        except (_Bad, RulesError) as error:
            problems.append(_about_game(index, game_id, error.message))
            continue
        if item.id is not None:
            if item.id in seen:
                problems.append(_about_game(index, game_id, N_("the id %(id)s appears twice in the file", id=item.id)))
            seen.add(item.id)
        parsed.append(item)
    if problems:
        raise ImportRefused(problems)
    return parsed


def store(items: Sequence[GameInput | SpyInput], skip_existing: bool = False) -> Imported:
    """Write checked games in one transaction of bulk inserts, and commit.

    A game whose id is already here refuses the whole file, or with ``skip_existing``
    is left out (a backup restored into the database it came from).
    """
    kept_ids = [item.id for item in items if item.id is not None]
    taken = set()
    for chunk in _chunks(kept_ids):
        taken |= set(db.session.scalars(select(Game.id).where(Game.id.in_(chunk))))
    if taken and not skip_existing:
        db.session.rollback()
        raise ImportRefused(
            [N_("Game %(id)s: a game with this id is already here", id=game_id) for game_id in sorted(taken)],
            existing=len(taken),
        )
    items = [item for item in items if item.id not in taken]
    now = utcnow()
    players = insert_players(
        {name: max((item.created_at or now) for item in items if name in item.setup.players) for name in _all_names(items)}
    )
    games, seats, deals, scores, turns = [], [], [], [], []
    for item in items:
        game_id = item.id or new_public_id()
        figures: KeptFigures = kept_figures(item.state)
        created = item.created_at or now
        row: dict[str, Any] = {
            "id": game_id, "created_at": created, "updated_at": now, "first_seat": 0, "version": 1,
            "watch_id": new_public_id(), "finished": figures.finished, "rounds": figures.rounds,
            "next_seat": figures.next_seat,
            # every row names every column: one statement inserts games of either kind
            "preset": None, "end_value": None, "shoot_rule": None, "first_lead": None, "spies": None,
        }
        colours: Sequence[str | None]
        if isinstance(item, SpyInput):
            row.update(kind=SPY, first_seat=item.setup.first_player, spies=None if item.setup.spies is None else [
                {"slot": place.slot, "facing": place.facing.value} for place in item.setup.spies
            ])
            colours = [colour.value for colour in item.setup.colours]
            for number, turn in enumerate(item.turns, start=1):
                stored = SpyTurn(number=number)
                stored.set_turn(turn)
                turns.append({"game_id": game_id, "number": number, "player": stored.player, "move": stored.move,
                              "spy": stored.spy, "created_at": created})
        else:
            row.update(kind=BLACK_SPY, preset=item.preset, end_value=item.end_value, shoot_rule=item.shoot_rule,
                       first_lead=item.first_lead, first_seat=item.setup.first_dealer)
            colours = [None] * item.setup.size
            for number, entry in enumerate(item.entries, start=1):
                stored = Deal(number=number)
                stored.set_entry(entry)
                deals.append({"game_id": game_id, "number": number, "raw": stored.raw, "cards": stored.cards,
                              "shooter": stored.shooter, "created_at": created})
            scores += [{"game_id": game_id, **score} for score in figures.scores]
        games.append(row)
        seats += [
            {"game_id": game_id, "position": position, "player_id": players[name], "colour": colours[position],
             "total": figures.totals[position], "won": figures.won[position]}
            for position, name in enumerate(item.setup.players)
        ]
    for model, rows in ((Game, games), (Seat, seats), (Deal, deals), (DealScore, scores), (SpyTurn, turns)):
        if rows:
            # the table's own insert, not the ORM's: the rows are complete, and the ORM's
            # bookkeeping per row would be most of the time
            db.session.execute(insert(model.__table__), rows)
    hold_players(players.values())
    refresh_players(set(players.values()))
    db.session.commit()
    return Imported(games=[row["id"] for row in games], skipped=len(taken), new_ids=sum(item.id_replaced for item in items))


def _all_names(items: Sequence[GameInput | SpyInput]) -> list[str]:
    return list(dict.fromkeys(name for item in items for name in item.setup.players))


def _chunks(values: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


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


def import_bytes(raw: bytes, skip_existing: bool = False) -> Imported:
    """Read, check and store a companion/1 file: all of its games or none."""
    return store(parse_file(read_json(raw)), skip_existing)


def import_file(data: Any, skip_existing: bool = False) -> Imported:
    return store(parse_file(data), skip_existing)


__all__ = [
    "FORMAT", "ImportRefused", "Imported", "cards_to_json", "export_file", "game_to_json", "import_bytes", "import_file",
    "parse_file", "read_json", "spreadsheet_text",
]
