"""A follower's phone (the game's read-only link) asks every few seconds whether the game
moved on: an answer that shows what it already shows is not swapped in again (a follower
scrolled down saw the page jump at each one), and a new deal is."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context

ASKED_AND_SWAPPED = """() => { window.__asked = 0; window.__swapped = 0;
  document.addEventListener("htmx:afterRequest", () => { window.__asked += 1; });
  document.addEventListener("htmx:afterSwap", () => { window.__swapped += 1; }); }"""
IDLE = "() => !document.querySelector('.htmx-request')"


def test_a_followers_page_is_swapped_when_the_game_moved_on_and_not_at_every_poll(browser: Browser, server: Server) -> None:
    scorer = phone_context(browser).new_page()
    new_game(scorer, server.url, end_value="1000")
    enter_points(scorer, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    scorer.get_by_role("button", name="Record deal 1").click()
    expect(scorer.locator(".messages")).to_contain_text("Deal 1 recorded.")
    follower = phone_context(browser).new_page()
    follower.goto(scorer.locator(".follow a").get_attribute("href"))
    follower.evaluate(ASKED_AND_SWAPPED)
    # its first poll brings the page's regions as a poll's answer; the next ones find them shown
    follower.wait_for_function("() => window.__asked >= 1", timeout=15_000)
    follower.wait_for_function(IDLE)
    follower.evaluate("() => { window.__asked = 0; window.__swapped = 0; }")
    follower.wait_for_function("() => window.__asked >= 2", timeout=15_000)
    follower.wait_for_function(IDLE)
    assert follower.evaluate("() => window.__swapped") == 0
    enter_points(scorer, {"Ana": 0, "Ben": 15, "Cy": 25, "Dee": 20})
    scorer.get_by_role("button", name="Record deal 2").click()
    expect(follower.locator("#standings")).to_contain_text("Dee", timeout=15_000)
    expect(follower.locator("#deal-rows tr")).to_have_count(2, timeout=15_000)
    assert follower.evaluate("() => window.__swapped") >= 1
