"""What every kind's rules at a glance share: figures said as the reader's language lists
them, and the way back to the game the reader came from.

Each kind's page (its ``reference`` endpoint) shows the short version of its rules for a
player at the table; every figure on it comes from the kind's rules, the template only
words them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from babel.lists import format_list
from flask import request
from flask_babel import format_decimal

from .i18n import language, say

GAME_ID = re.compile(r"[A-Za-z0-9]{4,32}")


def or_list(values: Iterable[object]) -> str:
    """Numbers or words as the reader's language offers a choice: "1 or 2", "1 o 2"."""
    return format_list([_word(value) for value in values], style="or", locale=language())


def and_list(values: Iterable[object]) -> str:
    """Numbers or words as the reader's language lists them: "green and red"."""
    return format_list([_word(value) for value in values], locale=language())


def _word(value: object) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(format_decimal(value))
    # a rules message (a colour's name, say) in the reader's language
    return str(say(value))


def back_to() -> str | None:
    """The game the reader came from, to offer a way back: an installed app has no back button."""
    game = request.args.get("game", "")
    return game if GAME_ID.fullmatch(game) else None
