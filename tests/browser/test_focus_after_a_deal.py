"""After a deal is recorded the focus is where the next one starts: its first box on a
device with a keyboard, ready to type; on a touch phone the next deal's heading, which
raises no keyboard until a box is tapped."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context


def test_with_a_keyboard_the_next_deals_first_box_has_the_focus(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    new_game(page, server.url)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    expect(page.get_by_role("textbox", name="Ana", exact=True)).to_be_focused()
    context.close()


def test_on_a_touch_phone_the_next_deals_heading_has_the_focus_and_no_box_does(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    new_game(page, server.url)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    expect(page.locator("#deal-form-title")).to_be_focused()
    assert page.evaluate("() => document.activeElement.matches('input')") is False
    context.close()


def test_with_a_keyboard_a_deal_refused_for_its_total_puts_the_focus_in_its_first_box(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    new_game(page, server.url)
    # typed box to box, and sent with Enter from the last one
    page.get_by_role("textbox", name="Ana", exact=True).focus()
    for number in ("1", "1", "1", "1"):
        page.keyboard.type(number)
        page.keyboard.press("Enter")
    expect(page.locator(".deal-form .error").first).to_contain_text("not 60")
    expect(page.get_by_role("textbox", name="Ana", exact=True)).to_be_focused()
    expect(page.get_by_role("textbox", name="Ana", exact=True)).to_have_value("1")
    context.close()


def test_on_a_touch_phone_a_deal_refused_for_its_total_puts_the_focus_on_what_is_wrong(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    new_game(page, server.url)
    enter_points(page, {"Ana": 1, "Ben": 1, "Cy": 1, "Dee": 1})
    page.get_by_role("button", name="Record deal 1").click()
    refusal = page.locator(".deal-form .error").first
    expect(refusal).to_contain_text("not 60")
    expect(refusal).to_be_focused()
    assert page.evaluate("() => document.activeElement.matches('input')") is False
    context.close()
