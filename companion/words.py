"""Words for values the rules give as English codes ("left", "safe-1", "classic"), and
the sentence of who leads a deal's first trick.

The code is never printed; its word in the reader's language is. These are template
globals, not Jinja macros: a page says them over and over (every row of a 30-deal table
says its pass), and a macro call that built a dict of every word cost some thirty times
this one lookup (benchmarks/pages.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from flask import Flask
from markupsafe import Markup

from .i18n import catalogue
from .rules.black_spy import PASSED_CARDS, FirstLead, RuleSet


def gettext(text: str) -> str:
    return catalogue().ugettext(text)


def pgettext(context: str, text: str) -> str:
    return catalogue().upgettext(context, text)


def ngettext(singular: str, plural: str, count: int) -> str:
    return catalogue().ungettext(singular, plural, count) % {"num": count}


# each code's word, said when asked for: the language is the request's
Words = Mapping[str, Callable[[], str]]

PRESET_NAMES: Words = {
    "standard": lambda: pgettext("rule set", "Standard"),
    "classic": lambda: pgettext("rule set", "Classic"),
}
PASS_WORDS: Words = {
    "left": lambda: pgettext("pass direction", "left"),
    "right": lambda: pgettext("pass direction", "right"),
    "across": lambda: pgettext("pass direction", "across"),
}
PASS_SENTENCES: Words = {
    "left": lambda: ngettext("Pass %(num)s card left", "Pass %(num)s cards left", PASSED_CARDS),
    "right": lambda: ngettext("Pass %(num)s card right", "Pass %(num)s cards right", PASSED_CARDS),
    "across": lambda: ngettext("Pass %(num)s card across", "Pass %(num)s cards across", PASSED_CARDS),
}
COLOUR_WORDS: Words = {
    "green": lambda: pgettext("spy colour", "green"),
    "red": lambda: pgettext("spy colour", "red"),
    "blue": lambda: pgettext("spy colour", "blue"),
    "yellow": lambda: pgettext("spy colour", "yellow"),
}
FACING_WORDS: Words = {
    "left": lambda: pgettext("spy facing", "left"),
    "right": lambda: pgettext("spy facing", "right"),
}
TARGET_WORDS: Words = {
    "safe-1": lambda: pgettext("spy card", "Safe 1"),
    "safe-2": lambda: pgettext("spy card", "Safe 2"),
    "top-secret-1": lambda: pgettext("spy card", "Top Secret 1"),
    "top-secret-2": lambda: pgettext("spy card", "Top Secret 2"),
}


def _said(words: Words, code: str, default: str | None = None) -> str:
    word = words.get(code) or (words[default] if default else None)
    return word() if word else code


def preset_name(preset: str) -> str:
    return _said(PRESET_NAMES, preset)


def pass_word(direction: str) -> str:
    return _said(PASS_WORDS, direction)


def pass_sentence(direction: str) -> str:
    # a direction the sentences do not know is told as across, as before
    return _said(PASS_SENTENCES, direction, default="across")


def colour_word(colour: str) -> str:
    return _said(COLOUR_WORDS, colour)


def facing_word(facing: str) -> str:
    return _said(FACING_WORDS, facing)


def target_word(target: str) -> str:
    return _said(TARGET_WORDS, target)


def first_trick(rules: RuleSet, players: Sequence[str], dealer: int) -> Markup:
    """Who leads the first trick of a coming deal, as one sentence.

    The sentence is the translator's, markup and all (as a template's trans block takes
    it); the leader's name goes into it escaped.
    """
    if rules.first_lead is FirstLead.RED_ONE:
        return Markup(gettext("First trick: <strong>whoever holds the Red 1</strong> leads."))
    name = players[rules.first_leader(len(players), dealer) or 0]
    if rules.first_lead is FirstLead.DEALER_LEFT:
        who = gettext("%(name)s (the dealer's left)") % {"name": name}
    else:
        who = gettext("%(name)s (the dealer's right)") % {"name": name}
    return Markup(gettext("First trick: <strong>%(who)s</strong> leads.")) % {"who": who}


def init_app(app: Flask) -> None:
    for word in (preset_name, pass_word, pass_sentence, colour_word, facing_word, target_word, first_trick):
        app.add_template_global(word)
