"""A write answers with what it changed, swapped region by region (out of band): after every
kind of write the page a phone shows is the page a reload of the same address shows, and
two phones at one game agree after each other's writes."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import Server, enter_points, new_game, new_pad, phone_context, settled
from tests.browser.test_spy_on_a_phone import new_spy_game

# what each region of a game shows, in order; the news of the write (.messages) is said
# once and is not on a reload, so it is left out
SHOWN = """([root, entry]) => [...document.querySelector(root).children].flatMap((region) =>
  region.matches("[id$=-now]") ? (entry ? [...region.children].filter((part) => !part.matches(".messages")) : []) : [region]
).map((part) => part.innerText.trim()).filter(Boolean).join("\\n")"""


# cards below the fold are laid out only as they scroll near (content-visibility), and the
# text of one not laid out yet is not all there: every element is laid out for the reading
EVERY_CARD_LAID_OUT = (
    "() => document.querySelectorAll('*').forEach((element) => { element.style.contentVisibility = 'visible'; })"
)


# the deals after the next one that a game page carries for a phone gone offline: each one's
# number, dealer and heading, in order (no text of a page shows them until they are needed)
OFFLINE_HEADINGS = """(root) => [...document.querySelectorAll(`${root} template[data-deal]`)].map((deal) =>
  `${deal.dataset.deal} ${deal.dataset.dealer} ${deal.content.textContent.replace(/\\s+/g, " ").trim()}`)"""


def shown(page: Page, root: str, entry: bool = True) -> str:
    """What the game's regions show; with ``entry`` false, all but the entry's own (its form,
    which a refusal leaves with the numbers typed and what is wrong with them)."""
    settled(page)
    page.evaluate(EVERY_CARD_LAID_OUT)
    return page.evaluate(SHOWN, [root, entry])


# each phone says which changes listed are its own ("from this phone", static/js/app.js): two
# phones agree on the game, who changed what included, read by each change's phone id (and
# the page left as it was)
BY_PHONE_ID = f"""([root, entry]) => {{
  const said = [...document.querySelectorAll("#changes [data-phone]")], words = said.map((span) => span.textContent);
  said.forEach((span) => {{ span.textContent = span.dataset.phone; }});
  const shown = ({SHOWN})([root, entry]);
  said.forEach((span, index) => {{ span.textContent = words[index]; }});
  return shown;
}}"""


def agreed(page: Page, root: str, entry: bool = True) -> str:
    """What the game's regions show, each change's phone by its id rather than as this phone's or another's."""
    settled(page)
    page.evaluate(EVERY_CARD_LAID_OUT)
    return page.evaluate(BY_PHONE_ID, [root, entry])


# the chart as drawn, lines and all (a new deal's answer adds each line's point to the line shown)
CHART = "() => { const chart = document.getElementById('chart-drawing'); return chart ? chart.innerHTML : null; }"


def same_as_a_reload(page: Page, root: str, entry: bool = True) -> None:
    swapped = shown(page, root, entry)
    headings = page.evaluate(OFFLINE_HEADINGS, root)
    chart = page.evaluate(CHART)
    page.reload()
    page.wait_for_load_state("load")
    assert shown(page, root, entry) == swapped
    assert page.evaluate(OFFLINE_HEADINGS, root) == headings
    assert page.evaluate(CHART) == chart


def accept_next_dialog(page: Page) -> None:
    page.once("dialog", lambda dialog: dialog.accept())


def test_black_spy_after_a_record_an_undo_and_a_refusal_shows_what_a_reload_shows(browser: Browser, server: Server) -> None:
    # no service worker: under one, half a second after each write the page asks for itself as
    # a page, to keep a copy for offline (static/js/offline.js), the same request as the chart's
    # whole fetch below; a machine slow between taps (stress-ng --cpu 1 beside it) made it
    context = phone_context(browser, service_workers="block")
    phone = context.new_page()
    url = new_game(phone, server.url, end_value="270")
    # the chart's lines grow a point a deal on the page: none is fetched whole (static/js/swaps.js's
    # drawWhole asks for the page as a page). The page's ask whether another phone moved the game
    # on (every 15 s, with HX-Request) is no such fetch: on a busy machine it falls in the ten deals
    fetched = []
    whole = lambda request: request.url == url and request.method == "GET" and "hx-request" not in request.headers  # noqa: E731
    phone.on("request", lambda request: fetched.append(request) if whole(request) else None)
    for number in range(1, 11):
        enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
        phone.get_by_role("button", name=f"Record deal {number}").click()
        expect(phone.locator(".messages")).to_contain_text(f"Deal {number} recorded.")
        settled(phone)
    assert fetched == []
    # past the latest deals shown: the oldest row goes as the new one comes
    same_as_a_reload(phone, "#game")
    expect(phone.locator("#deals tbody tr")).to_have_count(8)
    accept_next_dialog(phone)
    phone.get_by_role("button", name="Undo deal 10").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 10 undone")
    # its numbers come back in the form, to mend; dropped with one tap, the page is a reload's
    expect(phone.get_by_role("textbox", name="Cy", exact=True)).to_have_value("25")
    phone.get_by_role("link", name="Discard these numbers").click()
    expect(phone.get_by_role("textbox", name="Cy", exact=True)).to_have_value("")
    same_as_a_reload(phone, "#game")
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 1})
    phone.get_by_role("button", name="Record deal 10").click()
    expect(phone.locator(".deal-form .error").first).to_be_visible()
    same_as_a_reload(phone, "#game", entry=False)
    # the deal that ends the game: the form gives way to the game over, the rematch comes
    enter_points(phone, {"Ana": 0, "Ben": 10, "Cy": 50, "Dee": 0})
    phone.get_by_role("button", name="Record deal 10").click()
    expect(phone.get_by_role("heading", name="Game over")).to_be_visible()
    same_as_a_reload(phone, "#game")
    context.close()


def test_a_chart_that_misses_a_point_is_drawn_whole_again(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    for number in (1, 2):
        enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
        phone.get_by_role("button", name=f"Record deal {number}").click()
        expect(phone.locator(".messages")).to_contain_text(f"Deal {number} recorded.")
        settled(phone)
    # a line that lost its last point (a drawing the page never made): the next point has no place
    phone.evaluate("""() => { const line = document.querySelector('#chart-drawing polyline.seat-0');
      line.setAttribute('points', line.getAttribute('points').split(' ').slice(0, -1).join(' ')); }""")
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    phone.get_by_role("button", name="Record deal 3").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 3 recorded.")
    phone.wait_for_function(
        "() => document.querySelector('#chart-drawing polyline.seat-0').getAttribute('points').split(' ').length === 4"
    )
    same_as_a_reload(phone, "#game")


def test_a_chart_drawn_whole_is_never_an_older_game_s(phone: Page, server: Server) -> None:
    """Out of reach, the service worker answers the chart's fetch with the page it kept; a
    fetch can be overtaken by a later answer's. A page of another version draws nothing."""
    url = new_game(phone, server.url)
    for number in (1, 2):
        enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
        phone.get_by_role("button", name=f"Record deal {number}").click()
        expect(phone.locator(".messages")).to_contain_text(f"Deal {number} recorded.")
        settled(phone)
    kept = phone.evaluate("() => fetch(location.pathname).then((answer) => answer.text())")  # the game at deal 2
    answered = []

    def the_kept_copy(route) -> None:
        answered.append(route.request.url)
        route.fulfill(status=200, content_type="text/html; charset=utf-8", body=kept)

    # the service worker's requests too: it fetches the page for the phone (templates/pwa/sw.js)
    phone.context.route(url, lambda route: the_kept_copy(route) if route.request.method == "GET" else route.continue_())
    phone.evaluate("""() => { const line = document.querySelector('#chart-drawing polyline.seat-0');
      line.setAttribute('points', line.getAttribute('points').split(' ').slice(0, -1).join(' ')); }""")
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    phone.get_by_role("button", name="Record deal 3").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 3 recorded.")
    for _ in range(100):  # the chart is fetched once the phone has shown the rest
        if answered:
            break
        phone.wait_for_timeout(50)
    assert answered, "the chart was not fetched whole"
    phone.wait_for_timeout(300)  # what the page does with the answer, a few tasks later
    # the page at deal 2 drew nothing: its line of 3 points is not on a page at deal 3
    assert (
        phone.evaluate("() => document.querySelector('#chart-drawing polyline.seat-0').getAttribute('points').split(' ').length")
        == 2
    )


def test_two_phones_at_one_black_spy_game_agree_after_each_others_writes(browser: Browser, server: Server) -> None:
    contexts = [phone_context(browser), phone_context(browser)]
    first, second = (context.new_page() for context in contexts)
    url = new_game(first, server.url)
    second.goto(url)
    enter_points(first, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    first.get_by_role("button", name="Record deal 1").click()
    expect(first.locator(".messages")).to_contain_text("Deal 1 recorded.")
    # the second phone still shows no deal: its deal 1 is refused, and it is shown deal 1 as recorded
    enter_points(second, {"Ana": 10, "Ben": 10, "Cy": 10, "Dee": 30})
    second.get_by_role("button", name="Record deal 1").click()
    expect(second.locator(".messages")).to_contain_text("was just recorded from another phone")
    assert agreed(second, "#game", entry=False) == agreed(first, "#game", entry=False)
    second.get_by_role("button", name="Record deal 2").click()
    expect(second.locator(".messages")).to_contain_text("Deal 2 recorded.")
    # the first phone's undo names deal 1, which is no longer the last: refused, and shown deal 2
    accept_next_dialog(first)
    first.get_by_role("button", name="Undo deal 1").click()
    expect(first.locator(".messages")).to_contain_text("nothing was undone")
    assert agreed(first, "#game") == agreed(second, "#game")
    same_as_a_reload(first, "#game")
    for context in contexts:
        context.close()


def test_a_score_pad_after_a_record_an_undo_and_a_refusal_shows_what_a_reload_shows(phone: Page, server: Server) -> None:
    new_pad(phone, server.url, "Golf")
    for number in range(1, 11):
        for name, points in (("Ana", 3), ("Ben", 4), ("Cy", 5)):
            phone.get_by_role("textbox", name=name, exact=True).fill(str(points))
        phone.get_by_role("button", name=f"Record round {number}").click()
        expect(phone.get_by_role("button", name=f"Record round {number + 1}")).to_be_visible()
    same_as_a_reload(phone, "#pad")
    expect(phone.locator("#rounds tbody tr")).to_have_count(8)
    accept_next_dialog(phone)
    phone.get_by_role("button", name="Undo round 10").click()
    expect(phone.get_by_role("button", name="Record round 10")).to_be_visible()
    # its points come back in the form, to mend; dropped with one tap, the page is a reload's
    expect(phone.get_by_role("textbox", name="Cy", exact=True)).to_have_value("5")
    phone.get_by_role("link", name="Discard these numbers").click()
    expect(phone.get_by_role("textbox", name="Cy", exact=True)).to_have_value("")
    same_as_a_reload(phone, "#pad")
    phone.get_by_role("textbox", name="Ana", exact=True).fill("many")
    phone.get_by_role("button", name="Record round 10").click()
    expect(phone.locator(".pad-form .error").first).to_be_visible()
    same_as_a_reload(phone, "#pad", entry=False)


def test_spy_after_turns_an_undo_and_another_phones_turn_shows_what_a_reload_shows(browser: Browser, server: Server) -> None:
    contexts = [phone_context(browser), phone_context(browser)]
    first, second = (context.new_page() for context in contexts)
    url = new_spy_game(first, server.url, ("Ana", "Ben", "Cy"), 0)
    second.goto(url)
    for number in range(1, 11):
        first.get_by_role("button", name="Record the turn: no spy").click()
        expect(first.get_by_role("heading", name=re.compile(f"^Turn {number + 1}:"))).to_be_visible()
    same_as_a_reload(first, "#spy-game")
    # the turns so far, opened, stay open as the next turn comes in
    first.locator("#turns summary").click()
    first.get_by_role("button", name="Record the turn: no spy").click()
    expect(first.get_by_role("heading", name=re.compile("^Turn 12:"))).to_be_visible()
    expect(first.locator("#turns")).to_have_attribute("open", "")
    expect(first.locator("#turns li").first).to_contain_text("did not spy")
    first.locator("#turns summary").click()
    accept_next_dialog(first)
    first.get_by_role("button", name="Undo turn 11").click()
    expect(first.get_by_role("heading", name=re.compile("^Turn 11:"))).to_be_visible()
    accept_next_dialog(first)
    first.get_by_role("button", name="Undo turn 10").click()
    expect(first.get_by_role("heading", name=re.compile("^Turn 10:"))).to_be_visible()
    same_as_a_reload(first, "#spy-game")
    # the second phone's page is at turn 1: its turn is refused and it is shown the game as it is
    second.get_by_role("button", name="Record the turn: no spy").click()
    expect(second.locator(".messages")).to_be_visible()
    assert agreed(second, "#spy-game") == agreed(first, "#spy-game")
    same_as_a_reload(second, "#spy-game")
    for context in contexts:
        context.close()
