"""Spy's words for the rules' codes (a colour, a facing, a target), as template globals
(companion/web/words.py says why)."""

from __future__ import annotations

from flask import Flask

from companion.web.words import Words, pgettext, said

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


def colour_word(colour: str) -> str:
    return said(COLOUR_WORDS, colour)


def facing_word(facing: str) -> str:
    return said(FACING_WORDS, facing)


def target_word(target: str) -> str:
    return said(TARGET_WORDS, target)


def card_label(target: str) -> str:
    """A target's name as a base's narrow card shows it: its number kept with the word before
    it ("Top Secret" over "1" would be three lines in a card a seventh of a phone wide)."""
    words = target_word(target).rsplit(" ", 1)
    return "\u00a0".join(words)


def init_app(app: Flask) -> None:
    for word in (colour_word, facing_word, target_word, card_label):
        app.add_template_global(word)
