"""Parts of a game page rendered once per version of the game, for every phone that asks.

A 30-deal game's deals table and chart are most of its page's time: some 2,000 numbers
and names, each escaped and said in the reader's language. What they show is the game's
inputs folded by its rules, its players' names and the reader's language, and nothing of
the phone that asks (no form, no token): so they are kept per worker under every one of
those. The game's version goes up at every write (an edit and an undo too), so a kept
part is never a stale score: a write changes the key.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from flask import Flask, current_app, render_template, request
from markupsafe import Markup

from .i18n import language
from .models import Game

# a few hundred tables' worth of parts per worker process, the oldest dropped first
KEPT_PARTS = 512
_kept: OrderedDict[tuple[Any, ...], Markup] = OrderedDict()
_keeping = threading.Lock()  # a worker answers on several threads


def kept_part(template: str, game: Game, readonly: bool, **context: Any) -> Markup:
    """``template`` rendered with ``game``, ``readonly`` and ``context``, once per version.

    ``context`` must follow from the game as it is at that version (its state, its chart):
    it is not part of the key.
    """
    key = (
        current_app.config["RELEASE"],
        template,
        game.id,
        game.version,
        tuple(game.player_names),
        language(),
        # the links in it (a deal's edit link) start with the app's own path
        request.script_root,
        readonly,
    )
    with _keeping:
        part = _kept.get(key)
        if part is not None:
            _kept.move_to_end(key)
            return part
    # rendered outside the lock: two threads may both render a new version, once each
    part = Markup(render_template(template, game=game, readonly=readonly, **context))
    with _keeping:
        _kept[key] = part
        while len(_kept) > KEPT_PARTS:
            _kept.popitem(last=False)
    return part


def init_app(app: Flask) -> None:
    app.add_template_global(kept_part)
