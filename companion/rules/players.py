"""What a player's name may be: the same rule for every game."""

from __future__ import annotations

import unicodedata

from . import N_, Message, Nn_, RulesError

MAX_NAME_LENGTH = 40

# characters that change how the text around them is shown without showing themselves:
# a name with one could pass for another player's, or reverse the rest of a line
INVISIBLE = frozenset("\u061c\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff")


def name_problem(name: str) -> Message | None:
    r"""What is wrong with a name already tidied by spaces, if anything.

    Control characters (a NUL no database stores), halves of a UTF-16 pair (which no
    page can show) and the invisible marks that reorder text are refused; letters of
    any script, and the joiners they need, are names.

    >>> name_problem("Ana"), name_problem("ಅನಾ"), name_problem("👩\u200d🍳")
    (None, None, None)
    >>> name_problem("Ana\x00"), name_problem("\u202eanA")
    ('A name cannot contain control characters or invisible marks.', 'A name cannot contain control characters or invisible marks.')
    """
    if len(name) > MAX_NAME_LENGTH:
        return Nn_("A name can be at most %(num)s character.", "A name can be at most %(num)s characters.", MAX_NAME_LENGTH)
    if any(character in INVISIBLE or unicodedata.category(character) in ("Cc", "Cs") for character in name):
        return N_("A name cannot contain control characters or invisible marks.")
    return None


def clean_name(text: str, field: str = "name") -> str:
    """A name with its spaces tidied; refused when empty or too long.

    >>> clean_name("  Ana   María ")
    'Ana María'
    """
    name = " ".join((text or "").split())
    if not name:
        raise RulesError.about(field, N_("A player needs a name."))
    problem = name_problem(name)
    if problem is not None:
        raise RulesError.about(field, problem)
    return name
