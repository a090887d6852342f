"""Players persist across games and kinds: found by their name in any case, made when new."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import String, func, select, update
from sqlalchemy.orm import Mapped, mapped_column, validates

from ..rules.players import MAX_NAME_LENGTH
from .base import Model, db, utcnow


class Player(Model):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(MAX_NAME_LENGTH), unique=True)
    # the name in any case, as Python folds it: a database's lower() knows only ASCII, so
    # "Əli" and "əli" would be two players (and the second a UNIQUE error)
    key: Mapped[str] = mapped_column(String(4 * MAX_NAME_LENGTH), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # when they last sat down to a game: lists of players show the most recent first
    last_seen: Mapped[datetime | None] = mapped_column(index=True)

    @validates("name")
    def _keep_key(self, _field: str, name: str) -> str:
        self.key = name_key(name)
        return name


def name_key(name: str) -> str:
    """What makes two names the same player.

    >>> name_key("ƏLI") == name_key("əli"), name_key("Álvaro") == name_key("álvaro")
    (True, True)
    """
    return name.casefold()


def player_named(name: str, seen: datetime | None = None) -> Player:
    """The known player of that name (in any case), made if new: players persist across games.

    ``seen`` is when they sat down to the game, now unless an imported game says otherwise.
    """
    seen = seen or utcnow()
    player = player_by_name(name)
    if player is None:
        # two phones starting games with the same new player at once: one inserts, the
        # other waits for it and then finds that player (a plain add would be refused)
        db.session.execute(
            _insert_for(db.session)(Player)
            .values(name=name, key=name_key(name), created_at=utcnow(), last_seen=seen)
            .on_conflict_do_nothing(index_elements=[Player.name])
        )
        player = player_by_name(name)
        assert player is not None, name
    player.last_seen = seen if player.last_seen is None else max(player.last_seen, seen)
    return player


def player_by_name(name: str, other_than: int | None = None) -> Player | None:
    """The player called ``name`` in any case, if any (leaving out the player ``other_than``)."""
    query = select(Player).where(Player.key == name_key(name))
    if other_than is not None:
        query = query.where(Player.id != other_than)
    return db.session.scalar(query.order_by(Player.id).limit(1))


def insert_players(seen: dict[str, datetime]) -> dict[str, int]:
    """The player id of each name, made where new, in a few bulk statements (an import).

    ``seen`` gives each name when it last sat down in the games being written; a known
    player's ``last_seen`` moves forward to it, never back.
    """
    by_key: dict[str, str] = {}
    for name in seen:
        by_key.setdefault(name_key(name), name)

    def known() -> dict[str, tuple[int, datetime | None]]:
        found: dict[str, tuple[int, datetime | None]] = {}
        keys = list(by_key)
        for start in range(0, len(keys), 500):
            rows = db.session.execute(
                select(Player.key, Player.id, Player.last_seen)
                .where(Player.key.in_(keys[start : start + 500]))
                .order_by(Player.id)
            )
            for key, player_id, last_seen in rows:
                found.setdefault(key, (player_id, last_seen))
        return found

    found = known()
    new = [
        {"name": name, "key": key, "created_at": utcnow(), "last_seen": None} for key, name in by_key.items() if key not in found
    ]
    if new:
        db.session.execute(_insert_for(db.session)(Player).on_conflict_do_nothing(index_elements=[Player.name]), new)
        found = known()
    latest: dict[str, datetime] = {}
    for name, moment in seen.items():
        key = name_key(name)
        latest[key] = max(latest.get(key, moment), moment)
    moved = [
        {"id": player_id, "last_seen": latest[key]}
        for key, (player_id, last_seen) in found.items()
        if last_seen is None or last_seen < latest[key]
    ]
    if moved:
        db.session.execute(update(Player), moved)
    return {name: found[name_key(name)][0] for name in seen}


def _insert_for(session: Any) -> Any:
    """The insert that knows ON CONFLICT, in the dialect of the session's database."""
    from sqlalchemy.dialects import postgresql, sqlite

    return postgresql.insert if session.get_bind().dialect.name == "postgresql" else sqlite.insert


# the first key of the PostgreSQL advisory locks that stand for a player's statistics
_STATISTICS_LOCK = 0x5354  # "ST"


def hold_players(player_ids: Iterable[int]) -> None:
    """Wait until no other transaction is recounting any of these players' statistics, and
    keep them until this one ends.

    PostgreSQL only (SQLite has one writer at a time already). Advisory locks, taken in id
    order so two tables never wait on each other in a circle, and apart from row locks, so
    a game that updates a player's row meanwhile does not wait on them either.
    """
    if db.session.get_bind().dialect.name != "postgresql":
        return
    for player_id in sorted(set(player_ids)):
        db.session.execute(select(func.pg_advisory_xact_lock(_STATISTICS_LOCK, player_id)))
