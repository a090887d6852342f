"""Words for values the rules give as English codes ("left", "safe-1", "classic"): each
kind names its codes' words with these helpers.

The code is never printed; its word in the reader's language is. They are template
globals, not Jinja macros: a page says them over and over (every row of a 30-deal table
says its pass), and a macro call that built a dict of every word cost some thirty times
this one lookup (benchmarks/pages.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from .i18n import catalogue


def gettext(text: str) -> str:
    return catalogue().ugettext(text)


def pgettext(context: str, text: str) -> str:
    return catalogue().upgettext(context, text)


def ngettext(singular: str, plural: str, count: int) -> str:
    return catalogue().ungettext(singular, plural, count) % {"num": count}


# each code's word, said when asked for: the language is the request's
Words = Mapping[str, Callable[[], str]]


def said(words: Words, code: str, default: str | None = None) -> str:
    """The word for ``code`` (or for ``default`` when the code is unknown), or the code itself."""
    word = words.get(code) or (words[default] if default else None)
    return word() if word else code
