"""Games a table deleted, kept for a while to restore.

A deleted game leaves the games, and with it every list, statistic, export and link; what
it was is kept here as its companion/1 object, which an import reads back (a restore is an
import of that one game, under its own id). Kept ``KEPT_DAYS`` days, or until the table
empties the list.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import JSON, String, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model, db, utcnow

KEPT_DAYS = 30


class DeletedGame(Model):
    __tablename__ = "deleted_games"

    # the game's own public id: a restore, or an import of the same game, brings it back under it
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    # what the list shows of it: its title (the kind's name or the pad's) and players
    title: Mapped[str] = mapped_column(String(200))
    players: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime]
    deleted_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # the game as a companion/1 file holds it, and its follow link's id, which no file holds
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    watch_id: Mapped[str | None] = mapped_column(String(32))
    # each seat's link (None where none was made), which a restore gives back: the players'
    # phones that hold them open the game again without a new QR code
    seat_links: Mapped[list[str | None] | None] = mapped_column(JSON)


def oldest_kept() -> datetime:
    return utcnow() - timedelta(days=KEPT_DAYS)


def recently_deleted() -> list[DeletedGame]:
    """The games deleted in the last ``KEPT_DAYS`` days, newest first."""
    return list(
        db.session.scalars(
            select(DeletedGame).where(DeletedGame.deleted_at >= oldest_kept()).order_by(DeletedGame.deleted_at.desc())
        )
    )


def deleted(game_id: str) -> DeletedGame | None:
    """A game deleted in the last ``KEPT_DAYS`` days, by its id."""
    found = db.session.get(DeletedGame, game_id[:64])
    return found if found is not None and found.deleted_at >= oldest_kept() else None


def holds_seat_link(link: str) -> bool:
    """Whether a game deleted in the last ``KEPT_DAYS`` days keeps this seat link, for a
    restore to give back: the link is known, not guessed. Read only for a link no game
    opens; the deleted games kept are few, their links read without the games themselves."""
    kept = db.session.scalars(select(DeletedGame.seat_links).where(DeletedGame.deleted_at >= oldest_kept()))
    return any(link in (links or ()) for links in kept)


def forget_older() -> None:
    """Let go of what was deleted more than ``KEPT_DAYS`` days ago (the caller commits)."""
    db.session.execute(delete(DeletedGame).where(DeletedGame.deleted_at < oldest_kept()))


def forget(game_ids: list[str] | None = None) -> None:
    """Let go of these deleted games (all of them when None): restored, imported again, or
    the list emptied by hand (the caller commits)."""
    statement = delete(DeletedGame)
    if game_ids is not None:
        statement = statement.where(DeletedGame.id.in_(game_ids))
    db.session.execute(statement)
