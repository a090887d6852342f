"""The ``companion/1`` file: every game's inputs, with what they derive beside them.

Export writes inputs at a game's top level and derived figures under ``"derived"``,
each kind by its own codec (companion/<kind>_codec.py, found through the registry).
Import ignores ``"derived"``, replays the inputs through the rules, and writes nothing
unless every game in the file is valid.

An import is checked whole first, by the rules alone, with no database in sight; then
it is written in one short transaction of bulk inserts. So a large file keeps the other
tables waiting for a moment only, and a refused one writes nothing.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, insert, select, tuple_
from sqlalchemy.exc import IntegrityError

from . import kinds
from .black_spy_codec import CSV_COLUMNS
from .codecs import Bad, about_game, shown, timestamp
from .extensions import db
from .models import (
    BLACK_SPY,
    SPY,
    Deal,
    Game,
    Seat,
    SpyTurn,
    cards_to_json,
    insert_players,
    new_public_id,
    player_named,
    utcnow,
    writing,
)
from .rules import N_, Message, RulesError, files, spy
from .rules import black_spy as bs
from .stats import hold_players, refresh_days, refresh_span

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


def export_file(games: Iterable[Game]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "exported_at": timestamp(utcnow()),
        "games": [game_to_json(game) for game in games],
    }


def export_chunks(games: Iterable[Game]) -> Iterator[str]:
    """The companion/1 file of ``games`` as export_file makes it, a game at a time: a
    club's whole history is written in the memory of one game."""
    yield f'{{\n  "format": {json.dumps(FORMAT)},\n  "exported_at": {json.dumps(timestamp(utcnow()))},\n  "games": ['
    separator = "\n"
    for game in games:
        yield separator + textwrap.indent(json.dumps(game_to_json(game), indent=2, ensure_ascii=False), "    ")
        separator = ",\n"
    yield "\n  ]\n}\n" if separator != "\n" else "]\n}\n"


# games read at once by an export: enough that a query per batch costs nothing, few enough
# that a batch's games, their inputs and their replays are a few MB
EXPORT_BATCH = 200


def every_game(batch: int | None = None) -> Iterator[Game]:
    """Every game, oldest first, read a batch at a time with its inputs, each batch let go
    of once the next is read."""
    batch = batch or EXPORT_BATCH
    after: tuple[datetime, str] | None = None
    while True:
        query = select(Game).order_by(Game.created_at, Game.id).limit(batch)
        if after is not None:
            query = query.where(tuple_(Game.created_at, Game.id) > after)
        games = db.session.scalars(query).all()
        if not games:
            return
        for kind in kinds.every():
            of_kind = [game for game in games if game.kind == kind.key]
            if of_kind and kind.preload is not None:
                kind.preload(of_kind)
        yield from games
        after = (games[-1].created_at, games[-1].id)
        # nothing of this batch is written: the session forgets it, and its memory goes
        db.session.expunge_all()


def game_to_json(game: Game) -> dict[str, Any]:
    return kinds.of(game).to_json(game)


def csv_text(games: Iterable[Game]) -> str:
    """One row per player per deal of every game of a kind with deals, for a spreadsheet."""
    return "".join(csv_chunks(games))


def csv_chunks(games: Iterable[Game]) -> Iterator[str]:
    """csv_text a game at a time, in the memory of one game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_COLUMNS)
    for game in games:
        kind = kinds.of(game)
        if kind.csv is not None:
            writer.writerows(kind.csv([game]))
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


@dataclass(frozen=True)
class Imported:
    """What an import did: games written, games skipped as already here, ids replaced."""

    games: list[str] = field(default_factory=list)
    skipped: int = 0
    new_ids: int = 0


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
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]  # add() is None: the "or" records the key and moves on
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
        raise ImportRefused([N_("The file gives %(key)s twice in one object; say it once.", key=shown(str(error)))]) from None
    except _TooLong as error:
        raise ImportRefused(
            [
                N_(
                    "The file has a number of %(digits)s digits (%(start)s…); no figure of a game has more than %(most)s.",
                    digits=len(str(error)),
                    start=str(error)[:12],
                    most=files.MAX_DIGITS,
                )
            ]
        ) from None
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


def parse_file(data: Any) -> list[kinds.Input]:
    """Check a whole file by the rules alone; raise :class:`ImportRefused` listing the
    first bad games and counting the others. Reads no database."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([N_('This is not a %(format)s file (its "format" must be "%(format)s").', format=FORMAT)])
    games = data.get("games")
    if not isinstance(games, list):
        raise ImportRefused([N_('The file has no "games" list.')])
    if len(games) > files.MAX_GAMES:
        raise ImportRefused(
            [
                N_(
                    "The file holds %(games)s games; one file may hold at most %(most)s. Split it and import each part.",
                    games=len(games),
                    most=files.MAX_GAMES,
                )
            ]
        )
    problems: list[Message] = []
    parsed: list[kinds.Input] = []
    seen: set[str] = set()
    for index, game in enumerate(games, start=1):
        # the file's id names the game in a refusal: as it is when it could be an id, quoted when not
        game_id = None
        if isinstance(game, dict) and game.get("id") is not None:
            raw_id = game["id"]
            game_id = (
                raw_id
                if isinstance(raw_id, str) and raw_id.isascii() and raw_id.isalnum() and len(raw_id) <= 32
                else shown(raw_id)
            )
        try:
            if not isinstance(game, dict):
                raise Bad(N_("a game must be an object"))
            # a file from before there were kinds holds Black Spy games only
            kind = kinds.named(game.get("kind", BLACK_SPY))
            if kind is None:
                raise Bad(N_("unknown kind %(kind)s", kind=shown(game.get("kind"))))
            item = kind.parse(game)
        except (Bad, RulesError) as error:
            problems.append(about_game(index, game_id, error.message))
            continue
        if item.id is not None:
            if item.id in seen:
                problems.append(about_game(index, game_id, N_("the id %(id)s appears twice in the file", id=item.id)))
            seen.add(item.id)
        parsed.append(item)
    if problems:
        raise ImportRefused(problems)
    return parsed


# every column of games: one statement inserts games of every kind, each row naming all
GAME_COLUMNS = tuple(column.name for column in Game.__table__.columns)
SEAT_COLUMNS = tuple(column.name for column in Seat.__table__.columns)


@dataclass
class _Prepared:
    """One game's rows, made before the write transaction begins; its seats name their
    players, whose ids are known only inside it."""

    item: kinds.Input
    game: dict[str, Any]
    seats: list[dict[str, Any]]
    tables: dict[Any, list[dict[str, Any]]]


def _prepare(item: kinds.Input, now: datetime) -> _Prepared:
    kind = kinds.named(item.kind)
    assert kind is not None
    game_id = item.id or new_public_id()
    created = item.created_at or now
    figures = kind.figures(item.state)
    made = kind.rows(item, game_id, created)
    game = {
        **dict.fromkeys(GAME_COLUMNS),
        "id": game_id,
        "kind": kind.key,
        "created_at": created,
        "updated_at": now,
        "first_seat": 0,
        "version": 1,
        "watch_id": new_public_id(),
        "finished": figures.finished,
        "rounds": figures.rounds,
        "next_seat": figures.next_seat,
        **made.game,
    }
    seats = [
        {
            **dict.fromkeys(SEAT_COLUMNS),
            "game_id": game_id,
            "position": position,
            "player_id": name,  # a name until the transaction knows its player's id
            "total": figures.totals[position],
            "won": figures.won[position],
            **(made.seats[position] if made.seats else {}),
        }
        for position, name in enumerate(item.players)
    ]
    return _Prepared(item, game, seats, {model: list(rows) for model, rows in made.tables.items()})


# games written in one transaction: some tenths of a second of SQLite's write lock, so a
# table's deal never waits long behind an import (benchmarks/import_scale.py)
IMPORT_BATCH = 250
# and the pause between two, in which a table's write waiting for the lock gets it
BATCH_PAUSE_SECONDS = 0.05


def store(items: Sequence[kinds.Input], skip_existing: bool = False) -> Imported:
    """Write checked games, a batch of short transactions of bulk inserts, all or none.

    Every row is made first, by the rules and in Python alone; the transactions (each holds
    SQLite's write lock from its first statement) only check ids, find or add the players,
    insert and recount. The games go in by their days, so each batch recounts the figures
    of the days it covers. A game whose id is already here refuses the whole file, or with
    ``skip_existing`` is left out (a backup restored where it came from). Should a batch fail
    (another phone's import took an id meanwhile), the batches written before it are taken
    out again: the import is all or nothing.
    """
    now = utcnow()
    prepared = sorted((_prepare(item, now) for item in items), key=lambda ready: ready.game["created_at"])
    kept_ids = [item.id for item in items if item.id is not None]
    taken: set[str] = set()
    for chunk in _chunks(kept_ids):
        taken |= set(db.session.scalars(select(Game.id).where(Game.id.in_(chunk))))
    db.session.rollback()
    if taken and not skip_existing:
        raise ImportRefused(
            [N_("Game %(id)s: a game with this id is already here", id=game_id) for game_id in sorted(taken)],
            existing=len(taken),
        )
    prepared = [ready for ready in prepared if ready.item.id not in taken]
    written: list[str] = []
    with writing():
        try:
            for number, batch in enumerate(_chunks(prepared, IMPORT_BATCH)):
                if number:
                    time.sleep(BATCH_PAUSE_SECONDS)
                _write(batch, now)
                written += [ready.game["id"] for ready in batch]
        except IntegrityError:
            # another import wrote one of these ids after they were checked
            db.session.rollback()
            _take_out(written)
            raise ImportRefused(
                [N_("Another import added some of these games just now, so nothing was imported. Try again.")]
            ) from None
        except BaseException:
            db.session.rollback()
            _take_out(written)
            raise
    return Imported(games=written, skipped=len(taken), new_ids=sum(ready.item.id_replaced for ready in prepared))


def _write(batch: Sequence[_Prepared], now: datetime) -> None:
    """One transaction: a batch's players, games and inputs, and its days' figures."""
    seen: dict[str, datetime] = {}
    for ready in batch:
        moment = ready.item.created_at or now
        for name in ready.item.players:
            seen[name] = max(seen.get(name, moment), moment)
    players = insert_players(seen)
    seats = [{**seat, "player_id": players[seat["player_id"]]} for ready in batch for seat in ready.seats]
    tables: dict[Any, list[dict[str, Any]]] = {}
    for ready in batch:
        for model, rows in ready.tables.items():
            tables.setdefault(model, []).extend(rows)
    for model, rows in ((Game, [ready.game for ready in batch]), (Seat, seats), *tables.items()):
        if rows:
            # the table's own insert, not the ORM's: the rows are complete, and the ORM's
            # bookkeeping per row would be most of the time
            db.session.execute(insert(model.__table__), rows)
    hold_players(players.values())
    refresh_span(batch[0].game["created_at"].date(), batch[-1].game["created_at"].date(), set(players.values()))
    db.session.commit()


def _take_out(written: Sequence[str]) -> None:
    """Remove the games an import that failed part way wrote, and recount their days."""
    if not written:
        return
    pairs: set[tuple[date, int]] = set()
    for chunk in _chunks(written):
        rows = db.session.execute(select(Game.created_at, Seat.player_id).join(Seat).where(Game.id.in_(chunk)))
        pairs |= {(created.date(), player) for created, player in rows}
        db.session.execute(delete(Game).where(Game.id.in_(chunk)))
    hold_players({player for _, player in pairs})
    refresh_days(pairs)
    db.session.commit()


def _chunks(values: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


def new_spy_game(setup: spy.Setup, turns: Sequence[spy.Turn] = (), seen: datetime | None = None) -> Game:
    """A Spy game's rows, seated as the setup says."""
    game = Game(
        kind=SPY,
        first_seat=setup.first_player,
        spies=None if setup.spies is None else [{"slot": place.slot, "facing": place.facing.value} for place in setup.spies],
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
    "FORMAT",
    "ImportRefused",
    "Imported",
    "cards_to_json",
    "export_file",
    "game_to_json",
    "import_bytes",
    "import_file",
    "parse_file",
    "read_json",
]
