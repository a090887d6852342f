"""Parts of a game page rendered once per version of the game, for every phone that asks.

A 30-deal game's deals table and chart are most of its page's time: some 2,000 numbers
and names, each escaped and said in the reader's language. What they show is the game's
inputs folded by its rules, its players' names and the reader's language, and nothing of
the phone that asks (no form, no token): so they are kept per worker under every one of
those. The game's version goes up at every write (an edit and an undo too), so a kept
part is never a stale score: a write changes the key.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import Flask, current_app, g, render_template, request
from flask_wtf.csrf import generate_csrf
from markupsafe import Markup

from ..store.games import Game
from .i18n import language

Html = TypeVar("Html", bound=str)


class Kept(Generic[Html]):
    """Html kept per worker process under a key, the oldest dropped first once full: more
    than ``size`` copies, or more than ``budget`` characters in all.

    The key must hold everything the html shows: a kept copy is never checked again.
    """

    def __init__(self, size: int, budget: int | None = None) -> None:
        self.size = size
        self.budget = budget
        self._kept: OrderedDict[Hashable, Html] = OrderedDict()
        self._characters = 0
        self._keeping = threading.Lock()  # a worker answers on several threads

    def find(self, key: Hashable) -> Html | None:
        with self._keeping:
            html = self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
            return html

    def keep(self, key: Hashable, html: Html) -> None:
        with self._keeping:
            before = self._kept.pop(key, None)
            if before is not None:
                self._characters -= len(before)
            self._kept[key] = html
            self._characters += len(html)
            while len(self._kept) > self.size or (
                self.budget is not None and self._characters > self.budget and len(self._kept) > 1
            ):
                _, dropped = self._kept.popitem(last=False)
                self._characters -= len(dropped)

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._keeping:
            self._kept.clear()
            self._characters = 0

    def get(self, key: Hashable, make: Callable[[], Html]) -> Html:
        html = self.find(key)
        if html is None:
            # made outside the lock: two threads may both make a new version, once each
            html = make()
            self.keep(key, html)
        return html


# a few hundred tables' worth of parts per worker process
_parts: Kept[Markup] = Kept(512)
# and of the rows of their tables (a few hundred tables of 30 to 60 deals, and their
# followers' copies), some 20 MB at most
_rows: Kept[Markup] = Kept(50_000, budget=20_000_000)


def part_key(template: str, game: Game, readonly: bool) -> tuple[Hashable, ...]:
    """What a part of ``game``'s page shows besides the game's inputs at one version."""
    return (
        current_app.config["RELEASE"],
        template,
        game.id,
        tuple(game.player_names),
        language(),
        # the links in it (a deal's edit link) start with the app's own path
        request.script_root,
        readonly,
    )


def kept_part(template: str, game: Game, readonly: bool, **context: object) -> Markup:
    """``template`` rendered with ``game``, ``readonly`` and ``context``, once per version.

    ``context`` must follow from the game as it is at that version (its state, its chart):
    it is not part of the key.
    """
    key = (*part_key(template, game, readonly), game.version)
    return _parts.get(key, lambda: Markup(render_template(template, game=game, readonly=readonly, **context)))


def kept_row(part: tuple[Hashable, ...], *shows: Hashable, caller: Callable[[], str]) -> Markup:
    """A ``{% call kept_row(part, ...) %}`` block's row, rendered once for what it shows.

    A new version of a game makes its parts again (``kept_part``), but in a long game all
    of a table's rows but the new deal's show what they showed before: each is kept under
    its part's key (``part_key``) and ``shows``, which must hold everything else the row
    shows (a deal's number, dealer, scores and totals). A kept row is never checked again.
    """
    return _rows.get((*part, *shows), lambda: Markup(caller()))


def submission() -> str:
    """This page's form id, one per page sent: a form sent twice is stored once
    (companion/service.py). Every form of one page shares it."""
    if "submission" not in g:
        g.submission = uuid.uuid4().hex
    return str(g.submission)


# what a kept page holds in place of the one phone's token and form id: nothing a page
# can say by chance (a name, a number) looks like these
_TOKEN = f"kept-token-{secrets.token_hex(12)}"
_SUBMISSION = f"kept-submission-{secrets.token_hex(12)}"


def with_holes(html: str) -> str:
    """A page made for this phone, without what is this phone's alone: its form token and its form id."""
    html = html.replace(generate_csrf(), _TOKEN)
    if "submission" in g:
        html = html.replace(g.submission, _SUBMISSION)
    return html


def filled(html: str) -> str:
    """A kept page with this phone's token and a new form id in its holes."""
    return html.replace(_TOKEN, generate_csrf()).replace(_SUBMISSION, submission())


def init_app(app: Flask) -> None:
    app.add_template_global(kept_part)
    app.add_template_global(part_key)
    app.add_template_global(kept_row)
