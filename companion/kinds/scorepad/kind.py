"""The score pad as the shared pages see it: one registered object (companion/registry.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, ClassVar

from flask import Flask

from companion.registry import Column, GameKind, Rows
from companion.rules import N_, Message
from companion.store.games import Game
from companion.store.statistics import Period

from . import codec, pages, stats, views
from . import rules as sp
from .forms import ROWS, share_from_form
from .models import KEY, ScorepadGame, preload


class Scorepad(GameKind):
    key: ClassVar[str] = KEY
    name: ClassVar[Message] = N_("Score pad")
    following: ClassVar[Message] = N_("Following a score pad")
    model: ClassVar[type[Game]] = ScorepadGame
    folder: ClassVar[str] = "scorepad"
    show: ClassVar[str] = "scorepad.show"

    def init_app(self, app: Flask) -> None:
        app.register_blueprint(views.bp)
        # the numbers its forms show, from the rules
        app.jinja_env.globals.update(SCOREPAD_PLAYERS=(sp.MIN_PLAYERS, sp.MAX_PLAYERS), SCOREPAD_MAX_TARGET=sp.MAX_TARGET)

    def to_json(self, game: Game) -> dict[str, Any]:
        assert isinstance(game, ScorepadGame)
        return codec.to_json(game)

    def parse(self, data: dict[str, Any]) -> codec.ScorepadInput:
        return codec.parse(data)

    def rows(self, item: Any, game_id: str, created: datetime) -> Rows:
        return codec.rows(item, game_id, created)

    def csv_rows(self, game: Game) -> Any:
        assert isinstance(game, ScorepadGame)
        return codec.shared_csv_rows(game)

    def preload(self, games: Sequence[Game]) -> None:
        preload(games)

    def new_game(self, values: Mapping[str, str]) -> dict[str, Any]:
        return {"pad_rows": ROWS}

    def live(self, game: Game) -> dict[str, Any]:
        assert isinstance(game, ScorepadGame)
        return pages.live(game)

    # --- each player's own phone: their points of the next round ---------------------------
    seat_shares: ClassVar[bool] = True

    def share_from_form(self, game: Game, seat: int, form: Mapping[str, str]) -> dict[str, Any]:
        assert isinstance(game, ScorepadGame)
        return {"points": share_from_form(game.setup(), seat, form)}

    def entry_from_shares(self, game: Game, shares: Mapping[int, Mapping[str, Any]]) -> sp.Round:
        assert isinstance(game, ScorepadGame)
        setup = game.setup()
        return sp.check_round(setup, [shares[seat]["points"] for seat in range(setup.size)])

    def entry_name(self, number: int) -> Message:
        return N_("round %(number)s", number=number)

    def changed_name(self, number: int, before: Mapping[str, str]) -> Message:
        # the end holds no points: an undone end is not a round, whose number it only shares
        return N_("round %(number)s", number=number) if before else N_("the end")

    def share_words(self, game: Game, share: Mapping[str, Any]) -> str:
        return str(share["points"])

    def title(self, game: Game) -> str:
        # the table named the game ("Golf", "Hearts"): two pads are told apart by it
        assert isinstance(game, ScorepadGame)
        return game.pad.name

    def bgstats(self, game: Game, state: Any) -> dict[str, Any]:
        # no BoardGameGeek id: BG Stats matches the game by the name the table gave it
        assert isinstance(game, ScorepadGame)
        return {"name": game.pad.name, "highestWins": not state.setup.lowest_wins}

    def player_columns(self) -> list[Column]:
        return stats.player_columns()

    def player_stats(self, player_id: int, period: Period) -> list[tuple[str, int, int]] | None:
        return stats.player_stats(player_id, period) or None
