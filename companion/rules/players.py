"""What a player's name may be: the same rule for every game."""

from __future__ import annotations

from . import RulesError

MAX_NAME_LENGTH = 40


def clean_name(text: str, field: str = "name") -> str:
    """A name with its spaces tidied; refused when empty or too long.

    >>> clean_name("  Ana   María ")
    'Ana María'
    """
    name = " ".join((text or "").split())
    if not name:
        raise RulesError("A player needs a name.", {field: "A player needs a name."})
    if len(name) > MAX_NAME_LENGTH:
        message = f"A name can be at most {MAX_NAME_LENGTH} characters."
        raise RulesError(message, {field: message})
    return name
