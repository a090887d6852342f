"""Black Spy as the shared pages see it: one registered object (companion/registry.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

from flask import Flask

from companion.registry import Column, GameKind, Rows
from companion.rules import N_, Message
from companion.store.games import Game, load_inputs
from companion.store.statistics import Period

from . import codec, stats, views, words
from . import rules as bs
from .chart import adds_a_point, player_marks, score_chart
from .forms import MAX_ROWS, share_from_form
from .models import KEY, BlackSpyGame, share_from_json, share_to_json

# Black Spy on BoardGameGeek, which BG Stats names its games by
BGG_ID = 1982


class BlackSpy(GameKind):
    key: ClassVar[str] = KEY
    name: ClassVar[Message] = N_("Black Spy")
    following: ClassVar[Message] = N_("Following Black Spy")
    model: ClassVar[type[Game]] = BlackSpyGame
    folder: ClassVar[str] = "black_spy"
    show: ClassVar[str] = "black_spy.show"
    reference: ClassVar[str | None] = "black_spy.rules_page"

    def init_app(self, app: Flask) -> None:
        app.register_blueprint(views.bp)
        words.init_app(app)
        # globals, not a context processor, so macros imported without context see them too
        app.jinja_env.globals.update(
            BLACK_CARDS=bs.BLACK_CARDS,
            HIGH_BLACKS=bs.HIGH_BLACKS,
            PASSED_CARDS=bs.PASSED_CARDS,
            HEAVY_DEAL=bs.HEAVY_DEAL,
            BLACK_SPY_PLAYERS=(bs.STANDARD.min_players, bs.STANDARD.max_players),
            DEFAULT_PRESET=bs.DEFAULT_PRESET.value,
            rematch_first_dealer=bs.rematch_first_dealer,
            # drawn by black_spy/_progress.html for every page and every write
            score_chart=score_chart,
            adds_a_point=adds_a_point,
            player_marks=player_marks,
        )

    def to_json(self, game: Game) -> dict[str, Any]:
        assert isinstance(game, BlackSpyGame)
        return codec.to_json(game)

    def parse(self, data: dict[str, Any]) -> codec.BlackSpyInput:
        return codec.parse(data)

    def rows(self, item: Any, game_id: str, created: datetime) -> Rows:
        return codec.rows(item, game_id, created)

    def csv_rows(self, game: Game) -> Any:
        assert isinstance(game, BlackSpyGame)
        return codec.csv_rows(game)

    def preload(self, games: Sequence[Game]) -> None:
        load_inputs(games, BlackSpyGame.deals)

    def new_game(self, values: Mapping[str, str]) -> dict[str, Any]:
        return {"rows": MAX_ROWS, "presets": bs.PRESETS}

    # --- each player's own phone: their share of the next deal ----------------------------
    seat_shares: ClassVar[bool] = True

    def share_from_form(self, game: Game, seat: int, form: Mapping[str, str]) -> dict[str, Any]:
        assert isinstance(game, BlackSpyGame)
        return share_to_json(share_from_form(game.setup(), seat, form))

    def entry_from_shares(self, game: Game, shares: Mapping[int, Mapping[str, Any]]) -> bs.DealEntry:
        assert isinstance(game, BlackSpyGame)
        setup = game.setup()
        kept = [share_from_json(dict(shares[seat])) for seat in range(setup.size)]
        return bs.deal_from_shares(setup.rules, setup.players, kept)

    def entry_name(self, number: int) -> Message:
        return N_("deal %(number)s", number=number)

    def share_words(self, game: Game, share: Mapping[str, Any]) -> str:
        assert isinstance(game, BlackSpyGame)
        return words.share_words(game.rules(), share_from_json(dict(share)))

    def bgstats(self, game: Game, state: Any) -> dict[str, Any]:
        # points are bad: the lowest total wins
        return {"name": "Black Spy", "bggId": BGG_ID, "highestWins": False}

    def player_columns(self) -> list[Column]:
        return stats.player_columns()

    def player_stats(self, player_id: int, period: Period) -> stats.PlayerStats | None:
        figures = stats.player_stats(player_id, period)
        return figures if figures.games else None
