"""What every kind's companion/1 codec shares: reading a value from a file, in words, and
writing one for a spreadsheet.

A value from a file is never trusted: each reader checks its type and range and says
what is wrong as a message for the reader (``Bad``), which the import turns into a
refusal naming the game.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from enum import Enum
from typing import Any

from ..rules import N_, Message
from ..rules.players import name_problem
from ..store.games import PUBLIC_ID_ALPHABET, PUBLIC_ID_LENGTH, Game

# a cell a spreadsheet would read as a formula (=HYPERLINK(...) in a player's name);
# OWASP: https://owasp.org/www-community/attacks/CSV_Injection
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_text(text: str) -> str:
    """Text that a spreadsheet shows as typed: a leading ' keeps it from being a formula.

    Numbers are written as numbers, never through this.

    >>> spreadsheet_text("=1+2"), spreadsheet_text("-Cy"), spreadsheet_text("Ana")
    ("'=1+2", "'-Cy", 'Ana')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def timestamp(moment: datetime) -> str:
    return moment.replace(tzinfo=UTC).isoformat().replace("+00:00", "Z")


class Bad(ValueError):
    """One thing wrong with a game in a file, as a message for the reader."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def shown(value: Any) -> str:
    """A value from the file, quoted and cut short: it is shown, never trusted. JSON's own
    words for its constants, as the file has them (Python's would say None for null).

    >>> shown(None), shown(True), shown("Ana"), shown(7), shown(["Ana"])
    ('null', 'true', "'Ana'", '7', '[…]')
    """
    if isinstance(value, dict | list):
        return "{…}" if isinstance(value, dict) else "[…]"
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    return repr(value)[:40]


def field_of(name: str, field: str) -> Message:
    return N_("%(name)s's %(field)s", name=name, field=field)


def about_game(index: int, game_id: str | None, problem: str) -> Message:
    if game_id is None:
        return N_("Game %(number)s: %(problem)s", number=index, problem=problem)
    return N_("Game %(number)s (%(id)s): %(problem)s", number=index, id=game_id, problem=problem)


def whole(value: Any, what: str | Callable[[], str]) -> int:
    """A whole number from the file; ``what`` names it (made only when it is wrong: a
    large file has hundreds of thousands of numbers)."""
    # json true/false are ints to python; a count is never a boolean
    if isinstance(value, bool) or not isinstance(value, int):
        named = what() if callable(what) else what
        raise Bad(N_("%(what)s must be a whole number, not %(value)s", what=named, value=shown(value)))
    return value


def optional(value: Any, kind: type, what: str) -> Any:
    if value is None:
        return None
    if kind is int:
        return whole(value, what)
    if not isinstance(value, kind):
        raise Bad(N_("%(what)s must be %(kind)s or null, not %(value)s", what=what, kind=kind.__name__, value=shown(value)))
    return value


def one_of(value: Any, choices: type[Enum]) -> bool:
    """Whether a value from the file is one of an enum's values (a list or object is not)."""
    return isinstance(value, str) and value in {member.value for member in choices}


def names(data: dict[str, Any]) -> list[str]:
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(name, str) for name in players):
        raise Bad(N_("players must be a list of names"))
    # before any message quotes a name: one that no page could show is refused first
    for number, name in enumerate(players, start=1):
        if (problem := name_problem(" ".join(name.split()))) is not None:
            raise Bad(N_("player %(number)s: %(problem)s", number=number, problem=problem))
    return players


def listed(data: dict[str, Any], key: str, most: int, too_many: Message) -> list[Any]:
    items = data.get(key, [])
    if not isinstance(items, list):
        raise Bad(N_("%(key)s must be a list", key=key))
    if len(items) > most:
        raise Bad(too_many)
    return items


def parse_id(value: Any) -> tuple[str | None, bool]:
    """The id to keep, and whether the file's own id was given up.

    An id shorter than a new one could be guessed, and one of other characters may not
    fit a url: either is replaced by a new id. A longer one of the same alphabet is kept.
    """
    if value is None:
        return None, False
    if (
        isinstance(value, str)
        and PUBLIC_ID_LENGTH <= len(value) <= Game.id.type.length
        and all(character in PUBLIC_ID_ALPHABET for character in value)
    ):
        return value, False
    return None, True


# the times a game can have been played: a file's 0001 or 9999 is a mistake, and would
# overflow the day arithmetic of the statistics
EARLIEST, LATEST = datetime(1970, 1, 1), datetime(9000, 1, 1)


def parse_time(value: Any) -> datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise Bad(N_("created_at must be an ISO 8601 time"))
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is not None:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
    except (ValueError, OverflowError):
        raise Bad(N_("created_at %(value)s is not an ISO 8601 time", value=shown(value))) from None
    if not EARLIEST <= moment < LATEST:
        raise Bad(N_("created_at %(value)s is not a time a game was played", value=shown(value)))
    return moment
