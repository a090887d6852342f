"""Words for values the rules give as English codes ("left", "safe-1", "classic"), and
the sentence of who leads a deal's first trick.

The code is never printed; its word in the reader's language is. These are template
globals, not Jinja macros: a page says them over and over (every row of a 30-deal table
says its pass), and a macro call that built a dict of every word cost some thirty times
this one lookup (benchmarks/pages.py).
"""

from __future__ import annotations

from collections.abc import Sequence

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


def preset_name(preset: str) -> str:
    if preset == "standard":
        return pgettext("rule set", "Standard")
    if preset == "classic":
        return pgettext("rule set", "Classic")
    return preset


def pass_word(direction: str) -> str:
    if direction == "left":
        return pgettext("pass direction", "left")
    if direction == "right":
        return pgettext("pass direction", "right")
    if direction == "across":
        return pgettext("pass direction", "across")
    return direction


def pass_sentence(direction: str) -> str:
    if direction == "left":
        return ngettext("Pass %(num)s card left", "Pass %(num)s cards left", PASSED_CARDS)
    if direction == "right":
        return ngettext("Pass %(num)s card right", "Pass %(num)s cards right", PASSED_CARDS)
    return ngettext("Pass %(num)s card across", "Pass %(num)s cards across", PASSED_CARDS)


def colour_word(colour: str) -> str:
    if colour == "green":
        return pgettext("spy colour", "green")
    if colour == "red":
        return pgettext("spy colour", "red")
    if colour == "blue":
        return pgettext("spy colour", "blue")
    if colour == "yellow":
        return pgettext("spy colour", "yellow")
    return colour


def facing_word(facing: str) -> str:
    if facing == "left":
        return pgettext("spy facing", "left")
    if facing == "right":
        return pgettext("spy facing", "right")
    return facing


def target_word(target: str) -> str:
    if target == "safe-1":
        return pgettext("spy card", "Safe 1")
    if target == "safe-2":
        return pgettext("spy card", "Safe 2")
    if target == "top-secret-1":
        return pgettext("spy card", "Top Secret 1")
    if target == "top-secret-2":
        return pgettext("spy card", "Top Secret 2")
    return target


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
