"""Writing games out: the companion/1 file and the spreadsheet of every deal, a game at a
time, from games read a batch at a time, so a club's whole history costs the memory of a
batch (benchmarks/export_scale.py)."""

from __future__ import annotations

import csv
import io
import json
import textwrap
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from sqlalchemy import select, tuple_

from .. import registry
from ..store.base import db, utcnow
from ..store.games import Game, load_inputs
from . import FORMAT
from .fields import timestamp


def game_to_json(game: Game) -> dict[str, Any]:
    data = registry.of(game).to_json(game)
    if game.changes:
        # the history of edits and undos, when the game has one (a file without it still imports)
        data["changes"] = [
            {
                "number": change.number,
                "what": change.what,
                "before": change.before,
                "after": change.after,
                "changed_at": timestamp(change.changed_at),
                "phone": change.phone,
            }
            for change in game.changes
        ]
    return data


def export_file(games: Iterable[Game]) -> dict[str, Any]:
    """The companion/1 file of a few games, whole (one game's page offers it)."""
    return {
        "format": FORMAT,
        "exported_at": timestamp(utcnow()),
        "games": [game_to_json(game) for game in games],
    }


def export_chunks(games: Iterable[Game]) -> Iterator[str]:
    """The companion/1 file of ``games`` as export_file makes it, a game at a time."""
    yield f'{{\n  "format": {json.dumps(FORMAT)},\n  "exported_at": {json.dumps(timestamp(utcnow()))},\n  "games": ['
    separator = "\n"
    for game in games:
        yield separator + textwrap.indent(json.dumps(game_to_json(game), indent=2, ensure_ascii=False), "    ")
        separator = ",\n"
    yield "\n  ]\n}\n" if separator != "\n" else "]\n}\n"


def csv_text(games: Iterable[Game]) -> str:
    """One row per player per deal of every game of a kind with deals, for a spreadsheet."""
    return "".join(csv_chunks(games))


def csv_chunks(games: Iterable[Game]) -> Iterator[str]:
    """csv_text a game at a time, in the memory of one game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(registry.CSV_COLUMNS)
    for game in games:
        writer.writerows(registry.of(game).csv_rows(game))
        yield out.getvalue()
        out.seek(0)
        out.truncate()
    yield out.getvalue()


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
        for kind in registry.every():
            of_kind = [game for game in games if game.kind == kind.key]
            if of_kind:
                kind.preload(of_kind)
        load_inputs(games, Game.changes)
        yield from games
        after = (games[-1].created_at, games[-1].id)
        # nothing of this batch is written: the session forgets it, and its memory goes
        db.session.expunge_all()
