"""What a second new scorer tripped over, on a 390x844 phone: the name boxes' Next key, a
filled box typed over, a cards form that announced a shoot before anything was counted,
and a follower left behind by a rematch."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = phone_context(browser)
    page = context.new_page()
    yield page
    context.close()


def test_next_on_a_name_box_moves_to_the_next_seat_and_sends_nothing(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/new")
    posts: list[str] = []
    phone.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    first = phone.locator("#player-0")
    first.fill("Ana")
    first.press("Enter")
    expect(phone.locator("#player-1")).to_be_focused()
    assert posts == []


def test_typing_into_a_filled_box_replaces_its_number(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    box = phone.locator("#points-0")
    box.fill("20")
    phone.locator("#points-1").click()
    box.click()
    phone.keyboard.type("25")
    expect(box).to_have_value("25")


def test_a_cards_form_with_nothing_counted_announces_no_shoot(phone: Page, server: Server) -> None:
    game = new_game(phone, server.url)
    phone.goto(f"{game}?mode=cards")
    expect(phone.locator("[data-shoot-note]:visible")).to_have_count(0)


def test_a_follower_is_shown_the_way_to_the_rematch(browser: Browser, phone: Page, server: Server) -> None:
    game = new_game(phone, server.url, names=("Ana", "Ben", "Cy"), end_value="50")
    # 50 reaches the house end value without asking about a shoot
    enter_points(phone, {"Ana": 50, "Ben": 10, "Cy": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.get_by_role("heading", name="Game over")).to_be_visible()
    follow = phone.locator("details.follow .link a").get_attribute("href")
    follower_context = phone_context(browser)
    follower = follower_context.new_page()
    follower.goto(follow)
    expect(follower.get_by_role("heading", name="Game over")).to_be_visible()
    phone.get_by_role("button", name="Rematch: same players and seats").click()
    expect(phone).not_to_have_url(game)
    follower.reload()
    expect(follower.get_by_role("link", name="The table started a rematch: follow it")).to_be_visible()
    follower_context.close()


@pytest.mark.parametrize(
    ("kind", "fill", "box", "words"),
    [
        ("scorepad", {"pad-name": "Golf", "pad-player-0": "Ana", "target": "abc"}, "target", "A target is a whole number"),
        (
            "black_spy",
            {"player-0": "Ana", "player-1": "Ben", "player-2": "Cy"},
            "end_value",
            "The end value must be a whole number.",
        ),
        # too few named, and an end value at fault below: the first empty seat first
        ("black_spy", {"player-0": "Ana", "player-1": "Ben"}, "player-2", "Black Spy is for 3 to 6 players; 2 are named."),
        ("scorepad", {"pad-name": "Golf", "target": "abc"}, "pad-player-0", "A score pad is for 1 to 12 players; 0 are named."),
    ],
)
def test_a_new_game_refused_brings_the_box_at_fault_and_its_words_into_view(
    phone: Page, server: Server, kind: str, fill: dict[str, str], box: str, words: str
) -> None:
    phone.goto(f"{server.url}/new?game={kind}")
    for name, value in fill.items():
        phone.locator(f"[name='{name}']").fill(value)
    if kind == "black_spy":
        phone.get_by_text("House rules").click()
        phone.locator("#end_value").fill("abc")
    phone.locator(f"form:has([name='{box}']) button[type=submit]:visible").click()
    phone.wait_for_load_state("load")
    expect(phone.locator(f"#{box}")).to_be_focused()
    expect(phone.locator(f"#{box}")).to_be_in_viewport()
    expect(phone.get_by_text(words)).to_be_in_viewport()
