"""Links that leave the companion: a QR code for the read-only link, and BG Stats."""

from __future__ import annotations

import io
import json
from functools import lru_cache
from typing import Any
from urllib.parse import quote

import segno
from flask import Flask, url_for
from markupsafe import Markup

from .models import Game

BG_STATS = "https://app.bgstatsapp.com/createPlay.html"
BLACK_SPY_BGG_ID = 1982


@lru_cache(maxsize=1024)
def qr_svg(text: str) -> Markup:
    """A QR code as inline svg, drawn by the server (once per link: it never changes)."""
    return Markup(segno.make(text, error="m").svg_inline(scale=4, dark="#000", light="#fff"))


@lru_cache(maxsize=1024)
def qr_svg_file(text: str) -> bytes:
    """A QR code as an svg file of its own, for an <img> that loads only when it is shown."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue()


def bgstats_play(game: Game, state: Any) -> dict:
    """A finished game as BG Stats' documented create-play json: the game as its kind
    names it there, each player's total, the winners and who started."""
    from . import kinds

    kind = kinds.of(game)
    started = game.created_at
    minutes = max(1, round((game.updated_at - started).total_seconds() / 60))
    described = kind.bgstats(game, state) if kind.bgstats else {"name": str(kind.name)}
    return {
        "sourceName": "Companion",
        "sourceUrl": url_for(kind.show, game_id=game.id, _external=True),
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": minutes,
        "game": {"sourceGameId": kind.key, **described},
        "players": [
            {
                "name": name,
                "score": state.totals[seat],
                "winner": seat in state.winners,
                "startPlayer": seat == game.first_seat,
            }
            for seat, name in enumerate(state.setup.players)
        ],
    }


def black_spy_game(_game: Game, _state: Any) -> dict:
    """Black Spy as BG Stats knows it: its BoardGameGeek id; the lowest total wins."""
    return {"name": "Black Spy", "bggId": BLACK_SPY_BGG_ID, "highestWins": False}


def bgstats_link(game: Game, state: Any) -> str:
    return f"{BG_STATS}?data={quote(json.dumps(bgstats_play(game, state), separators=(',', ':')))}"


def init_app(app: Flask) -> None:
    app.add_template_global(qr_svg)
    app.add_template_global(bgstats_link)
