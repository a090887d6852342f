"""Deleting a game, and bringing it back.

A game started by mistake (a test, the wrong players, an import made twice) is deleted:
it leaves every list, statistic, export and link at once, its players' figures of that day
are recounted without it, and its companion/1 object is kept ``KEPT_DAYS`` days in
``deleted_games``. A restore is an import of that one object under its own id, as an
import of a file that holds the game does (``service.imports`` forgets the deleted copy).
"""

from __future__ import annotations

from sqlalchemy import select

from .. import registry
from ..rules import Message
from ..store.base import db
from ..store.deleted import DeletedGame, forget, forget_older
from ..store.figures import recount
from ..store.games import Game, Seat
from ..store.statistics import by_day
from .imports import import_games


def delete(game: Game) -> DeletedGame:
    """Delete ``game``, keeping what it was to restore; the deleted copy."""
    kind = registry.of(game)
    title = kind.title(game)
    kept = DeletedGame(
        id=game.id,
        kind=game.kind,
        # a title of the table's own (a pad's name); the kind's name is said when shown
        title="" if isinstance(title, Message) else title[:200],
        players=", ".join(game.player_names)[:1000],
        created_at=game.created_at,
        data=kind.to_json(game),
        watch_id=game.watch_id,
        seat_links=[seat.link for seat in game.seats] if any(seat.link for seat in game.seats) else None,
    )
    finished, model = game.finished, type(game)
    pairs = {(game.created_at.date(), seat.player_id) for seat in game.seats}
    forget_older()
    forget([game.id])
    db.session.add(kept)
    db.session.delete(game)
    db.session.flush()
    if finished:
        # statistics count finished games: the day's figures of its players, without it
        for span in by_day(pairs):
            recount([model], span)
    db.session.commit()
    return kept


def restore(kept: DeletedGame) -> Game:
    """Bring a deleted game back under its own id (an ``ImportRefused`` if it cannot be)."""
    kind = registry.named(kept.kind)
    if kind is None:
        raise LookupError(kept.kind)
    game_id, watch_id, seat_links = kept.id, kept.watch_id, kept.seat_links or []
    # the import forgets the deleted copy once the game is back
    import_games([kind.parse(dict(kept.data))])
    game = db.session.get(Game, game_id)
    assert game is not None
    # the links handed out before work again: its follow link, and each player's seat link
    # (unless something else holds one meanwhile, which no link made since can)
    if watch_id is not None and db.session.scalar(select(Game.id).where(Game.watch_id == watch_id)) is None:
        game.watch_id = watch_id
    links = [link for link in seat_links if link]
    if links and db.session.scalar(select(Seat.link).where(Seat.link.in_(links)).limit(1)) is None:
        for seat, link in zip(game.seats, seat_links, strict=False):
            seat.link = link
    db.session.commit()
    return game


def empty() -> None:
    """Let go of every deleted game now."""
    forget()
    db.session.commit()
