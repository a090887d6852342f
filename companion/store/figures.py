"""The figures a game keeps beside its inputs, brought up to date by the session itself.

Every write reaches the database through a flush, so no view can forget this: a game
whose inputs changed has its kept figures rewritten from a fresh replay before they are
written, its version goes up with its row (a race with another phone is caught at the
commit), and, when it is or was over, its kind recounts its players' statistics of that
day just before the commit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import date
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.exc import StaleDataError
from sqlalchemy.orm.util import identity_key

from .base import db, utcnow
from .games import Game
from .players import hold_players
from .statistics import Span, by_day

# what a write meets when another phone wrote the same game first
CONFLICTS = (IntegrityError, StaleDataError)

# each kind's recount of its statistics over a span of days and players, by its game class
_RECOUNTS: dict[type[Game], Callable[[Span], None]] = {}


def recount_with(model: type[Game], rebuild: Callable[[Span], None]) -> None:
    """Recount a kind's statistics this way when its finished games change (a kind with
    no statistics of its own kept in tables gives none)."""
    _RECOUNTS[model] = rebuild


def recount(models: Iterable[type[Game]], span: Span) -> None:
    """Recount these kinds' statistics over a span (an import's batch, say)."""
    for model in models:
        rebuild = _RECOUNTS.get(model)
        if rebuild is not None:
            rebuild(span)


def commit_or_conflict() -> bool:
    """Commit; when another phone's write won the race, roll back and return False."""
    try:
        db.session.commit()
    except CONFLICTS:
        db.session.rollback()
        return False
    return True


@event.listens_for(Session, "before_flush")
def _keep_figures(session: Session, _context: Any, _instances: Any) -> None:
    """Rewrite the kept figures of every game whose inputs changed, before they are written."""
    changed: dict[int, Game] = {}
    for item in (*session.new, *session.dirty, *session.deleted):
        game = item if isinstance(item, Game) else _game_of(session, item)
        if game is not None and game not in session.deleted and (item is not game or _inputs_changed(session, game)):
            changed[id(game)] = game
    for game in changed.values():
        game.updated_at = utcnow()
        # the statistics count finished games only: a deal in a game that is not over, and
        # was not before it, changes none of them, and most writes are such deals
        was_finished = bool(game.finished)
        with session.no_autoflush:
            game.refresh_cache()
        if was_finished or game.finished:
            session.info.setdefault("touched_games", set()).add(game)


def _game_of(session: Session, item: Any) -> Game | None:
    """The game an input row belongs to, if it is an input (``input_of_game``) and its game is here."""
    if not getattr(type(item), "input_of_game", False):
        return None
    game_id = item.game_id
    if game_id is None:
        return None  # a new input: its game's collection changed, and the game is dirty itself
    found = session.identity_map.get(identity_key(Game, game_id))
    return found if isinstance(found, Game) else None


def _inputs_changed(session: Session, game: Game) -> bool:
    """A game in the session is new, or had an input added or removed, or was marked changed
    (its derived columns alone do not count: they are what this hook writes)."""
    if game in session.new:
        return True
    state = inspect(game)
    return any(state.attrs[name].history.has_changes() for name in ("updated_at", *game.input_collections) if name in state.attrs)


@event.listens_for(Session, "after_soft_rollback")
def _forget_touched(session: Session, _transaction: Any) -> None:
    session.info.pop("touched_games", None)


@event.listens_for(Session, "before_commit")
def _recount_statistics(session: Session) -> None:
    """Bring the statistics of every finished game changed in this transaction up to date."""
    # the last flush first: it is where the games changed in it are noted (_keep_figures)
    session.flush()
    games = session.info.pop("touched_games", None)
    if not games:
        return
    # two tables that share a player recount that player's day in turn, not at once
    # (each would delete and reinsert the same rows, and one would be refused)
    hold_players({seat.player_id for game in games for seat in game.seats})
    by_kind: dict[type[Game], set[tuple[date, int]]] = {}
    for game in games:
        by_kind.setdefault(type(game), set()).update((game.created_at.date(), seat.player_id) for seat in game.seats)
    for model, pairs in by_kind.items():
        for span in by_day(pairs):
            recount([model], span)
    session.flush()
