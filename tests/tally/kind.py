"""The tally as the shared pages see it: its blueprint, its file format, its figures."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from flask import Blueprint, Flask, redirect, request, url_for
from werkzeug.wrappers import Response

from companion import service
from companion.exchange.fields import Bad, listed, names, parse_id, parse_time, timestamp, whole
from companion.registry import Column, GameKind, Rows
from companion.rules import N_, Message, RulesError
from companion.store.games import Game, game_or_404
from companion.web.fragments import page_or_fragment
from companion.web.home import new_game_page

from . import rules
from .models import KEY, TallyGame, TallyRound

bp = Blueprint("tally", __name__, template_folder=str(Path(__file__).parent / "templates"))


@bp.post("/tally/new")
def create() -> Response:
    try:
        setup = rules.new_setup([request.form.get(f"tally-player-{row}", "") for row in range(rules.MAX_PLAYERS)])
    except RulesError as error:
        return new_game_page(KEY, values=request.form, errors=error.errors, status=422)
    game = service.start(TallyGame.started, setup)
    return redirect(url_for("tally.show", game_id=game.id), code=303)


@bp.get("/tally/<game_id>")
def show(game_id: str) -> Response:
    game = game_or_404(TallyGame, game_id)
    return page_or_fragment("tally/game.html", "tally/_game.html", game=game, state=game.state(), messages=[])


@bp.post("/tally/<game_id>/rounds")
def record(game_id: str) -> Response:
    game = game_or_404(TallyGame, game_id)
    points = tuple(int(request.form.get(f"points-{seat}", "0")) for seat in range(len(game.seats)))
    service.record(game, points, request.form.get("submission"), request.form.get("number"))
    return redirect(url_for("tally.show", game_id=game.id), code=303)


@dataclass(frozen=True)
class TallyInput:
    kind: ClassVar[str] = KEY
    id: str | None
    created_at: datetime | None
    players: tuple[str, ...]
    state: rules.State
    id_replaced: bool = False


class Tally(GameKind):
    key: ClassVar[str] = KEY
    name: ClassVar[Message] = N_("Tally")
    following: ClassVar[Message] = N_("Following a tally")
    model: ClassVar[type[Game]] = TallyGame
    folder: ClassVar[str] = "tally"
    show: ClassVar[str] = "tally.show"

    def init_app(self, app: Flask) -> None:
        app.register_blueprint(bp)

    def to_json(self, game: Game) -> dict[str, Any]:
        assert isinstance(game, TallyGame)
        state = game.state()
        return {
            "id": game.id,
            "kind": KEY,
            "players": list(game.player_names),
            "rounds": [list(points) for points in state.rounds],
            "created_at": timestamp(game.created_at),
            "derived": {"totals": list(state.totals)},
        }

    def parse(self, data: dict[str, Any]) -> TallyInput:
        players = names(data)
        rounds = [
            tuple(whole(value, "points") for value in row)
            for row in listed(data, "rounds", rules.ROUNDS, N_("at most three rounds"))
        ]
        try:
            state = rules.replay(rules.new_setup(players), rounds)
        except RulesError as error:
            raise Bad(error.message) from None
        game_id, replaced = parse_id(data.get("id"))
        return TallyInput(game_id, parse_time(data.get("created_at")), tuple(players), state, replaced)

    def rows(self, item: Any, game_id: str, created: datetime) -> Rows:
        return Rows(
            game={"first_seat": 0},
            tables={
                TallyRound: [
                    {"game_id": game_id, "number": number, "points": list(points), "submission_id": None}
                    for number, points in enumerate(item.state.rounds, start=1)
                ]
            },
        )

    def live(self, game: Game) -> dict[str, Any]:
        return {"state": game.state(), "messages": []}

    def player_columns(self) -> list[Column]:
        return []

    def player_stats(self, player_id: int, period: Any) -> None:
        return None
