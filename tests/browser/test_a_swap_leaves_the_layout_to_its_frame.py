"""What a tap swaps in is laid out once, by the frame that shows it. Nothing the page's
scripts do while a swap settles asks the browser for the layout: asked there, the whole
page is laid out at once, mid-settle, and again for the frame (30 ms of a 4x-slowed phone's
tap, benchmarks/tap.py). Scrolling to the news and the next entry's focus wait for the frame."""

from __future__ import annotations

from playwright.sync_api import Browser, expect

from tests.browser.browsing import Server, enter_points, new_game, phone_context

# every layout read the page's own scripts could make, noted when one is made while an
# htmx:afterSettle event is being dispatched (a window listener in the capture phase runs
# before the page's listeners, one in the bubble phase after them)
WATCH_LAYOUT_READS = """
(() => {
  window.__layoutReads = [];
  let settling = false;
  window.addEventListener("htmx:afterSettle", () => { settling = true; }, true);
  window.addEventListener("htmx:afterSettle", () => { settling = false; });
  const note = (name) => { if (settling) window.__layoutReads.push(name); };
  for (const name of ["getClientRects", "getBoundingClientRect", "scrollIntoView"]) {
    const original = Element.prototype[name];
    Element.prototype[name] = function (...args) { note(name); return original.apply(this, args); };
  }
  for (const name of ["offsetHeight", "offsetWidth", "offsetTop", "clientHeight", "scrollTop"]) {
    const owner = name.startsWith("offset") ? HTMLElement.prototype : Element.prototype;
    const property = Object.getOwnPropertyDescriptor(owner, name);
    Object.defineProperty(owner, name, {...property, get() { note(name); return property.get.call(this); }});
  }
  const scrollBy = window.scrollBy;
  window.scrollBy = function (...args) { note("scrollBy"); return scrollBy.apply(this, args); };
})();
"""


def test_a_deal_recorded_settles_without_asking_for_the_layout(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    context.add_init_script(WATCH_LAYOUT_READS)
    page = context.new_page()
    new_game(page, server.url)
    for number in (1, 2):
        enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
        page.get_by_role("button", name=f"Record deal {number}").click()
        expect(page.locator(".messages")).to_contain_text(f"Deal {number} recorded.")
        # what waited for the frame still happens: the news in view, the next deal's heading focused
        expect(page.locator("#deal-form-title")).to_be_focused()
        expect(page.locator(".messages")).to_be_in_viewport()
    assert page.evaluate("() => window.__layoutReads") == []
    context.close()


def test_a_shoot_question_settles_without_asking_for_the_layout_and_is_shown(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    context.add_init_script(WATCH_LAYOUT_READS)
    page = context.new_page()
    new_game(page, server.url)
    enter_points(page, {"Ana": 65, "Ben": -5, "Cy": 0, "Dee": 0})
    page.get_by_role("button", name="Record deal 1").click()
    question = page.get_by_text("Did Ana take all 16 black cards?")
    expect(question).to_be_in_viewport()
    expect(page.get_by_role("button", name="Yes: 0 for Ana, 60 for everyone else")).to_be_in_viewport()
    assert page.evaluate("() => window.__layoutReads") == []
    context.close()
