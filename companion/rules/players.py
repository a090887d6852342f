"""What a player's name may be: the same rule for every game."""

from __future__ import annotations

from . import N_, Nn_, RulesError

MAX_NAME_LENGTH = 40


def clean_name(text: str, field: str = "name") -> str:
    """A name with its spaces tidied; refused when empty or too long.

    >>> clean_name("  Ana   María ")
    'Ana María'
    """
    name = " ".join((text or "").split())
    if not name:
        raise RulesError.about(field, N_("A player needs a name."))
    if len(name) > MAX_NAME_LENGTH:
        message = Nn_("A name can be at most %(num)s character.", "A name can be at most %(num)s characters.", MAX_NAME_LENGTH)
        raise RulesError.about(field, message)
    return name
