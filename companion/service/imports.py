"""Importing a companion/1 file: its checked games written, a batch of short transactions
of bulk inserts, all or none.

Every row is made first, by the rules and in Python alone; each transaction (which holds
SQLite's write lock from its first statement) only finds or adds the players, inserts and
recounts. So a file of 20,000 games keeps another table's deal waiting under a second at
most (benchmarks/import_scale.py), and a refused one writes nothing.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.exc import IntegrityError

from .. import registry
from ..exchange.reading import ImportRefused
from ..rules import N_
from ..store.base import db, utcnow
from ..store.changes import InputChange
from ..store.deleted import forget
from ..store.figures import recount
from ..store.games import Game, Seat, new_public_id
from ..store.players import hold_players, insert_players
from ..store.sqlite import writing
from ..store.statistics import Span, by_day


@dataclass(frozen=True)
class Imported:
    """What an import did: games written, games skipped as already here, ids replaced."""

    games: list[str] = field(default_factory=list)
    skipped: int = 0
    new_ids: int = 0


def _columns(model: Any) -> tuple[str, ...]:
    # every column of the table, every kind's included: one statement inserts games of
    # every kind, each row naming all (read when needed: a kind adds its columns when loaded)
    return tuple(column.name for column in model.__table__.columns)


@dataclass
class _Prepared:
    """One game's rows, made before the write transaction begins; its seats name their
    players, whose ids are known only inside it."""

    item: registry.Input
    game: dict[str, Any]
    seats: list[dict[str, Any]]
    tables: dict[Any, list[dict[str, Any]]]


def _prepare(item: registry.Input, now: datetime) -> _Prepared:
    kind = registry.named(item.kind)
    assert kind is not None
    game_id = item.id or new_public_id()
    created = item.created_at or now
    figures = kind.figures(item.state)
    made = kind.rows(item, game_id, created)
    game = {
        **dict.fromkeys(_columns(Game)),
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
            **dict.fromkeys(_columns(Seat)),
            "game_id": game_id,
            "position": position,
            "player_id": name,  # a name until the transaction knows its player's id
            "total": figures.totals[position],
            "won": figures.won[position],
            **(made.seats[position] if made.seats else {}),
        }
        for position, name in enumerate(item.players)
    ]
    tables: dict[Any, list[dict[str, Any]]] = {model: list(rows) for model, rows in made.tables.items()}
    # its history of edits and undos, as the file kept it (a kind's input may carry none)
    kept_changes = getattr(item, "changes", ())
    if kept_changes:
        tables[InputChange] = [
            {"game_id": game_id, **change, "changed_at": change["changed_at"] or now} for change in kept_changes
        ]
    return _Prepared(item, game, seats, tables)


# games written in one transaction: some tenths of a second of SQLite's write lock, so a
# table's deal never waits long behind an import (benchmarks/import_scale.py)
IMPORT_BATCH = 250
# and the pause between two, in which a table's write waiting for the lock gets it
BATCH_PAUSE_SECONDS = 0.05


def import_games(items: Sequence[registry.Input], skip_existing: bool = False) -> Imported:
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
            # a game deleted and imported again (or restored) is here again: its deleted copy goes
            for chunk in _chunks(written):
                forget(list(chunk))
            db.session.commit()
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
    recount(
        {registry.named(ready.item.kind).model for ready in batch},  # type: ignore[union-attr]  # every item's kind parsed it
        Span(batch[0].game["created_at"].date(), batch[-1].game["created_at"].date(), frozenset(players.values())),
    )
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
    for span in by_day(pairs):
        recount({kind.model for kind in registry.every()}, span)
    db.session.commit()


def _chunks(values: Sequence[Any], size: int = 500) -> Iterable[Sequence[Any]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]
