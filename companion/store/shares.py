"""What each player's own phone sends of the next deal or round, before the whole of it is
recorded: one pending share per seat of a game.

A share is stored as the kind's form reader made it (a small JSON object: a player's
points, the cards they counted, whether they say they shot). It names the number of the
deal it is for: a share for any other number than the game's next is left over (the deal
was recorded or undone since) and counts for nothing. Recording the deal, by the shares or
by the scorer's whole form, clears them.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, delete, select
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model, db, utcnow
from .games import Game, Seat

# a seat link's secret: 128 bits, as long as a session's
LINK_BYTES = 16


class SeatShare(Model):
    __tablename__ = "seat_shares"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    # the deal or round it is for
    number: Mapped[int]
    share: Mapped[dict[str, Any]] = mapped_column(JSON)
    # the phone's id for this submission: a double tap or a replay is stored once
    submission_id: Mapped[str | None] = mapped_column(String(64))
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


def pending(game: Game) -> dict[int, SeatShare]:
    """The shares entered for the game's next deal or round, by seat."""
    number = len(game.inputs()) + 1
    rows = db.session.scalars(select(SeatShare).where(SeatShare.game_id == game.id, SeatShare.number == number))
    return {row.seat: row for row in rows}


def links_out(game: Game) -> bool:
    """Whether the game's seat links were made: a share is sent through its seat's link (links
    are made for every seat at once, and renewed, never taken back), so a game without any
    has no share to show or to forget."""
    return any(seat.link for seat in game.seats)


def clear(game: Game) -> None:
    """Forget every pending share of the game (its deal was recorded, or undone)."""
    # without flushing first: a change the write has already made to the game (the table's
    # way of entering deals) is then written with its deal, in one update of the game's row,
    # so the game's version moves by one and a page that showed the version before is
    # answered with the new deal's row alone
    if not links_out(game):
        return
    with db.session.no_autoflush:
        db.session.execute(delete(SeatShare).where(SeatShare.game_id == game.id))


def new_link() -> str:
    return secrets.token_urlsafe(LINK_BYTES)


def seat_of_link(link: str) -> tuple[Game, int] | None:
    """The game and seat a seat link opens, or None for a link that opens nothing (never
    made, renewed since, or its game deleted)."""
    if not link or len(link) > 64:
        return None
    seat = db.session.scalar(select(Seat).where(Seat.link == link))
    if seat is None:
        return None
    game = db.session.get(Game, seat.game_id)
    return None if game is None else (game, seat.position)
