"""Every kind's kept figures equal its fold, after any sequence of writes through the pages.

Lists and statistics read the figures a game keeps beside its inputs (finished, rounds,
whose turn, each seat's total and share of the win, each deal's scores). They are
rewritten by the session on every flush; this checks that they always say what a fresh
replay of the inputs says, for Black Spy, Spy and the score pad alike.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from companion import registry
from companion.kinds.black_spy.models import BlackSpyGame, DealScore, score_rows
from companion.store.base import db
from companion.store.games import Game, Seat
from tests.helpers import post_points, post_round, start_game, start_pad


def assert_kept_figures_equal_the_fold(app: Flask, game_id: str) -> None:
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = game.state()
        figures = registry.of(game).figures(state)
        assert (game.finished, game.rounds, game.next_seat) == (figures.finished, figures.rounds, figures.next_seat)
        seats = db.session.execute(select(Seat.position, Seat.total, Seat.won).where(Seat.game_id == game_id)).all()
        assert sorted(map(tuple, seats)) == [(seat, figures.totals[seat], figures.won[seat]) for seat in range(len(seats))]
        scores = db.session.execute(
            select(DealScore.number, DealScore.seat, DealScore.raw, DealScore.score, DealScore.shot).where(
                DealScore.game_id == game_id
            )
        ).all()
        assert sorted(map(tuple, scores)) == sorted(
            (row["number"], row["seat"], row["raw"], row["score"], row["shot"]) for row in kept_scores(game, state)
        )


def kept_scores(game: Game, state: object) -> list[dict]:
    """The per-deal scores a game keeps beside its figures: a finished Black Spy game's alone."""
    return score_rows(state) if isinstance(game, BlackSpyGame) and state.finished else []  # type: ignore[attr-defined]


ACTIONS = st.lists(st.sampled_from(["round", "round", "round", "end", "undo", "edit"]), min_size=1, max_size=10)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    actions=ACTIONS,
    target=st.one_of(st.none(), st.integers(5, 40)),
    points=st.lists(st.integers(-10, 20), min_size=30, max_size=30),
)
def test_a_score_pads_kept_figures_follow_every_round_end_undo_and_edit(
    app: Flask, client: FlaskClient, actions, target, points
) -> None:
    game_id = start_pad(client, players=("Ana", "Ben", "Cy"), **({"target": str(target)} if target else {}))
    values = iter(points)
    for action in actions:
        if action == "round":
            post_round(client, game_id, (next(values), next(values), next(values)))
        elif action == "end":
            client.post(f"/scorepad/{game_id}/end")
        elif action == "undo":
            client.post(f"/scorepad/{game_id}/undo")
        else:
            client.post(f"/scorepad/{game_id}/rounds/1/edit", data={"points-0": "3", "points-1": "2", "points-2": "1"})
        assert_kept_figures_equal_the_fold(app, game_id)


def test_a_spy_games_kept_figures_follow_turns_a_win_and_undo(app: Flask, client: FlaskClient) -> None:
    response = client.post(
        "/spy/new",
        data={"spy-player-0": "Ana", "spy-player-1": "Ben", "spy-colour-0": "green", "spy-colour-1": "red", "first_player": "0"},
    )
    game_id = response.location.rsplit("/", 1)[1]
    turns = [
        {"look": "1:4", "answer": "bomb"},
        {"look": "0:2", "answer": "target"},
        {"look": "1:4", "answer": "lit-bomb"},  # Ana finds her lit bomb: Ben wins
    ]
    for turn in turns:
        assert client.post(f"/spy/{game_id}/turns", data=turn).status_code in (303, 409, 422)
        assert_kept_figures_equal_the_fold(app, game_id)
    with app.app_context():
        assert db.session.get(Game, game_id).finished
    client.post(f"/spy/{game_id}/undo")
    assert_kept_figures_equal_the_fold(app, game_id)
    with app.app_context():
        assert not db.session.get(Game, game_id).finished


def test_a_black_spy_games_kept_figures_follow_an_edit_of_an_old_deal(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, end_value="100")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [60, 0, 0, 0], shoot="none")
    assert_kept_figures_equal_the_fold(app, game_id)
    form = {"mode": "points", "points-0": "0", "points-1": "35", "points-2": "25", "points-3": "0"}
    assert client.post(f"/black-spy/{game_id}/deals/1/edit", data=form).status_code == 303
    assert_kept_figures_equal_the_fold(app, game_id)


def kept_score_rows(app: Flask, game_id: str) -> dict[tuple[int, int], int]:
    with app.app_context():
        rows = db.session.execute(
            select(DealScore.number, DealScore.seat, DealScore.id).where(DealScore.game_id == game_id)
        ).all()
        return {(number, seat): row_id for number, seat, row_id in rows}


def test_a_game_keeps_its_deal_scores_once_it_is_finished_and_lets_them_go_when_it_opens_again(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start_game(client, end_value="60")
    post_points(client, game_id, [20, 15, 25, 0])
    post_points(client, game_id, [10, 10, 20, 20])
    # statistics count finished games alone: an open game's deals write none
    assert kept_score_rows(app, game_id) == {}
    assert post_points(client, game_id, [0, 30, 15, 15]).status_code == 303  # Cy reaches 60
    assert sorted(kept_score_rows(app, game_id)) == [(number, seat) for number in (1, 2, 3) for seat in range(4)]
    assert_kept_figures_equal_the_fold(app, game_id)
    assert client.post(f"/black-spy/{game_id}/undo", data={"number": "3"}).status_code == 303
    assert kept_score_rows(app, game_id) == {}
    assert_kept_figures_equal_the_fold(app, game_id)


def statements_of(app: Flask, write) -> list[str]:
    from sqlalchemy import event

    seen: list[str] = []
    with app.app_context():
        engine = db.engine

    def note(_connection, _cursor, statement, *_rest) -> None:
        seen.append(statement)

    event.listen(engine, "before_cursor_execute", note)
    try:
        write()
    finally:
        event.remove(engine, "before_cursor_execute", note)
    return seen


def test_statistics_are_recounted_only_for_a_game_that_is_or_was_over(app: Flask, client: FlaskClient) -> None:
    game_id = start_game(client, end_value="50")
    recounts = lambda statements: [s for s in statements if "player_days" in s]  # noqa: E731
    assert recounts(statements_of(app, lambda: post_points(client, game_id, [20, 15, 25, 0]))) == []
    # 60 more for Ana takes her past the house end value of 50: the game is over
    assert recounts(statements_of(app, lambda: post_points(client, game_id, [60, 0, 0, 0], shoot="none"))) != []
    with app.app_context():
        assert db.session.get(Game, game_id).finished
    # undone, the game is open again, and the day's figures forget it
    assert recounts(statements_of(app, lambda: client.post(f"/black-spy/{game_id}/undo", data={"number": "2"}))) != []
