"""Spy as the shared pages see it: one registered object (companion/registry.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

from flask import Flask

from companion.registry import Column, GameKind, Rows
from companion.rules import N_, Message
from companion.store.games import Game, load_inputs
from companion.store.statistics import Period

from . import codec, pages, rules, stats, views, words
from .forms import ROWS
from .models import KEY, SpyGame


class Spy(GameKind):
    key: ClassVar[str] = KEY
    name: ClassVar[Message] = N_("Spy")
    following: ClassVar[Message] = N_("Following Spy")
    model: ClassVar[type[Game]] = SpyGame
    folder: ClassVar[str] = "spy"
    show: ClassVar[str] = "spy.show"
    reference: ClassVar[str | None] = "spy.rules_page"

    def init_app(self, app: Flask) -> None:
        app.register_blueprint(views.bp)
        words.init_app(app)
        app.jinja_env.globals.update(
            SPY_PLAYERS=(rules.MIN_PLAYERS, rules.MAX_PLAYERS),
            # the places a Spy may stand in the largest base (two players: 8 cards, the Spy one)
            SPY_MAX_SLOTS=max(rules.base_size(colour, rules.MIN_PLAYERS) for colour in rules.Colour),
            # and in a base of each table (its colours are the same size but for two players)
            SPY_SLOTS={
                players: rules.base_size(rules.allowed_colours(players)[0], players)
                for players in range(rules.MIN_PLAYERS, rules.MAX_PLAYERS + 1)
            },
            SPY_EXPOSED_MOVES=rules.EXPOSED_MOVES,
            # the colours a table of two plays, in the order the new-game form offers them
            SPY_TWO_COLOURS=[colour.value for colour in rules.allowed_colours(rules.MIN_PLAYERS)],
            rematch_first_player=rules.rematch_first_player,
            # drawn by spy/_turns.html, once per version of a game (companion/web/parts.py)
            turn_log=pages.turn_log,
        )

    def to_json(self, game: Game) -> dict[str, Any]:
        assert isinstance(game, SpyGame)
        return codec.to_json(game)

    def parse(self, data: dict[str, Any]) -> codec.SpyInput:
        return codec.parse(data)

    def rows(self, item: Any, game_id: str, created: datetime) -> Rows:
        return codec.rows(item, game_id, created)

    def csv_rows(self, game: Game) -> Any:
        assert isinstance(game, SpyGame)
        return codec.csv_rows(game)

    def preload(self, games: Sequence[Game]) -> None:
        load_inputs(games, SpyGame.turns)

    def new_game(self, values: Mapping[str, str]) -> dict[str, Any]:
        return {"spy_rows": ROWS, "colours": list(rules.Colour), "facings": list(rules.Facing)}

    def live(self, game: Game) -> dict[str, Any]:
        assert isinstance(game, SpyGame)
        return pages.live(game)

    def entry_name(self, number: int) -> Message:
        return N_("turn %(number)s", number=number)

    def player_columns(self) -> list[Column]:
        return stats.player_columns()

    def player_stats(self, player_id: int, period: Period) -> stats.PlayerStats | None:
        figures = stats.player_stats(player_id, period)
        return figures if figures.games else None
