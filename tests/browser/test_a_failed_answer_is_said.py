"""A tap on Record never ends in silence: an answer htmx does not swap in (a server fault,
an expired form) is said above the page, and what was typed stays, to send again.

Found by a new user's try: with the server answering 500, the numbers stayed in their
boxes under the last deal's "Deal 1 recorded." and nothing said the deal was not.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Route, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context

DEAL = {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0}


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    # no service worker: it would answer a failed post with the offline queue
    context = phone_context(browser, service_workers="block")
    yield context
    context.close()


def test_a_server_fault_on_record_is_said_and_the_deal_can_be_sent_again(context: BrowserContext, server: Server) -> None:
    phone = context.new_page()
    game = new_game(phone, server.url)
    phone.goto(game)

    def fault(route: Route) -> None:
        route.fulfill(status=500, content_type="text/plain", body="Internal Server Error")

    phone.route("**/deals", fault)
    enter_points(phone, DEAL)
    phone.get_by_role("button", name="Record deal 1").click()
    notice = phone.locator("#busy")
    expect(notice).to_have_text(
        "The server could not answer (error 500). What you typed is still here: try again (nothing is recorded twice),"
        " or reload the page to see the game as it is."
    )
    expect(notice).to_have_attribute("role", "alert")
    expect(phone.locator("#points-0")).to_have_value("20")
    expect(phone.locator(".deals tbody tr")).to_have_count(0)

    phone.unroute("**/deals")
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator("#game .messages")).to_contain_text("Deal 1 recorded.")
    expect(notice).to_be_hidden()
    expect(phone.locator(".deals tbody tr")).to_have_count(1)


def test_an_expired_form_is_said_in_the_servers_words(context: BrowserContext, server: Server) -> None:
    phone = context.new_page()
    game = new_game(phone, server.url)
    phone.goto(game)
    # the phone's session is gone (cleared, or another server's): its form token is refused
    context.clear_cookies()
    enter_points(phone, DEAL)
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator("#busy")).to_have_text(
        "This form has expired or did not come from the companion. Reload the page and try again; nothing was saved."
    )
    expect(phone.locator("#points-2")).to_have_value("25")
