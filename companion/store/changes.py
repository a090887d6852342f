"""What was changed in a game, and when: every edit and undo of a deal, round or turn, kept
as a small history the game's page shows ("Deal 3 changed at 21:14: Ben 12 → 14") and a
companion/1 file carries. It is never counted in any score: the inputs are the game."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, String, select
from sqlalchemy.orm import Mapped, mapped_column

from .base import Model, db, utcnow
from .games import Game

EDIT, UNDO = "edit", "undo"


class InputChange(Model):
    __tablename__ = "input_changes"
    __table_args__ = (Index("ix_input_changes_game_id", "game_id", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    number: Mapped[int]  # the deal, round or turn changed
    what: Mapped[str] = mapped_column(String(8))  # EDIT or UNDO
    # each value the input held and holds, by what it is of (a player's name): text, as shown
    before: Mapped[dict[str, str]] = mapped_column(JSON)
    after: Mapped[dict[str, str] | None] = mapped_column(JSON)
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)
    # which phone's session made the change (a short id of its own, no more)
    phone: Mapped[str | None] = mapped_column(String(16))

    def differences(self) -> list[tuple[str, str, str]]:
        """(what, was, is) for each value an edit changed; an undo's values as they were."""
        if self.after is None:
            return [(key, value, "") for key, value in self.before.items()]
        keys = [*self.before, *(key for key in self.after if key not in self.before)]
        return [
            (key, self.before.get(key, ""), self.after.get(key, ""))
            for key in keys
            if self.before.get(key) != self.after.get(key)
        ]


def note(game: Game, number: int, what: str, before: dict[str, str], after: dict[str, str] | None, phone: str | None) -> None:
    """Keep one change of ``game`` (the caller commits it with the change itself)."""
    db.session.add(InputChange(game_id=game.id, number=number, what=what, before=before, after=after, phone=phone))


def latest_changes(game: Game, count: int) -> list[InputChange]:
    """The game's latest changes, newest first."""
    query = select(InputChange).where(InputChange.game_id == game.id).order_by(InputChange.id.desc()).limit(count)
    return list(db.session.scalars(query))


def every_change(game: Game) -> list[InputChange]:
    """Every change of the game, oldest first (a companion/1 file holds them so)."""
    return list(db.session.scalars(select(InputChange).where(InputChange.game_id == game.id).order_by(InputChange.id)))
