"""The rules at a glance: what a player reads at the table, every figure from the rules."""

from __future__ import annotations

import html as htmllib
import re

import pytest
from babel.lists import format_list
from flask import Flask, url_for
from flask.testing import FlaskClient

from companion.kinds.black_spy import reference
from companion.kinds.black_spy import rules as bs
from companion.kinds.spy import rules as sr
from companion.web.i18n import LANGUAGES
from tests.helpers import start_game, text

PRESETS = [preset.value for preset in bs.Preset]
PASS_WORDS = {"left": "to the left", "right": "to the right", "across": "across"}


def page(client: FlaskClient, path: str, **query: str) -> str:
    response = client.get(path, query_string=query or None)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def part(html: str, element_id: str) -> str:
    """What the element with this id says; the element must not nest its own kind."""
    match = re.search(rf'<(\w+)[^>]*\sid="{re.escape(element_id)}"[^>]*>(.*?)</\1>', html, re.S)
    assert match, f"no element with id {element_id!r}"
    return text(match.group(2))


def cells(html: str, row_id: str) -> list[str]:
    match = re.search(rf'<tr id="{re.escape(row_id)}">(.*?)</tr>', html, re.S)
    assert match, f"no row {row_id!r}"
    return [text(cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", match.group(1), re.S)]


# --- Black Spy ---------------------------------------------------------------------------


@pytest.mark.parametrize("asked", ["", "standard", "classic", "poker", "CLASSIC", "classic'><script>", "%00", "\x00"])
def test_every_rule_set_asked_for_gets_a_page(page_client: FlaskClient, asked: str) -> None:
    page(page_client, "/rules/black-spy", rules=asked)


@pytest.mark.parametrize("asked", ["poker", "", "Standard"])
def test_an_unknown_rule_set_shows_the_standard_rules(page_client: FlaskClient, asked: str) -> None:
    html = page(page_client, "/rules/black-spy", rules=asked)
    assert re.search(r'href="/rules/black-spy\?rules=standard" aria-current="page"', html)
    assert f"Every deal adds up to {bs.STANDARD.deal_total} points" in text(html)
    assert 'id="changes"' not in html


def test_several_rule_sets_in_the_query_take_the_first(page_client: FlaskClient) -> None:
    html = page(page_client, "/rules/black-spy?rules=classic&rules=standard")
    assert re.search(r'href="/rules/black-spy\?rules=classic" aria-current="page"', html)


@pytest.mark.parametrize("preset", PRESETS)
def test_each_player_count_is_dealt_the_cards_the_rules_give_it(page_client: FlaskClient, preset: str) -> None:
    rules = bs.PRESETS[bs.Preset(preset)]
    html = page(page_client, "/rules/black-spy", rules=preset)
    for players in rules.player_counts:
        assert cells(html, f"cards-each-{players}") == [str(players), str(rules.cards_each(players))]


@pytest.mark.parametrize("preset", PRESETS)
def test_each_player_count_ends_at_the_end_value_of_its_rule_set(page_client: FlaskClient, preset: str) -> None:
    rules = bs.PRESETS[bs.Preset(preset)]
    html = page(page_client, "/rules/black-spy", rules=preset)
    for players in rules.player_counts:
        assert cells(html, f"end-value-{players}") == [str(players), str(rules.end_values[players])]
    assert "Players tied for the lowest total share the win." in part(html, "end")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_scoring_table_gives_every_card_its_points(page_client: FlaskClient, preset: str) -> None:
    rules = bs.PRESETS[bs.Preset(preset)]
    html = page(page_client, "/rules/black-spy", rules=preset)
    assert cells(html, "points-low-blacks") == [f"Black 1 to {bs.LOW_BLACKS}", str(bs.LOW_BLACKS), str(rules.low_black_points)]
    assert cells(html, "points-black-spies")[1:] == [str(bs.BLACK_SPIES), str(rules.black_spy_points)]
    for card in bs.HIGH_BLACKS:
        assert cells(html, f"points-black-{card}") == [f"Black {card}", "1", str(rules.high_black_points[card])]
    assert cells(html, "points-coloured-spies")[1:] == [str(bs.COLOURED_SPIES), str(rules.coloured_spy_points)]


def test_the_cards_in_the_scoring_table_make_the_whole_black_suit(page_client: FlaskClient) -> None:
    html = page(page_client, "/rules/black-spy")
    counted = sum(int(cells(html, row)[1]) for row in ["points-low-blacks", "points-black-spies"])
    counted += sum(int(cells(html, f"points-black-{card}")[1]) for card in bs.HIGH_BLACKS)
    assert counted == bs.BLACK_CARDS


@pytest.mark.parametrize("preset", PRESETS)
def test_every_deal_adds_up_to_the_deal_total_of_its_rule_set(page_client: FlaskClient, preset: str) -> None:
    rules = bs.PRESETS[bs.Preset(preset)]
    said = part(page(page_client, "/rules/black-spy", rules=preset), "deal-total")
    assert f"Every deal adds up to {rules.deal_total} points across the table." in said
    assert f"The black cards make {rules.black_points}" in said


@pytest.mark.parametrize("preset", PRESETS)
def test_taking_all_the_black_cards_scores_zero_and_the_deal_total_for_everyone_else(
    page_client: FlaskClient, preset: str
) -> None:
    rules = bs.PRESETS[bs.Preset(preset)]
    said = part(page(page_client, "/rules/black-spy", rules=preset), "shoot")
    assert (
        f"takes all {bs.BLACK_CARDS} black cards scores 0 for the deal, and every other player scores {rules.deal_total}." in said
    )
    assert ("Shoot rule: on." in said) is rules.shoot_rule
    assert ("unless the table turns it on" in said) is not rules.shoot_rule


def test_the_standard_pass_follows_its_cycle_for_each_player_count(page_client: FlaskClient) -> None:
    said = part(page(page_client, "/rules/black-spy"), "pass")
    assert "each player passes 3 cards face down" in said
    for cycle, counts in bs.STANDARD.pass_groups():
        steps = [
            f"With {format_list([str(players) for players in counts], style='or', locale='en')} players",
            *(f"Deal {number}: pass {PASS_WORDS[direction]}." for number, direction in enumerate(cycle, 1)),
            f"From deal {len(cycle) + 1} the cycle starts again.",
        ]
        assert " ".join(steps) in said
    assert "Across: to the player 2 seats away. Only with 4 players." in said


def test_the_classic_pass_goes_left_every_deal(page_client: FlaskClient) -> None:
    said = part(page(page_client, "/rules/black-spy", rules="classic"), "pass")
    assert "Every deal, pass to the left, whatever the number of players." in said
    assert "Deal 2:" not in said and "Across" not in said


@pytest.mark.parametrize(
    ("preset", "lead"),
    [
        ("standard", "Whoever holds the Red 1 leads the first trick."),
        ("classic", "The player on the dealer's left leads the first trick."),
    ],
)
def test_the_first_trick_is_led_as_the_rule_set_says_and_never_with_a_black_card(
    page_client: FlaskClient, preset: str, lead: str
) -> None:
    said = part(page(page_client, "/rules/black-spy", rules=preset), "lead")
    assert lead in said
    assert "No black card may be led to the first trick." in said


def test_a_trick_is_followed_by_colour_or_rank_and_the_first_black_spy_can_win_it(page_client: FlaskClient) -> None:
    said = part(page(page_client, "/rules/black-spy"), "follow")
    assert "same colour or the same rank as the card led" in said
    assert "the first Black Spy played wins" in said


def test_the_classic_page_says_what_the_classic_rules_change(page_client: FlaskClient) -> None:
    standard, classic = bs.STANDARD, bs.CLASSIC
    (end_value,) = set(classic.end_values.values())
    said = part(page(page_client, "/rules/black-spy", rules="classic"), "changes")
    assert "Every deal, pass to the left, whatever the number of players." in said
    assert "The player on the dealer's left leads the first trick." in said
    assert f"Coloured Spies are worth nothing ({standard.coloured_spy_points} points each in the standard rules)." in said
    assert f"A deal adds up to {classic.deal_total} points ({standard.deal_total} in the standard rules)." in said
    assert f"The game ends when a total reaches or passes {end_value}, whatever the number of players." in said
    assert "The shoot rule is off unless the table turns it on." in said


def test_the_standard_page_lists_no_changes(page_client: FlaskClient) -> None:
    assert 'id="changes"' not in page(page_client, "/rules/black-spy", rules="standard")


def test_a_rule_set_changes_only_what_differs_from_the_standard() -> None:
    assert reference.differences(bs.STANDARD, bs.STANDARD) == frozenset()
    assert reference.differences(bs.CLASSIC, bs.STANDARD) == {
        "pass_cycles",
        "first_lead",
        "coloured_spy_points",
        "deal_total",
        "end_values",
        "shoot_rule",
    }


@pytest.mark.parametrize("preset", PRESETS)
def test_a_black_spy_game_links_to_the_rules_it_is_played_by(client: FlaskClient, app: Flask, preset: str) -> None:
    game_id = start_game(client, preset=preset)
    html = page(client, f"/black-spy/{game_id}")
    with app.test_request_context():
        link = url_for("black_spy.rules_page", rules=preset, game=game_id)
    assert f'href="{link}"'.replace("&", "&amp;") in html
    page(client, link)


# --- Spy -----------------------------------------------------------------------------------


def test_each_spy_table_size_has_its_colour_sets_bases_and_bombs(page_client: FlaskClient) -> None:
    html = page(page_client, "/rules/spy")
    for players in range(sr.MIN_PLAYERS, sr.MAX_PLAYERS + 1):
        colours = sr.allowed_colours(players)
        row = cells(html, f"base-{players}")
        assert row[0] == str(players)
        assert all(colour.value in row[1] for colour in colours)
        assert row[2:] == [
            str(sr.base_size(colours[0], players)),
            str(sr.bombs_in_base(colours[0], players)),
        ]
    assert f"With {sr.BOMB_2_REMOVED_FROM} or more players, the “Bomb 2” cards leave the game." in part(html, "bases")


def test_a_spy_facing_an_exposed_card_moves_as_far_as_the_rules_allow(page_client: FlaskClient) -> None:
    said = part(page(page_client, "/rules/spy"), "move")
    assert f"Facing an exposed card, move {' or '.join(map(str, sr.EXPOSED_MOVES))} places" in said
    assert "exactly as many places as the number on the card it faces" in said
    assert "does not count as a move" in said


def test_spying_looks_at_the_mirror_card(page_client: FlaskClient) -> None:
    said = part(page(page_client, "/rules/spy"), "spying")
    assert "your first card from your left is their first card from their right" in said


def test_every_possible_answer_is_explained(page_client: FlaskClient) -> None:
    html = page(page_client, "/rules/spy")
    for answer in sr.Answer:
        said = part(html, f"answer-{answer.value}")
        assert len(said) > len(answer.value), answer


def test_targets_are_listed_in_the_order_they_are_exposed(page_client: FlaskClient) -> None:
    html = page(page_client, "/rules/spy")
    positions = [html.index(f'id="target-{target.value}"') for target in sr.TARGET_ORDER]
    assert positions == sorted(positions)
    last = part(html, f"target-{sr.TARGET_ORDER[-1].value}")
    assert f"Whoever has their {last} exposed is found out" in part(html, "targets")


def test_players_go_out_found_out_or_blown_up_and_the_last_one_standing_wins(page_client: FlaskClient) -> None:
    html = page(page_client, "/rules/spy")
    for reason in sr.OutReason:
        assert part(html, f"out-{reason.value}")
    assert "The last player still in the game wins." in part(html, "winning")


def test_a_spy_game_links_to_the_spy_rules(client: FlaskClient, app: Flask) -> None:
    form = {"first_player": "0"}
    for row, (name, colour) in enumerate([("Ana", "green"), ("Ben", "red")]):
        form[f"spy-player-{row}"] = name
        form[f"spy-colour-{row}"] = colour
    response = client.post("/spy/new", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    html = page(client, response.location)
    game_id = response.location.rsplit("/", 1)[-1]
    with app.test_request_context():
        link = url_for("spy.rules_page", game=game_id)
    assert f'href="{link}"' in html


# --- in every language ---------------------------------------------------------------------


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("path", ["/rules/black-spy", "/rules/black-spy?rules=classic", "/rules/spy"])
def test_the_pages_open_in_every_language_offered(page_client: FlaskClient, language: str, path: str) -> None:
    response = page_client.get(path, headers={"Accept-Language": language})
    assert response.status_code == 200
    assert f'<html lang="{language}"' in response.get_data(as_text=True)


def test_a_player_who_came_from_a_game_is_offered_the_way_back(client: FlaskClient) -> None:
    # an installed app has no back button of its own
    game_id = start_game(client)
    link = re.search(r'href="([^"]*/rules/black-spy[^"]*)"', page(client, f"/black-spy/{game_id}")).group(1)
    rules_page = page(client, htmllib.unescape(link))
    assert f'href="/black-spy/{game_id}"' in rules_page
    # the tabs keep the way back too
    assert f"rules=classic&amp;game={game_id}" in rules_page


def test_a_way_back_is_offered_only_to_something_shaped_like_a_game(page_client: FlaskClient) -> None:
    for junk in ("", "x", "../../etc", "a" * 40, "<script>"):
        html = page(page_client, "/rules/spy", game=junk)
        assert "Back to the game" not in html


def test_from_a_game_with_house_rules_the_page_shows_that_games_rules(client: FlaskClient) -> None:
    game_id = start_game(client, end_value="130", shoot_rule="off")
    html = page(client, "/rules/black-spy", rules="standard", game=game_id)
    assert "its house rules included" in html
    assert cells(html, "end-value-4")[-1] == "130"
    assert "The shoot rule is off" in text(html)
    # the other preset's tab shows that preset, not the game's
    classic = page(client, "/rules/black-spy", rules="classic", game=game_id)
    assert "its house rules included" not in classic
    assert cells(classic, "end-value-4")[-1] == str(bs.CLASSIC.end_value(4))


def test_a_game_without_house_rules_does_not_say_it_has_them(client: FlaskClient) -> None:
    plain = start_game(client)
    html = page(client, "/rules/black-spy", rules="standard", game=plain)
    assert "house rules" not in text(html).lower()
    assert "These are the rules of the game you came from." in text(html)
    # the preset's own choices, sent by the form, are no house rules either
    same = start_game(client, preset="classic", shoot_rule="off", first_lead="dealer-left")
    html = page(client, "/rules/black-spy", rules="classic", game=same)
    assert "house rules" not in text(html).lower()
    assert 'id="house-rules"' not in html


def test_from_a_classic_game_ending_at_50_the_page_names_the_house_rule_and_never_the_presets_end(client: FlaskClient) -> None:
    game_id = start_game(client, preset="classic", end_value="50")
    html = page(client, "/rules/black-spy", rules="classic", game=game_id)
    (classic_end,) = set(bs.CLASSIC.end_values.values())
    assert str(classic_end) not in text(html)
    assert "The game ends when a total reaches or passes 50, whatever the number of players." in part(html, "house-rules")
    assert "The game ends" not in part(html, "changes")
    for players in bs.CLASSIC.player_counts:
        assert cells(html, f"end-value-{players}")[-1] == "50"
    # the classic choices the table kept are still told as the preset's
    assert "The player on the dealer's left leads the first trick." in part(html, "changes")


def test_each_house_rule_is_named_as_one(client: FlaskClient) -> None:
    game_id = start_game(client, preset="classic", end_value="90", shoot_rule="on", first_lead="dealer-right")
    html = page(client, "/rules/black-spy", rules="classic", game=game_id)
    house = part(html, "house-rules")
    assert "The game ends when a total reaches or passes 90, whatever the number of players." in house
    assert "The shoot rule is on." in house
    assert "The player on the dealer's right leads the first trick." in house
    # what the house rules replace is not told as the game's rule
    changes = part(html, "changes")
    assert "shoot rule" not in changes and "leads the first trick" not in changes and "The game ends" not in changes
    assert "unless the table turns it on" not in text(html)


def test_in_a_game_played_without_the_shoot_rule_the_page_does_not_score_a_shoot(client: FlaskClient) -> None:
    game_id = start_game(client, preset="standard", shoot_rule="off")
    html = page(client, "/rules/black-spy", rules="standard", game=game_id)
    said = part(html, "shoot")
    assert "off in this game" in said
    assert "scores 0" not in said and "unless the table turns it on" not in said
    assert "The shoot rule is off." in part(html, "house-rules")
