"""Links that leave the companion: a QR code for the read-only link, and BG Stats."""

from __future__ import annotations

import json
from functools import lru_cache
from urllib.parse import quote

import segno
from flask import Flask, url_for
from markupsafe import Markup

from .models import Game
from .rules import black_spy as bs

BG_STATS = "https://app.bgstatsapp.com/createPlay.html"
BLACK_SPY_BGG_ID = 1982


@lru_cache(maxsize=1024)
def qr_svg(text: str) -> Markup:
    """A QR code as inline svg, drawn by the server (once per link: it never changes)."""
    return Markup(segno.make(text, error="m").svg_inline(scale=4, dark="#000", light="#fff"))


def bgstats_play(game: Game, state: bs.GameState) -> dict:
    """A finished game as BG Stats' documented create-play json."""
    names = state.setup.players
    started = game.created_at
    minutes = max(1, round((game.updated_at - started).total_seconds() / 60))
    return {
        "sourceName": "Companion",
        "sourceUrl": url_for("black_spy.show", game_id=game.id, _external=True),
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": minutes,
        "game": {"name": "Black Spy", "bggId": BLACK_SPY_BGG_ID, "highestWins": False, "sourceGameId": "black-spy"},
        "players": [
            {
                "name": name,
                "score": state.totals[seat],
                "winner": seat in state.winners,
                "startPlayer": seat == state.setup.first_dealer,
            }
            for seat, name in enumerate(names)
        ],
    }


def bgstats_link(game: Game, state: bs.GameState) -> str:
    return f"{BG_STATS}?data={quote(json.dumps(bgstats_play(game, state), separators=(',', ':')))}"


def init_app(app: Flask) -> None:
    app.add_template_global(qr_svg)
    app.add_template_global(bgstats_link)
