"""Recording a Black Spy deal by cards.

The cards each player took are scored by the rule set, the rest going to the player chosen,
and all sixteen black cards are a shoot; counts that do not fit the deck are refused and
nothing is saved. The cards form is one tap away, asks the classic rules for no coloured Spies,
carries the rule set's card values for its running points, and stays the table's form once
the table counts cards.
"""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.helpers import game_state, post_cards, post_points, snapshot, start_game


def test_a_deal_by_cards_is_scored_and_the_rest_goes_to_the_chosen_player(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    # ana: 2 black spies, 3 low, black 8 and 11, 1 coloured spy = 20 + 3 + 2 + 5 - 5 = 25
    # ben: 1 black spy, black 9 = 13; cy: 2 coloured spies = -10; dee: the rest
    response = post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    assert response.status_code == 303
    # dee: 3 black spies, 3 low, black 10, 1 coloured spy = 30 + 3 + 4 - 5 = 32
    assert game_state(app, game_id).totals == (25, 13, -10, 32)


def test_taking_all_sixteen_black_cards_by_cards_is_a_shoot_without_asking(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    post_cards(client, game_id, {0: (6, 6, 1), 1: (0, 0, 1), 2: (0, 0, 2)}, {8: 0, 9: 0, 10: 0, 11: 0}, rest=3)
    state = game_state(app, game_id)
    assert state.totals == (0, 60, 60, 60)
    assert state.deals[0].raw == (75, -5, -10, 0)


def test_one_tap_on_the_untouched_cards_form_records_nothing(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    # as the page sends it: every box blank, no black 8-11 picked, the dealer marked for the rest
    form = {
        "mode": "cards",
        "rest": "0",
        **{f"{key}-{seat}": "" for key in ("black_spies", "low_blacks", "coloured_spies") for seat in range(4)},
    }
    response = client.post(f"/black-spy/{game_id}/deals", data=form)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert all(f"Enter the cards {name} took (0 if none)." in html for name in ("Ben", "Cy", "Dee"))
    assert snapshot(app) == before


def test_card_counts_that_do_not_fit_the_deck_are_refused_and_nothing_is_saved(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client)
    before = snapshot(app)
    response = post_cards(client, game_id, {0: (4, 0, 0), 1: (3, 0, 0), 2: (0, 0, 0)}, {8: 0, 9: 0, 10: 0, 11: 0}, rest=3)
    assert response.status_code == 422
    assert "The others took 7 Black Spies; the deck has only 6." in response.get_data(as_text=True)
    response = post_cards(client, game_id, {0: (6, 6, 4), 1: (0, 0, 0), 2: (0, 0, 0), 3: (0, 0, 0)}, {8: 0, 9: 1, 10: 2})
    assert response.status_code == 422
    assert "Who took the black 11?" in response.get_data(as_text=True)
    response = post_cards(client, game_id, {0: (5, 6, 4), 1: (0, 0, 0), 2: (0, 0, 0), 3: (0, 0, 0)}, {8: 0, 9: 1, 10: 2, 11: 3})
    assert response.status_code == 422
    assert "The deck has 6 Black Spies; these counts add up to 5." in response.get_data(as_text=True)
    assert snapshot(app) == before


def test_the_cards_form_is_one_tap_away(client: FlaskClient) -> None:
    game_id = start_game(client)
    html = client.get(f"/black-spy/{game_id}?mode=cards").get_data(as_text=True)
    assert 'name="black_spies-0"' in html and 'name="high-11"' in html
    # the dealer gets the rest by default
    assert re.search(r'name="rest" value="0"[^>]* checked', html)


def test_the_classic_cards_form_asks_for_no_coloured_spies_and_records_without_them(client: FlaskClient, app: Flask) -> None:
    game_id = start_game(client, preset="classic")
    html = client.get(f"/black-spy/{game_id}?mode=cards").get_data(as_text=True)
    form = re.search(r'<form method="post" action="/black-spy/[^"]*/deals".*?</form>', html, re.S).group(0)
    assert 'name="black_spies-0"' in form and 'name="low_blacks-0"' in form
    assert "coloured_spies" not in form and "coloured Spies" not in form
    form = {"mode": "cards", "rest": "3", "black_spies-0": "2", "low_blacks-0": "1", "black_spies-1": "3", "black_spies-2": "0"}
    form.update({"high-8": "0", "high-9": "1"})
    response = client.post(f"/black-spy/{game_id}/deals", data=form)
    assert response.status_code == 303
    # 2x10 + 1 + 2, 3x10 + 3, nothing, and the rest: 10 + 5x1 + 4 + 5
    assert game_state(app, game_id).totals == (23, 33, 0, 24)


def test_the_cards_form_carries_the_rule_sets_card_values_for_the_running_points(client: FlaskClient) -> None:
    import html as markup
    import json

    found = re.search(
        r"data-card-values='([^']*)'", client.get(f"/black-spy/{start_game(client)}?mode=cards").get_data(as_text=True)
    )
    assert found
    values = json.loads(markup.unescape(found.group(1)))
    assert values == {
        "counts": {"black_spies": 10, "low_blacks": 1, "coloured_spies": -5},
        "high": {"8": 2, "9": 3, "10": 4, "11": 5},
        "black": ["black_spies", "low_blacks"],
        "shoot": [[0, 60, 60, 60], [60, 0, 60, 60], [60, 60, 0, 60], [60, 60, 60, 0]],
    }
    classic = client.get(f"/black-spy/{start_game(client, preset='classic')}?mode=cards").get_data(as_text=True)
    values = json.loads(markup.unescape(re.search(r"data-card-values='([^']*)'", classic).group(1)))
    assert values["counts"] == {"black_spies": 10, "low_blacks": 1}
    # with the shoot rule off, all the black cards score as counted
    off = client.get(f"/black-spy/{start_game(client, shoot_rule='off')}?mode=cards").get_data(as_text=True)
    assert json.loads(markup.unescape(re.search(r"data-card-values='([^']*)'", off).group(1)))["shoot"] == []


def test_a_table_that_counts_cards_finds_the_cards_form_after_a_reload_an_edit_or_an_undo(client: FlaskClient) -> None:
    game_id = start_game(client)
    tab = lambda page: re.search(r'href="[^"]*\?mode=(\w+)"[^>]*aria-current="page"', page).group(1)  # noqa: E731
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "points"
    post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    post_cards(client, game_id, {0: (2, 3, 1), 1: (1, 0, 0), 2: (0, 0, 2)}, {8: 0, 9: 1, 10: 3, 11: 0}, rest=3)
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "cards"
    # the page may still ask for the other way, for this deal
    assert tab(client.get(f"/black-spy/{game_id}?mode=points").get_data(as_text=True)) == "points"
    client.post(f"/black-spy/{game_id}/undo", data={"number": "2"})
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "cards"
    post_points(client, game_id, [20, 15, 25, 0])
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "points"
    # a deal by points undone leaves the table typing points, though the deal before was counted
    client.post(f"/black-spy/{game_id}/undo", data={"number": "2"})
    assert tab(client.get(f"/black-spy/{game_id}").get_data(as_text=True)) == "points"
