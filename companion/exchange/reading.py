"""Reading a ``companion/1`` file: its JSON read in words, and every game in it checked
whole by its kind's rules, with no database in sight. Nothing is written unless every game
is valid (the service writes them: companion/service/imports.py).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from .. import registry
from ..rules import N_, Message, RulesError, files
from . import FORMAT
from .fields import Bad, about_game, parse_time, shown


class ImportRefused(ValueError):
    """A file that cannot be imported; ``problems`` names each game and deal at fault,
    the first of them (``more`` counts the others). ``existing`` counts games refused
    only because a game with their id is already here."""

    def __init__(self, problems: Sequence[str], more: int = 0, existing: int = 0) -> None:
        listed = list(problems)[: files.MAX_PROBLEMS_LISTED]
        more += len(problems) - len(listed)
        super().__init__("; ".join(listed) + (f"; and {more} more" if more else ""))
        self.problems = listed
        self.more = more
        self.existing = existing


NOT_JSON = N_("This is not a companion backup: the file is not JSON text, so it cannot be read.")


class _Duplicate(ValueError):
    pass


class _TooLong(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # json keeps the last of two equal keys without a word: a file that says two things
    # about one field is refused instead
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        repeated = next(key for key, _ in pairs if key in seen or seen.add(key))  # type: ignore[func-returns-value]  # add() is None: the "or" records the key and moves on
        raise _Duplicate(repeated)
    return data


def _whole(text: str) -> int:
    if len(text.lstrip("-")) > files.MAX_DIGITS:
        raise _TooLong(text)
    return int(text)


def read_json(raw: bytes) -> Any:
    """The JSON in a file's bytes, or :class:`ImportRefused` saying in words why not.

    UTF-8 with or without a byte-order mark; no key twice in one object; no number of
    more digits than any score has; nesting no deeper than a companion/1 file's.
    """
    try:
        text = raw.decode("utf-8-sig")
        data = json.loads(text, object_pairs_hook=_object, parse_int=_whole)
    except _Duplicate as error:
        raise ImportRefused([N_("The file gives %(key)s twice in one object; say it once.", key=shown(str(error)))]) from None
    except _TooLong as error:
        raise ImportRefused(
            [
                N_(
                    "The file has a number of %(digits)s digits (%(start)s…); no figure of a game has more than %(most)s.",
                    digits=len(str(error)),
                    start=str(error)[:12],
                    most=files.MAX_DIGITS,
                )
            ]
        ) from None
    except RecursionError:
        raise ImportRefused([_too_deep()]) from None
    except (UnicodeDecodeError, ValueError):
        raise ImportRefused([NOT_JSON]) from None
    if _depth(data) > files.MAX_DEPTH:
        raise ImportRefused([_too_deep()])
    return data


def _too_deep() -> Message:
    return N_("The file nests lists and objects more than %(most)s deep; a companion/1 file never does.", most=files.MAX_DEPTH)


def _depth(value: Any) -> int:
    """How deep lists and objects nest, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level <= files.MAX_DEPTH:
                stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def parse_file(data: Any) -> list[registry.Input]:
    """Check a whole file by the rules alone; raise :class:`ImportRefused` listing the
    first bad games and counting the others. Reads no database."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused([N_('This is not a %(format)s file (its "format" must be "%(format)s").', format=FORMAT)])
    games = data.get("games")
    if not isinstance(games, list):
        raise ImportRefused([N_('The file has no "games" list.')])
    if len(games) > files.MAX_GAMES:
        raise ImportRefused(
            [
                N_(
                    "The file holds %(games)s games; one file may hold at most %(most)s. Split it and import each part.",
                    games=len(games),
                    most=files.MAX_GAMES,
                )
            ]
        )
    problems: list[Message] = []
    parsed: list[registry.Input] = []
    seen: set[str] = set()
    for index, game in enumerate(games, start=1):
        # the file's id names the game in a refusal: as it is when it could be an id, quoted when not
        game_id = None
        if isinstance(game, dict) and game.get("id") is not None:
            raw_id = game["id"]
            game_id = (
                raw_id
                if isinstance(raw_id, str) and raw_id.isascii() and raw_id.isalnum() and len(raw_id) <= 32
                else shown(raw_id)
            )
        try:
            if not isinstance(game, dict):
                raise Bad(N_("a game must be an object"))
            # a file from before there were kinds holds games of the first kind only
            kind = registry.named(game.get("kind", registry.every()[0].key))
            if kind is None:
                raise Bad(N_("unknown kind %(kind)s", kind=shown(game.get("kind"))))
            item = kind.parse(game)
            if game.get("changes") is not None and hasattr(item, "changes"):
                item = dataclasses.replace(item, changes=parse_changes(game["changes"]))  # type: ignore[type-var]
        except (Bad, RulesError) as error:
            problems.append(about_game(index, game_id, error.message))
            continue
        if item.id is not None:
            if item.id in seen:
                problems.append(about_game(index, game_id, N_("the id %(id)s appears twice in the file", id=item.id)))
            seen.add(item.id)
        parsed.append(item)
    if problems:
        raise ImportRefused(problems)
    return parsed


# changes one game of a file may hold: far above any real game's
MAX_CHANGES = 2000


def parse_changes(data: Any) -> tuple[dict[str, Any], ...]:
    """A game's history of edits and undos as a file holds it (store/changes.py), checked:
    a list of {"number", "what": "edit" or "undo", "before", "after", "changed_at", "phone"}."""
    if not isinstance(data, list) or len(data) > MAX_CHANGES:
        raise Bad(N_("changes must be a list of at most %(most)s", most=MAX_CHANGES))
    parsed = []
    for change in data:
        if not isinstance(change, dict):
            raise Bad(N_("a change must be an object"))
        number, what = change.get("number"), change.get("what")
        before, after, phone = change.get("before"), change.get("after"), change.get("phone")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 100_000 or what not in ("edit", "undo"):
            raise Bad(N_("a change needs a number and what it was (edit or undo)"))
        for values in (before, after):
            if values is not None and not (
                isinstance(values, dict)
                and len(values) <= 50
                and all(
                    isinstance(key, str) and isinstance(value, str) and len(key) + len(value) <= 200
                    for key, value in values.items()
                )
            ):
                raise Bad(N_("a change's values must be short texts by name"))
        if before is None or (phone is not None and not (isinstance(phone, str) and len(phone) <= 16)):
            raise Bad(N_("a change needs the values it changed"))
        parsed.append(
            {
                "number": number,
                "what": what,
                "before": before,
                "after": after,
                "changed_at": parse_time(change.get("changed_at")),
                "phone": phone,
            }
        )
    return tuple(parsed)
