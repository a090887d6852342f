"""The input log each worker's last write of a game left, for its next write of that game.

A scorer's phone sends its deals over one kept-alive connection, to one worker: the worker
that wrote deal 40 knows deals 1 to 40 as its rules took them, and reading them again for
deal 41 cost a round trip and every deal's JSON (0.76 ms at deal 60 on PostgreSQL, 0.37 on
SQLite). A log is kept only once its write is committed, and is found again only for the
game's row as that write left it: the same version and the same moment of its last change
(a game deleted and restored, or imported again, starts its versions again from 1, at a
moment of its own). Any other write (an edit, an undo, another worker's deal) leaves the
game at a version the kept log does not have, and its next write reads the deals again.
"""

from __future__ import annotations

from collections import OrderedDict
from datetime import datetime
from threading import Lock
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .games import InputLog

# games written to by one worker in its last few hundred writes: a club night's tables
SIZE = 256


class KeptLogs:
    """Logs by game, the least recently kept let go first; safe across a worker's threads."""

    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._logs: OrderedDict[str, tuple[datetime, InputLog]] = OrderedDict()
        self._lock = Lock()

    def find(self, game_id: str, version: int, updated_at: datetime) -> InputLog | None:
        """The log kept for the game's row at this version, last changed at this moment."""
        kept = self._logs.get(game_id)
        if kept is None or kept[0] != updated_at or kept[1].version != version:
            return None
        return kept[1]

    def keep(self, game_id: str, updated_at: datetime, log: InputLog) -> None:
        with self._lock:
            self._logs[game_id] = (updated_at, log)
            self._logs.move_to_end(game_id)
            while len(self._logs) > self._size:
                self._logs.popitem(last=False)


KEPT_LOGS = KeptLogs()
