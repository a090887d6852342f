"""htmx comes with the first touch: what the table does before it, or without it, still happens.

A game page loads without htmx (half of a phone's first load) and first-touch.js brings it with the
first touch, key or focus. A tap that comes before it waits for it; where it cannot be had
(no network and no service worker, a captive portal answering for it) the browser does what
it would do with no JavaScript at all, after the question htmx would have asked.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Dialog, Page, Route, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context
from tests.browser.test_history_and_following_on_a_phone import finished_and_going, listed
from tests.browser.test_spy_on_a_phone import cards, new_spy_game

ANA, BEN = 0, 1


def htmx_fetches(page: Page) -> list[str]:
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/vendor/htmx" in request.url else None)
    return fetched


def deal_posts(page: Page) -> list[str | None]:
    """The deals this page posts, each with its HX-Request header (None: the browser's own form)."""
    posts: list[str | None] = []
    page.on("request", lambda request: posts.append(request.headers.get("hx-request")) if request.method == "POST" else None)
    return posts


@pytest.fixture
def bare_phone(browser: Browser) -> Iterator[Page]:
    """A phone with no service worker, which would have htmx in its cache."""
    context = phone_context(browser, service_workers="block")
    yield context.new_page()
    context.close()


def refuse_htmx(page: Page) -> None:
    page.route("**/vendor/htmx*", lambda route: route.abort())


def portal_for_htmx(route: Route) -> None:
    # a captive portal's answer: it loads as a script, and defines no htmx
    route.fulfill(status=200, content_type="text/javascript", body="document.title = document.title;")


def record_the_first_deal(phone: Page) -> None:
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")


def send_untouched(phone: Page, by: str) -> None:
    """Fill the deal form and send it from a script: no touch, key or focus has brought htmx.
    ``by`` "twice": the form is sent twice over; "button": its Record button is pressed."""
    phone.evaluate(
        """(by) => {
      const form = document.querySelector("form.deal-form");
      [20, 15, 25, 0].forEach((points, seat) => { form.elements["points-" + seat].value = points; });
      if (by === "button") form.querySelector("button.big").click();
      else { form.requestSubmit(); form.requestSubmit(); }
    }""",
        by,
    )


def test_htmx_comes_with_the_first_touch_and_records_the_deal(phone: Page, server: Server) -> None:
    game = new_game(phone, server.url)
    fetched, posts = htmx_fetches(phone), deal_posts(phone)
    phone.goto(game)
    phone.wait_for_load_state("networkidle")
    assert fetched == [] and phone.evaluate("typeof window.htmx") == "undefined"
    record_the_first_deal(phone)
    assert len(fetched) == 1 and posts == ["true"]
    # swapped in, not a new page: the url is the game's, with no redirect after a post
    assert phone.url == game


def test_a_deal_sent_before_htmx_is_there_waits_for_it_and_is_sent_once(phone: Page, server: Server) -> None:
    game = new_game(phone, server.url)
    posts = deal_posts(phone)
    phone.goto(game)
    phone.wait_for_load_state("networkidle")
    # the form is sent the moment the page is up, twice over
    send_untouched(phone, "twice")
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    phone.wait_for_load_state("networkidle")
    assert posts == ["true"]
    expect(phone.locator(".deals tbody tr")).to_have_count(1)


def test_on_a_safari_that_cannot_tell_the_button_a_deal_sent_before_htmx_is_still_recorded(
    browser: Browser, server: Server
) -> None:
    # Safari before 15.4 has no SubmitEvent.submitter, and before 16 no requestSubmit
    context = phone_context(browser)
    context.add_init_script("""
      Object.defineProperty(SubmitEvent.prototype, "submitter", {get() { return undefined; }});
      delete HTMLFormElement.prototype.requestSubmit;
    """)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda error: errors.append(str(error)))
    game = new_game(phone, server.url)
    posts = deal_posts(phone)
    phone.goto(game)
    phone.wait_for_load_state("networkidle")
    send_untouched(phone, "button")
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    assert posts == ["true"] and errors == []
    context.close()


def test_when_htmx_cannot_be_had_the_browser_sends_the_deal_itself(bare_phone: Page, server: Server) -> None:
    phone = bare_phone
    game = new_game(phone, server.url)
    refuse_htmx(phone)
    posts = deal_posts(phone)
    phone.goto(game)
    record_the_first_deal(phone)
    assert posts == [None]
    expect(phone.locator(".deals tbody tr")).to_have_count(1)


def test_a_portal_answering_for_htmx_does_not_freeze_the_page(bare_phone: Page, server: Server) -> None:
    phone = bare_phone
    game = new_game(phone, server.url)
    phone.route("**/vendor/htmx*", portal_for_htmx)
    posts = deal_posts(phone)
    phone.goto(game)
    record_the_first_deal(phone)
    assert posts == [None]


def test_a_touch_that_could_not_bring_htmx_leaves_it_to_the_next(bare_phone: Page, server: Server) -> None:
    phone = bare_phone
    game = new_game(phone, server.url)
    refuse_htmx(phone)
    fetched, posts = htmx_fetches(phone), deal_posts(phone)
    phone.goto(game)
    # typing is the first touch: it asks for htmx, and the Wi-Fi is not there
    with phone.expect_event("requestfailed", lambda request: "/vendor/htmx" in request.url):
        enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    # it is back before Record is tapped: the deal goes through htmx, swapped in
    phone.unroute("**/vendor/htmx*")
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    assert len(fetched) >= 2 and posts == ["true"] and phone.url == game


def test_without_htmx_an_undo_still_asks_first(bare_phone: Page, server: Server) -> None:
    phone = bare_phone
    game = new_game(phone, server.url)
    refuse_htmx(phone)
    phone.goto(game)
    record_the_first_deal(phone)
    posts = deal_posts(phone)
    assert (
        answer_the_question(phone, "Undo deal 1", accept=False)
        == "Undo deal 1? It leaves the game, and its numbers come back in the form."
    )
    phone.evaluate("() => new Promise((done) => setTimeout(done, 100))")
    assert posts == []
    expect(phone.locator(".deals tbody tr")).to_have_count(1)
    answer_the_question(phone, "Undo deal 1", accept=True)
    expect(phone.locator(".deals tbody tr")).to_have_count(0)
    assert posts == [None]


def answer_the_question(phone: Page, button: str, accept: bool) -> str:
    """Tap ``button`` and answer the question it asks; the question asked.

    Answered by a listener set before the tap: the question may come while the tap itself is
    still being waited on (on a busy machine, htmx's refusal comes that soon), and a question
    left open there would hold the tap until it timed out.
    """
    asked: list[str] = []

    def answer(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    phone.once("dialog", answer)
    phone.get_by_role("button", name=button).click()
    deadline = time.monotonic() + 20
    while not asked and time.monotonic() < deadline:
        phone.wait_for_timeout(50)
    assert asked, f"{button} asked nothing"
    return asked[0]


def test_without_htmx_a_history_filter_still_applies_as_it_is_chosen(bare_phone: Page, server: Server) -> None:
    phone = bare_phone
    over, going = finished_and_going(phone, server)
    refuse_htmx(phone)
    phone.goto(f"{server.url}/history")
    # its Show button is hidden once JavaScript runs: the choice itself must send it
    expect(phone.get_by_role("button", name="Show")).to_be_hidden()
    phone.get_by_label("Games").select_option("finished")
    expect(phone).to_have_url(re.compile(r"/history\?.*state=finished"))
    assert over.rsplit("/", 1)[-1] in listed(phone) and going.rsplit("/", 1)[-1] not in listed(phone)


def test_without_htmx_a_tapped_spy_card_still_shows_its_answers(bare_phone: Page, server: Server) -> None:
    phone = bare_phone
    game = new_spy_game(phone, server.url, ("Ana", "Ben"), first_player=ANA)
    refuse_htmx(phone)
    phone.goto(game)
    cards(phone, BEN).nth(2).click()
    expect(phone.locator(".answers legend")).to_contain_text("card 3.")
    # opened at the answers, as htmx's swap shows them, with no token or form id in the address
    expect(phone).to_have_url(re.compile(r"look=1%3A3.*#spy-answers$"))
    assert "csrf_token" not in phone.url and "submission" not in phone.url


def test_without_htmx_showing_where_a_tracked_spy_looks_keeps_the_form_token_out_of_the_address(
    bare_phone: Page, server: Server
) -> None:
    phone = bare_phone
    phone.goto(f"{server.url}/new?game=spy")
    for row, name in enumerate(("Ana", "Ben")):
        phone.get_by_label(f"Player {row + 1} name").fill(name)
    phone.locator("input[name=first_player][value='0']").check()
    phone.get_by_text("Mirror helper (optional)").click()
    phone.get_by_label("Track the Spies").check()
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url(re.compile(r"/spy/[A-Za-z0-9]+$"))
    refuse_htmx(phone)
    phone.reload()
    phone.get_by_label("Places moved").fill("2")
    phone.get_by_role("button", name="Show where the Spy looks").click()
    expect(phone).to_have_url(re.compile(r"steps=2"))
    assert "csrf_token" not in phone.url and "submission" not in phone.url
    expect(phone.locator(".mirror-hint")).to_contain_text("Ana's Spy looks at")
