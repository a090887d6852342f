"""Black Spy's words for the rules' codes (a preset, a pass), and the sentence of who leads
a deal's first trick, as template globals (companion/web/words.py says why)."""

from __future__ import annotations

from collections.abc import Sequence

from flask import Flask
from markupsafe import Markup

from companion.web.words import Words, gettext, ngettext, pgettext, said

from .rules import BLACK_CARDS, PASSED_CARDS, FirstLead, RuleSet, Share

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


def preset_name(preset: str) -> str:
    return said(PRESET_NAMES, preset)


def pass_word(direction: str) -> str:
    return said(PASS_WORDS, direction)


def pass_sentence(direction: str) -> str:
    # a direction the sentences do not know is told as across, as before
    return said(PASS_SENTENCES, direction, default="across")


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


def share_words(rules: RuleSet, share: Share) -> str:
    """A player's share of a deal as a list of who sent what shows it: "12", "12 (by cards)",
    and "all 16 black cards" or "not all 16" when they said so."""
    points = share.raw(rules)
    text = gettext("%(points)s (by cards)") % {"points": points} if share.cards is not None else str(points)
    if share.says_shot:
        text += ", " + gettext("all %(blacks)s black cards") % {"blacks": BLACK_CARDS}
    return text


def init_app(app: Flask) -> None:
    for word in (preset_name, pass_word, pass_sentence, first_trick):
        app.add_template_global(word)
