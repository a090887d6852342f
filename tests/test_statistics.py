"""A player's statistics, and the kept figures they come from.

A player's statistics come from the figures kept beside each game: over a small history of
games, each player's side of it, a period that leaves out a game, a bad date refused in
words, and a player's page showing only the kinds they finished a game of. Those kept
figures must equal the fold of the game's deals after every change (deals, undos, edits),
and so must the statistics made from them. Every expected figure below is worked out by
hand, in a comment, from the deals the test posts.
"""

from __future__ import annotations

import itertools
from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from companion.kinds.black_spy.stats import head_to_head, player_stats
from companion.store.base import db
from companion.store.games import Game
from companion.store.statistics import Period
from tests.helpers import start_game, start_pad
from tests.history_helpers import (
    assert_kept_figures_equal_the_fold,
    get_html,
    play_small_history,
    player_id,
    rivals_shown,
    small_history_fixture,  # noqa: F401  (pytest finds the small_history fixture here)
    stats_shown,
)

# --- statistics --------------------------------------------------------------------------------


def test_a_players_statistics_over_a_small_history(client: FlaskClient, app: Flask, small_history: dict[str, str]) -> None:
    ana = player_id(app, "Ana")
    with app.app_context():
        stats = player_stats(ana)
        rivals = head_to_head(ana)
    # games: G1-G4 (G5 is not finished) = 4; wins: G2 alone, G3 shared = 2, 1 shared
    assert (stats.games, stats.wins, stats.shared_wins) == (4, 2, 1)
    assert stats.win_rate == pytest.approx(0.5)
    # final totals 45, 0, 0, 105: average 150 / 4 = 37.5, best 0
    assert stats.average_total == pytest.approx(37.5)
    assert stats.best_total == 0
    # deals 2 + 1 + 1 + 3 = 7; scores 20 + 25 + 0 (shot) + 0 + 35 + 40 + 30 = 150; 150 / 7 = 21.43
    assert stats.deals == 7
    assert stats.average_per_deal == pytest.approx(150 / 7)
    # one shoot (G2); raw 30 or more: G2's 60, G4's 35, 40 and 30 = 4
    assert stats.shoots == 1
    assert stats.heavy_deals == 4
    # Ben: G1 45>15 higher, G2 0<60 lower, G3 0=0 level, G4 105>60 higher
    # Cy: G1 45<60, G2 0<60, G3 0<60, all lower; Dee: G4 105>15 higher
    assert [(r.opponent, r.games, r.lower, r.higher, r.level) for r in rivals] == [
        ("Ben", 4, 1, 2, 1),
        ("Cy", 3, 3, 0, 0),
        ("Dee", 1, 0, 1, 0),
    ]

    page = get_html(client, f"/players/{ana}")
    shown = stats_shown(page)
    assert shown["Games played"] == "4"
    assert shown["Wins"] == "2 (1 shared)"
    assert shown["Win rate"] == "50%"
    assert shown["Average final total"] == "37.5"
    assert shown["Best (lowest) final total"] == "0"
    assert shown["Average points per deal"] == "21.4 over 7 deals"
    assert shown["Shoots made (all 16 black cards)"] == "1"
    assert shown["Heavy deals (30 or more raw points)"] == "4"
    assert sorted(rivals_shown(page)) == [("Ben", 4, 1, 2, 1), ("Cy", 3, 3, 0, 0), ("Dee", 1, 0, 1, 0)]


def test_the_other_players_see_their_own_side_of_the_same_history(
    client: FlaskClient, app: Flask, small_history: dict[str, str]
) -> None:
    with app.app_context():
        ben = player_stats(player_id(app, "Ben"))
        dee = player_stats(player_id(app, "Dee"))
        ben_rivals = {r.opponent: (r.games, r.lower, r.higher, r.level) for r in head_to_head(player_id(app, "Ben"))}
    # Ben: totals 15, 60, 0, 60; wins G1 alone and G3 shared
    assert (ben.games, ben.wins, ben.shared_wins, ben.best_total) == (4, 2, 1, 0)
    assert ben.average_total == pytest.approx(135 / 4)
    # Ben's scores 10 + 5 + 60 (Ana shot) + 0 + 15 + 20 + 25 = 135 over 7 deals; no raw of 30+
    assert ben.average_per_deal == pytest.approx(135 / 7)
    assert (ben.shoots, ben.heavy_deals) == (0, 0)
    # Ana's mirror image: against Ben, Ben lower twice, higher once, level once
    assert ben_rivals["Ana"] == (4, 2, 1, 1)
    # Ben vs Cy: G1 15<60, G2 60=60, G3 0<60 -> lower 2, level 1; Ben vs Dee: G4 60>15
    assert ben_rivals["Cy"] == (3, 2, 0, 1)
    assert ben_rivals["Dee"] == (1, 0, 1, 0)
    # Dee: one game, won alone, 15; scores 10, 0, 5
    assert (dee.games, dee.wins, dee.shared_wins, dee.best_total, dee.deals) == (1, 1, 0, 15, 3)
    assert dee.average_per_deal == pytest.approx(5.0)


def test_a_period_that_leaves_out_a_game_changes_the_figures(client: FlaskClient, app: Flask) -> None:
    play_small_history(client, app, old_g4=True)
    ana = player_id(app, "Ana")
    with app.app_context():
        # all time, the old game counts as any other: the same figures as above
        assert (player_stats(ana).games, player_stats(ana).deals, player_stats(ana).heavy_deals) == (4, 7, 4)
    with app.app_context():
        since = player_stats(ana, Period(datetime(2021, 1, 1).date(), None))
        then = player_stats(ana, Period(datetime(2020, 1, 15).date(), datetime(2020, 1, 15).date()))
        then_rivals = head_to_head(ana, Period(datetime(2020, 1, 15).date(), datetime(2020, 1, 15).date()))
    # without G4: games 3, wins 2 (1 shared); totals 45, 0, 0 -> 15.0; deals 4 scoring 45
    assert (since.games, since.wins, since.shared_wins, since.best_total) == (3, 2, 1, 0)
    assert since.win_rate == pytest.approx(2 / 3)
    assert since.average_total == pytest.approx(15.0)
    assert (since.deals, since.shoots, since.heavy_deals) == (4, 1, 1)
    assert since.average_per_deal == pytest.approx(45 / 4)
    # only G4 (the day of its creation counts, both ends included): 105, no win, 3 heavy deals
    assert (then.games, then.wins, then.best_total, then.deals, then.shoots, then.heavy_deals) == (1, 0, 105, 3, 0, 3)
    assert then.average_per_deal == pytest.approx(35.0)
    assert [(r.opponent, r.games, r.lower, r.higher, r.level) for r in then_rivals] == [("Ben", 1, 0, 1, 0), ("Dee", 1, 0, 1, 0)]

    page = get_html(client, f"/players/{ana}?from=2021-01-01")
    shown = stats_shown(page)
    assert shown["Games played"] == "3"
    assert shown["Win rate"] == "67%"
    assert shown["Average final total"] == "15.0"
    assert shown["Heavy deals (30 or more raw points)"] == "1"
    assert "Dee" not in {name for name, *_ in rivals_shown(page)}
    page = get_html(client, f"/players/{ana}?from=2020-01-15&to=2020-01-15")
    shown = stats_shown(page)
    assert shown["Games played"] == "1"
    assert shown["Win rate"] == "0%"
    assert shown["Best (lowest) final total"] == "105"
    assert shown["Average points per deal"] == "35.0 over 3 deals"
    assert sorted(rivals_shown(page)) == [("Ben", 1, 0, 1, 0), ("Dee", 1, 0, 1, 0)]


@pytest.mark.parametrize("query", ["from=notadate", "to=2024-13-45", "from=2024-01-01&to=yesterday"])
def test_a_bad_date_is_refused_in_words_not_with_a_server_error(client: FlaskClient, app: Flask, query: str) -> None:
    start_game(client, names=("Ana", "Ben", "Cy"))
    page = get_html(client, f"/players/{player_id(app, 'Ana')}?{query}", status=422)
    assert "Dates are written YYYY-MM-DD." in page


def test_a_players_page_shows_the_kinds_they_finished_a_game_of_and_no_empty_others(client: FlaskClient, app: Flask) -> None:
    pad = start_pad(client, "Golf", ("Vic", "Wes", "Xia"))
    client.post(f"/scorepad/{pad}/end", data={})
    page = get_html(client, f"/players/{player_id(app, 'Vic')}")
    assert 'id="scorepad-stats"' in page
    # no Black Spy nor Spy game: no block of zeros for them
    assert 'id="black-spy-stats"' not in page and 'id="spy-stats"' not in page
    # a period with none of the player's games: said once
    assert "No finished game yet." in get_html(client, f"/players/{player_id(app, 'Vic')}?from=2001-01-01&to=2001-12-31")


# --- the kept figures equal the fold -----------------------------------------------------------


def assert_statistics_equal_the_fold(app: Flask, game_id: str) -> None:
    """Each player's statistics, for players who sat at this game alone, follow its fold."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        state = game.state()
        size = state.setup.size
        ids = [seat.player_id for seat in game.seats]
        for seat in range(size):
            stats = player_stats(ids[seat])
            rivals = {rival.opponent: (rival.games, rival.lower, rival.higher, rival.level) for rival in head_to_head(ids[seat])}
            if not state.finished:
                assert (stats.games, stats.wins, stats.deals, stats.shoots, stats.heavy_deals) == (0, 0, 0, 0, 0)
                assert rivals == {}
                continue
            total = state.totals[seat]
            won = seat in state.winners
            scores = [deal.scores[seat] for deal in state.deals]
            assert (stats.games, stats.wins, stats.shared_wins) == (1, int(won), int(won and len(state.winners) > 1))
            assert (stats.average_total, stats.best_total) == (pytest.approx(total), total)
            assert stats.deals == len(state.deals)
            assert stats.average_per_deal == pytest.approx(sum(scores) / len(scores))
            assert stats.shoots == sum(deal.shooter == seat for deal in state.deals)
            assert stats.heavy_deals == sum(deal.raw[seat] >= 30 for deal in state.deals)
            assert rivals == {
                state.setup.players[other]: (
                    1,
                    int(total < state.totals[other]),
                    int(total > state.totals[other]),
                    int(total == state.totals[other]),
                )
                for other in range(size)
                if other != seat
            }


@st.composite
def deal_form(draw: st.DrawFn, size: int) -> dict[str, str]:
    """A valid deal for ``size`` players under the standard rules, as the deal form sends it."""
    kind = draw(st.sampled_from(["points", "points", "shoot", "cards"]))
    if kind == "shoot":
        shooter = draw(st.integers(0, size - 1))
        # all 16 blacks (80) less 5 per coloured Spy the shooter took; the others hold the rest
        kept = draw(st.integers(0, 4))
        raw = [0] * size
        raw[shooter] = 80 - 5 * kept
        for _ in range(4 - kept):
            raw[draw(st.sampled_from([seat for seat in range(size) if seat != shooter]))] -= 5
        form = {f"points-{seat}": str(points) for seat, points in enumerate(raw)}
        return {"mode": "points", **form, "shoot": str(shooter)}
    if kind == "cards":
        taker = draw(st.integers(0, size - 1))
        rest = draw(st.sampled_from([seat for seat in range(size) if seat != taker]))
        form = {
            "mode": "cards",
            "rest": str(rest),
            f"black_spies-{taker}": str(draw(st.integers(0, 6))),
            f"low_blacks-{taker}": str(draw(st.integers(0, 6))),
            f"coloured_spies-{taker}": str(draw(st.integers(0, 4))),
        }
        for card in (8, 9, 10, 11):
            form[f"high-{card}"] = str(draw(st.sampled_from([taker, rest])))
        return form
    # 60 split at random, then a few points moved to make negatives possible
    cuts = sorted(draw(st.lists(st.integers(0, 60), min_size=size - 1, max_size=size - 1)))
    raw = [b - a for a, b in zip([0, *cuts], [*cuts, 60], strict=True)]
    giver, taker = draw(st.integers(0, size - 1)), draw(st.integers(0, size - 1))
    moved = draw(st.sampled_from([0, 5, 10]))
    raw[giver] -= moved
    raw[taker] += moved
    return {"mode": "points", **{f"points-{seat}": str(points) for seat, points in enumerate(raw)}, "shoot": "none"}


TABLES = itertools.count(1)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_kept_figures_equal_the_fold_after_every_change(app: Flask, client: FlaskClient, data: st.DataObject) -> None:
    size = data.draw(st.integers(3, 6), label="players")
    end_value = data.draw(st.sampled_from(["40", "80", "150", ""]), label="end value")
    # players new to this database, so that their statistics are this game's alone
    table = next(TABLES)
    names = tuple(f"{name} {table}" for name in ("Ana", "Ben", "Cy", "Dee", "Eve", "Fay")[:size])
    game_id = start_game(client, names=names, first_dealer=data.draw(st.integers(0, size - 1)), end_value=end_value)
    assert_kept_figures_equal_the_fold(app, game_id)
    deals = 0
    for _ in range(data.draw(st.integers(1, 10), label="steps")):
        action = data.draw(st.sampled_from(["deal", "deal", "deal", "undo", "edit"]), label="action")
        if action == "deal":
            response = client.post(f"/black-spy/{game_id}/deals", data=data.draw(deal_form(size), label="deal"))
        elif action == "undo":
            response = client.post(f"/black-spy/{game_id}/undo")
        else:
            number = data.draw(st.integers(1, max(deals, 1)), label="edit number")
            response = client.post(f"/black-spy/{game_id}/deals/{number}/edit", data=data.draw(deal_form(size), label="edit"))
        # refusals are fine (a deal after the end, an edit that ends the game early, nothing to undo)
        assert response.status_code in (303, 404, 409, 422), (action, response.status_code)
        event(f"{action} answered {response.status_code}")
        with app.app_context():
            deals = db.session.scalar(select(Game.rounds).where(Game.id == game_id))
        assert_kept_figures_equal_the_fold(app, game_id)
        assert_statistics_equal_the_fold(app, game_id)
    with app.app_context():
        event("ended finished" if db.session.scalar(select(Game.finished).where(Game.id == game_id)) else "ended open")
