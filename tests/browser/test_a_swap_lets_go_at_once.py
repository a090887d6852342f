"""A region an answer replaces lets go of what it holds in one step: htmx cleans up the
region, not each of the ~150 elements in it one by one with two events apiece (13% of a
4x-slowed phone's tap, benchmarks/tap_ab.py). What the page shows after is the same."""

from __future__ import annotations

from playwright.sync_api import Browser, Route, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context, settled, touched
from tests.servers import Phone

COUNT_CLEANUPS = """() => {
  window.__cleanedUp = 0;
  document.addEventListener("htmx:beforeCleanupElement", () => { window.__cleanedUp += 1; });
}"""
REPLACED = "() => document.querySelectorAll('#game-now *, #standings *').length"


def test_a_deal_recorded_cleans_up_its_regions_and_not_each_element(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    new_game(page, server.url)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    touched(page)  # htmx comes with the first touch
    page.evaluate(COUNT_CLEANUPS)
    replaced = page.evaluate(REPLACED)
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    settled(page)
    assert replaced > 60
    # the game's region, the standings, and the few small ones beside them
    assert page.evaluate("() => window.__cleanedUp") <= 10
    # and the regions are the new ones, once each, in their places
    assert page.locator("#game-now").count() == 1 and page.locator("#game-now #game-now").count() == 0
    expect(page.locator("#standings li").first).to_contain_text("Dee")
    expect(page.get_by_role("heading", name="Record deal 2")).to_be_visible()
    context.close()


def test_the_oldest_row_shown_goes_in_one_step_as_a_new_deal_comes(browser: Browser, server: Server) -> None:
    # eight deals in, as many as the page shows: the ninth's answer deletes the first's row
    other = Phone(server.url)
    game = other.start_game(end_value="1000")
    for number in range(1, 9):
        status, _, _ = other.post(f"/black-spy/{game}/deals", other.deal_form(game, [20, 15, 25, 0], number))
        assert status == 303
    context = phone_context(browser)
    page = context.new_page()
    page.goto(f"{server.url}/black-spy/{game}")
    expect(page.locator("#deal-rows tr")).to_have_count(8)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    touched(page)  # htmx comes with the first touch
    page.evaluate(COUNT_CLEANUPS)
    assert page.locator("#deal-1 *").count() > 10
    page.get_by_role("button", name="Record deal 9").click()
    expect(page.locator(".messages")).to_contain_text("Deal 9 recorded.")
    settled(page)
    # the row went with the regions replaced, each cleaned up as one element
    assert page.evaluate("() => window.__cleanedUp") <= 10
    expect(page.locator("#deal-1")).to_have_count(0)
    expect(page.locator("#deal-rows tr")).to_have_count(8)
    expect(page.locator("#deal-rows tr").first).to_have_id("deal-9")
    context.close()


def test_a_region_the_player_has_focused_meanwhile_is_left_to_htmx_which_gives_the_focus_back(
    browser: Browser, server: Server
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    touched(page)  # htmx comes with the first touch
    page.evaluate(COUNT_CLEANUPS)
    # the game asked for again (as a refresh of the region does), its answer slow to come,
    # and the player taps into a box while it is on its way
    answers: list[str] = []

    def slowly(route: Route) -> None:
        page.wait_for_timeout(400)
        answers.append(route.request.url)
        route.continue_()

    page.route(game, slowly)
    page.evaluate("() => { htmx.ajax('GET', location.pathname, {target: '#game-now', swap: 'outerHTML'}); }")
    box = page.get_by_role("textbox", name="Ben", exact=True)
    box.focus()
    box.fill("15")
    page.wait_for_function("() => window.__cleanedUp > 0")
    settled(page)
    assert answers == [game]
    # htmx cleaned up the region element by element, and focused the new box of the same id
    assert page.evaluate("() => window.__cleanedUp") > 10
    expect(page.get_by_role("textbox", name="Ben", exact=True)).to_be_focused()
    assert page.locator("#game-now").count() == 1
    context.close()
