"""The write a table makes every few minutes, in statements: an input added after a game's last.

The session's flush writes any change to any game, and keeps its figures (figures.py); for
a deal, a turn or a round added after the last it is most of the write's cost, not its
statements. At deal 31 of a game of six, the flush of a deal took 0.9 ms besides its
statements (0.1 ms) and the figures: the unit of work's bookkeeping of the new row, the
game's version and six seats. Here the same rows are written as three statements (a kind
keeps nothing more of an open game: Black Spy's deal scores are a finished game's), and
the objects in the session are told what they now hold,
so the page drawn after the write reads them without a query and a later flush finds
nothing to write.

Only an input that leaves the game open, of a game that was open, is written this way: a
game that ends (or ended) recounts its players' statistics at the commit (figures.py), and
any other change pending in the session goes through the flush as before.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from sqlalchemy import Insert, Table, Update, bindparam, insert, inspect, update
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from .base import db, utcnow
from .figures import CONFLICTS
from .games import Game, Seat

GAMES: Table = Game.__table__  # type: ignore[assignment]  # a mapped class's table
SEATS: Table = Seat.__table__  # type: ignore[assignment]

# made once: a statement built for each write was a tenth of a millisecond of it
_SEAT_FIGURES = (
    update(SEATS)
    .where(SEATS.c.game_id == bindparam("seat_game"), SEATS.c.position == bindparam("seat_position"))
    .values(total=bindparam("seat_total"), won=bindparam("seat_won"))
)
# the game's figures and version, refused (no row) when another write bumped the version first
_FIGURES = ("updated_at", "finished", "rounds", "next_seat", "version")
_GAME_FIGURES = (
    update(GAMES)
    .where(GAMES.c.id == bindparam("game_id"), GAMES.c.version == bindparam("game_version"))
    .values({name: bindparam(name) for name in _FIGURES})
)


def append(game: Game, row: Any, state: Any) -> bool | None:
    """Write ``row``, numbered after the game's last input, and what it changes of the game
    (``state``: the game with it, as the rules played it), and commit.

    True once written; False when another phone's write came first (nothing written, the
    session rolled back); None when this write is not one for statements (the game ends
    with it, or other changes wait in the session): nothing done, for the flush to write.
    """
    session = db.session
    figures = type(game).kept_figures(state)
    if game.finished or figures.finished or session.new or session.deleted or any(item is not game for item in session.dirty):
        return None
    mapper = inspect(type(game))
    if mapper.local_table is not GAMES or len(game.input_collections) != 1:
        # a kind with a table of its own, or inputs held elsewhere than in one collection of
        # the game (the score pad's, in its pad): the flush writes it
        return None
    # the game's own columns the write changed (how the table enters its deals, say), its
    # figures, and its version: refused when another phone's write bumped it first
    columns = {prop.key: prop.columns[0].key for prop in mapper.column_attrs}
    game_state = inspect(game)
    values: dict[str, Any] = {
        key: getattr(game, key) for key in columns if key in game_state.attrs and game_state.attrs[key].history.has_changes()
    }
    values |= {
        "updated_at": utcnow(),
        "finished": figures.finished,
        "rounds": figures.rounds,
        "next_seat": figures.next_seat,
        "version": game.version + 1,
    }
    seats = [
        (seat, figures.totals[seat.position], figures.won[seat.position])
        for seat in game.seats
        if (seat.total, seat.won) != (figures.totals[seat.position], figures.won[seat.position])
    ]
    table = inspect(type(row)).local_table
    given = {prop.columns[0].key: row.__dict__[prop.key] for prop in inspect(type(row)).column_attrs if prop.key in row.__dict__}
    connection = session.connection()
    figures_only = values.keys() == set(_FIGURES)
    statement = _GAME_FIGURES if figures_only else _bump_with(frozenset(columns[key] for key in values if key not in _FIGURES))
    try:
        bumped = connection.execute(
            statement,
            {"game_id": game.id, "game_version": game.version, **{columns[key]: value for key, value in values.items()}},
        )
        if bumped.rowcount != 1:
            session.rollback()
            return False
        inserted = connection.execute(_insert_into(table), given).inserted_primary_key
        assert inserted is not None  # an insert of one row gives its key
        row.id = inserted[0]
        if seats:
            connection.execute(
                _SEAT_FIGURES,
                [
                    {"seat_game": game.id, "seat_position": seat.position, "seat_total": total, "seat_won": won}
                    for seat, total, won in seats
                ],
            )
        game.keep_appended(state, row)
    except CONFLICTS:
        session.rollback()
        return False
    # the session's objects hold what the rows now hold, as if read after the commit: the
    # page reads them, and the commit's flush finds nothing to write
    for key, value in values.items():
        set_committed_value(game, key, value)
    for seat, total, won in seats:
        set_committed_value(seat, "total", total)
        set_committed_value(seat, "won", won)
    make_transient_to_detached(row)  # what the insert's defaults gave it is read if asked for
    session.add(row)
    # the game's inputs as objects, where the session holds them; as the log read for the
    # write, where it does not (service.record reads no object of the inputs before it)
    for collection in game.input_collections:
        if collection in game.__dict__:
            set_committed_value(game, collection, [*getattr(game, collection), row])
    game.log_appended(row)
    try:
        session.commit()
    except CONFLICTS:
        session.rollback()
        # the row was never stored: the session forgets it (its rollback drops new objects only)
        if row in session:
            session.expunge(row)
        return False
    game.keep_log()
    return True


@lru_cache(maxsize=32)
def _bump_with(columns: frozenset[str]) -> Update:
    """The game's figures and these columns of its own (how a table enters its deals)."""
    return _GAME_FIGURES.values({name: bindparam(name) for name in columns})


@lru_cache(maxsize=8)
def _insert_into(table: Table) -> Insert:
    return insert(table)
