"""Phones, replays and races: a Black Spy deal sent twice, sent late, or sent without its token.

The same submission counts once; a post without its CSRF token is refused. A deal sent from a
page another phone has overtaken (by one deal or many, an edit, an undo, the game's end) is
refused in words and nothing is written; its numbers stay on screen to record as the next deal
or discard, unless they are the deal another phone already counted.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from tests.black_spy_app_helpers import page
from tests.helpers import game_state, make_app, post_cards, post_points, snapshot, start_game


def test_the_same_submission_sent_twice_is_recorded_once(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], submission="abc123", number="1")
    response = post_points(client, game_id, [20, 15, 25, 0], submission="abc123", number="1")
    assert response.status_code == 303
    assert len(game_state(app, game_id).deals) == 1
    assert "already recorded" in page(client, game_id)


def test_a_deal_sent_from_a_page_that_missed_another_phones_deal_is_refused_in_words(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    before = snapshot(app)
    response = post_points(client, game_id, [10, 10, 10, 30], number="1")
    assert response.status_code == 409
    assert "Deal 1 was just recorded from another phone" in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_a_post_without_a_csrf_token_is_refused(database_url: str) -> None:
    app = make_app(database_url, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    before = snapshot(app)
    response = client.post("/black-spy/new", data={"player-0": "Ana", "player-1": "Ben", "player-2": "Cy"})
    assert response.status_code == 400
    assert "Reload the page and try again" in response.get_data(as_text=True)
    assert snapshot(app) == before


def deal_one_sent_late(client: FlaskClient, game_id: str, points: list[int]) -> str:
    """Another phone, still on the page of deal 1, sends its own numbers for it: refused (409)."""
    late = post_points(client, game_id, points, number="1", htmx=True)
    assert late.status_code == 409
    return late.get_data(as_text=True)


def beaten_to_deal_one(client: FlaskClient, app: Flask, points: list[int]) -> tuple[str, Any, str]:
    """Deal 1 (20, 15, 25, 0) recorded, then ``points`` sent late for it: the game, the
    database as the late phone found it, and the refusal's page."""
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    before = snapshot(app)
    return game_id, before, deal_one_sent_late(client, game_id, points)


def test_the_same_deal_sent_from_a_second_phone_is_refused_as_counted_once_and_not_kept_for_the_next(
    client: FlaskClient, app: Flask
) -> None:
    _, before, html = beaten_to_deal_one(client, app, [20, 15, 25, 0])
    assert "Deal 1 was just recorded from another phone with the same points as yours: it counts once." in html
    # nothing kept under "Record deal 2", where one more tap would count the deal twice
    assert "record them as deal 2" not in html
    assert not re.search(r'id="points-0"[^>]*value="20"', html)
    assert 'data-repeats="1"' in html
    assert snapshot(app) == before


def test_numbers_beaten_by_another_phones_deal_stay_on_screen_to_record_as_the_next_deal_or_discard(
    client: FlaskClient, app: Flask
) -> None:
    game_id, before, html = beaten_to_deal_one(client, app, [10, 11, 12, 27])
    assert "Deal 1 was just recorded from another phone, so yours was not." in html
    assert "record them as deal 2 if they are a new deal, or discard them" in html
    for seat, points in enumerate((10, 11, 12, 27)):
        assert re.search(rf'id="points-{seat}"[^>]*value="{points}"', html)
    assert "Record deal 2" in html and 'name="number" value="2"' in html
    assert re.search(rf'<a class="button discard" href="/black-spy/{game_id}\?mode=points"', html)
    assert snapshot(app) == before
    # recorded as the next deal, they count once
    assert post_points(client, game_id, [10, 11, 12, 27], number="2").status_code == 303
    assert game_state(app, game_id).totals == (30, 26, 37, 27)


def left_behind_by_two_deals(client: FlaskClient, app: Flask, points: list[int]) -> tuple[Any, str]:
    """Deals 1 (20, 15, 25, 0) and 2 (10, 10, 10, 30) recorded, then ``points`` sent late
    from deal 1's page: the database as the late phone found it, and the refusal's page."""
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    post_points(client, game_id, [10, 10, 10, 30], number="2")
    before = snapshot(app)
    return before, deal_one_sent_late(client, game_id, points)


def test_a_phone_left_behind_by_two_deals_is_told_of_both(client: FlaskClient, app: Flask) -> None:
    before, html = left_behind_by_two_deals(client, app, [10, 11, 12, 27])
    assert "Deals 1 and 2 were just recorded from another phone, so yours was not." in html
    assert "record them as deal 3 if they are a new deal, or discard them" in html
    assert re.search(r'id="points-3"[^>]*value="27"', html)
    assert snapshot(app) == before


def test_a_phone_left_behind_that_sends_a_later_deal_again_is_told_it_counts_once(client: FlaskClient, app: Flask) -> None:
    # still on deal 1's page, it types what another phone recorded as deal 2
    before, html = left_behind_by_two_deals(client, app, [10, 10, 10, 30])
    assert "Deal 2 was just recorded from another phone with the same points as yours: it counts once." in html
    # not kept to record as deal 3, where one more tap would count it twice
    assert "record them as deal 3" not in html and 'data-repeats="2"' in html
    assert snapshot(app) == before


def test_a_phone_left_far_behind_is_told_the_run_of_deals_by_its_ends(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="5000")
    for number in range(1, 6):
        post_points(client, game_id, [20, 15, 25, 0], number=str(number))
    html = deal_one_sent_late(client, game_id, [10, 11, 12, 27])
    assert "Deals 1\u20135 were just recorded from another phone, so yours was not." in html


def test_counted_cards_beaten_by_another_phone_are_kept_too(client: FlaskClient) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    response = post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1}, rest=3, number="1")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert re.search(r'id="low_blacks-0"[^>]*value="3"', html)
    assert re.search(r'name="high-9" value="1" checked', html)
    assert re.search(r'name="rest" value="3"[^>]* checked', html)


def test_a_deal_that_loses_to_another_phones_edit_says_the_game_changed_not_that_an_old_deal_was_recorded(
    client: FlaskClient, app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.service as views
    from companion.kinds.black_spy.models import Deal
    from companion.store.base import db
    from companion.store.games import Game

    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0])
    commit = views.commit_or_conflict

    def another_phone_edits_first() -> bool:
        # the other phone's edit of deal 1 commits between this phone's read and its write
        db.session.rollback()
        game = db.session.get(Game, game_id)
        game.deals[0].raw = [25, 15, 20, 0]
        assert commit()
        return False

    # a deal is written by statements (store/appending.py), or by the flush where it cannot be
    monkeypatch.setattr(views.appending, "append", lambda *_written: another_phone_edits_first())
    monkeypatch.setattr(views, "commit_or_conflict", another_phone_edits_first)
    response = post_points(client, game_id, [10, 11, 12, 27], number="2")
    monkeypatch.undo()
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "was just recorded from another phone" not in html
    assert "Another phone changed this game just now (a deal edited or undone), so nothing was recorded." in html
    # said as a refusal, not in the green of a deal recorded
    assert '<div class="messages refused" role="alert">' in html
    assert re.search(r'id="points-3"[^>]*value="27"', html)
    state = game_state(app, game_id)
    assert len(state.deals) == 1 and state.totals == (25, 15, 20, 0)
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Deal)) == 1


def test_a_deal_sent_after_another_phone_undid_one_says_the_game_changed(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_points(client, game_id, [20, 15, 25, 0], number="1")
    client.post(f"/black-spy/{game_id}/undo", data={"number": "1"})
    response = post_points(client, game_id, [10, 11, 12, 27], number="2")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Another phone changed this game just now" in html and "record them as deal 1" in html


def test_numbers_refused_because_the_game_ended_meanwhile_are_said_so_the_table_can_check_them(
    client: FlaskClient, app: Flask
) -> None:
    game_id = start_game(client, end_value="70")
    assert post_points(client, game_id, [80, -5, -15, 0], shoot="none", number="1").status_code == 303  # the game is over
    before = snapshot(app)
    html = deal_one_sent_late(client, game_id, [10, 20, 30, 0])
    assert "Deal 1 was just recorded from another phone, and the game is over; yours was not recorded." in html
    assert "The numbers typed: Ana\u00a010, Ben\u00a020, Cy\u00a030, and Dee\u00a00." in html
    assert snapshot(app) == before


def test_a_deal_sent_as_deal_0_is_refused_as_out_of_date_and_nothing_is_written(client: FlaskClient, app: Flask) -> None:
    # no page shows a deal 0: a crafted form, or a page broken on the way
    game_id = start_game(client)
    assert post_points(client, game_id, [20, 15, 25, 0]).status_code == 303
    before = snapshot(app)
    response = post_points(client, game_id, [20, 15, 25, 0], number="0")
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Another phone changed this game just now" in html and "Deal 0" not in html
    assert snapshot(app) == before
