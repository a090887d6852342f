"""Every page on a small phone, in light and dark; installability and offline use."""

from __future__ import annotations

import json
import struct
import urllib.request
from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import (
    AXE,
    SMALL_PHONE,
    Server,
    enter_points,
    new_game,
    new_pad,
    phone_context,
    transferred,
    under_the_worker,
)

TRANSLATIONS = Path(__file__).resolve().parents[2] / "translations"


@pytest.fixture(scope="module")
def pages(browser: Browser, server: Server) -> dict[str, str]:
    """One game with deals in it, and the url of every kind of page."""
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    over = new_game(page, server.url, names=("Eve", "Fay", "Gus", "Hal", "Ida", "Jo"), end_value="10")
    enter_points(page, {"Eve": 10, "Fay": 10, "Gus": 10, "Hal": 10, "Ida": 10, "Jo": 10})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    watch = page.locator(".follow a").get_attribute("href")
    # a game of its own: seat links out make a game page ask for the shares, and load htmx at once
    seated = new_game(page, server.url)
    page.goto(f"{seated}/phones")
    seat = page.locator("a[data-seat='1']").get_attribute("href")
    page.goto(f"{server.url}/new?game=spy")
    page.get_by_label("Player 1 name").fill("Ana")
    page.get_by_label("Player 2 name").fill("Ben")
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/spy/*")
    spy = page.url
    context.close()
    return {
        "home": f"{server.url}/",
        "new game": f"{server.url}/new",
        "game": game,
        "game by cards": f"{game}?mode=cards",
        "edit deal": f"{game}/deals/1/edit",
        "finished game": over,
        "offline": f"{server.url}/offline",
        "not found": f"{server.url}/black-spy/nothing-here",
        "spy game": spy,
        "spy game, a card picked": f"{spy}?look=1:3",
        "read-only": watch,
        "history": f"{server.url}/history",
        "players": f"{server.url}/players",
        "player statistics": f"{server.url}/players/1",
        "players' phones": f"{seated}/phones",
        "a player's own page": seat,
        "a player's own page by cards": f"{seat}?mode=cards",
    }


CONTROLS_WITHOUT_A_NAME = """() => [...document.querySelectorAll("input, select, textarea, button, a[href]")]
  .filter((el) => el.type !== "hidden" && el.getClientRects().length > 0)
  .filter((el) => {
    const labelled = (el.labels && [...el.labels].some((label) => label.textContent.trim()))
      || (el.getAttribute("aria-label") || "").trim()
      || el.getAttribute("aria-labelledby")
      || (["BUTTON", "A"].includes(el.tagName) && el.textContent.trim());
    return !labelled;
  })
  .map((el) => el.outerHTML.slice(0, 120))"""

SMALL_TAP_TARGETS = """() => [...document.querySelectorAll("main button, main a[href], main select, main input:not([type=hidden]), .bar a, .bar label")]
  .filter((el) => el.getClientRects().length > 0)
  .map((el) => {
    // a radio or checkbox is tapped through its label, which is the target
    const target = ["radio", "checkbox"].includes(el.type) ? (el.closest("label") || el.labels[0] || el) : el;
    const box = target.getBoundingClientRect();
    return {html: el.outerHTML.slice(0, 100), width: box.width, height: box.height};
  })
  .filter((box) => box.width < 44 || box.height < 44)"""


ALL_PAGES = [
    "home",
    "new game",
    "game",
    "game by cards",
    "edit deal",
    "finished game",
    "offline",
    "not found",
    "spy game",
    "spy game, a card picked",
    "read-only",
    "history",
    "players",
    "player statistics",
    "players' phones",
    "a player's own page",
    "a player's own page by cards",
]
INTERACTIVE = [name for name in ALL_PAGES if name not in ("offline", "not found")]


@pytest.mark.parametrize("name", ALL_PAGES)
def test_no_page_scrolls_sideways_on_a_320_pixel_phone(browser: Browser, pages: dict[str, str], name: str) -> None:
    context = phone_context(browser, viewport=SMALL_PHONE)
    page = context.new_page()
    page.goto(pages[name])
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    context.close()
    assert overflow <= 0, f"{name} is {overflow}px wider than a 320px screen"


# the placeholders of the name boxes that are cut short: their text wider than the box
CUT_PLACEHOLDERS = """() => [...document.querySelectorAll("input[placeholder]")]
  .filter((input) => input.offsetParent !== null)
  .filter((input) => {
    const style = getComputedStyle(input), shown = getComputedStyle(input, "::placeholder");
    const context = document.createElement("canvas").getContext("2d");
    context.font = `${shown.fontWeight} ${shown.fontSize} ${shown.fontFamily}`;
    const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(input.placeholder).width > room;
  })
  .map((input) => input.placeholder)"""


def test_the_pads_name_box_stands_apart_from_the_players_heading_under_it(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/new?game=scorepad")
    box = phone.get_by_role("textbox", name="Which game").bounding_box()
    heading = phone.get_by_text("Players, in seating order").bounding_box()
    assert box is not None and heading is not None
    # as far apart as one fieldset is from the next (16 px), not pressed against it
    assert heading["y"] - (box["y"] + box["height"]) >= 12


def test_a_pads_totals_have_each_name_level_with_its_total(phone: Page, server: Server) -> None:
    new_pad(phone, server.url, "Rummy")
    # a pad's row has no second line ("to go") under the name: the name sits level with its total
    offsets = phone.evaluate(
        """() => [...document.querySelectorAll("#totals li")].map((row) => {
          const name = row.querySelector(".name").getBoundingClientRect(), total = row.querySelector(".total").getBoundingClientRect();
          return (name.top + name.bottom) / 2 - (total.top + total.bottom) / 2;
        })"""
    )
    assert len(offsets) == 3 and all(abs(offset) <= 2 for offset in offsets), offsets


@pytest.mark.parametrize(
    ("names", "lines"),
    [
        (("Ana", "Ben", "Cy", "Dee"), [4]),
        (("Ana", "Ben", "Cy", "Dee", "Eve"), [3, 2]),
        (("Ana", "Ben", "Cy", "Dee", "Eve", "Fay"), [3, 3]),
        (("Alexandra", "Ben", "Cy", "Dee"), [4]),
        (("Bartholomew", "Ben", "Cy"), [3]),
        (("Alexandra", "Bartholomew", "Cy", "Dee", "Eve", "Fay"), [3, 3]),
    ],
)
def test_the_high_blacks_takers_stand_in_even_lines_never_one_alone(
    phone: Page, server: Server, names: tuple[str, ...], lines: list[int]
) -> None:
    new_game(phone, server.url, names=names, first_dealer=len(names) - 1)
    phone.get_by_role("link", name="By cards").click()
    chips = phone.get_by_role("group", name="Black 8 2 points taken by")
    expect(chips.get_by_role("radio")).to_have_count(len(names))
    # the chips' lines: how many chips share each top edge, top to bottom
    counted = chips.evaluate(
        """(fieldset) => {
          const tops = [...fieldset.querySelectorAll(".chip")].map((chip) => Math.round(chip.getBoundingClientRect().top));
          return [...new Set(tops)].map((top) => tops.filter((other) => other === top).length);
        }"""
    )
    assert counted == lines
    # and each name on one line of its chip, as tall as the chip's thumb-sized least
    heights = chips.evaluate("(fieldset) => [...fieldset.querySelectorAll('.chip span')].map((span) => span.offsetHeight)")
    assert all(height <= 48 for height in heights), heights


@pytest.mark.parametrize("kind", ["black_spy", "spy", "scorepad"])
def test_every_name_box_shows_its_whole_hint_on_a_320_pixel_phone(browser: Browser, server: Server, kind: str) -> None:
    context = phone_context(browser, viewport=SMALL_PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/new?game={kind}")
    page.evaluate("() => document.fonts.ready")
    cut = page.evaluate(CUT_PLACEHOLDERS)
    context.close()
    assert cut == [], f"cut short at 320 px: {cut}"


@pytest.mark.parametrize("name", INTERACTIVE)
def test_every_control_has_an_accessible_name_and_a_thumb_sized_target(phone: Page, pages: dict[str, str], name: str) -> None:
    phone.goto(pages[name])
    assert phone.evaluate(CONTROLS_WITHOUT_A_NAME) == []
    assert phone.evaluate(SMALL_TAP_TARGETS) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    "name",
    [
        "home",
        "new game",
        "game",
        "game by cards",
        "finished game",
        "spy game, a card picked",
        "read-only",
        "player statistics",
        "a player's own page by cards",
    ],
)
def test_axe_finds_no_serious_accessibility_problem(browser: Browser, pages: dict[str, str], name: str, scheme: str) -> None:
    # the page's content security policy would refuse the injected axe script
    context = phone_context(browser, color_scheme=scheme, bypass_csp=True)
    page = context.new_page()
    page.goto(pages[name])
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .filter((v) => ["serious", "critical"].includes(v.impact))
            .map((v) => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.html)}))"""
    )
    context.close()
    assert violations == []


def test_the_pages_follow_the_systems_dark_mode_with_a_true_black_background(browser: Browser, pages: dict[str, str]) -> None:
    backgrounds = {}
    for scheme in ("light", "dark"):
        context = phone_context(browser, color_scheme=scheme)
        page = context.new_page()
        page.goto(pages["game"])
        backgrounds[scheme] = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
        context.close()
    assert backgrounds["dark"] == "rgb(0, 0, 0)"
    assert backgrounds["light"] != backgrounds["dark"]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_linked_and_describes_an_installable_app(phone: Page, server: Server) -> None:
    phone.goto(server.url)
    href = phone.locator("link[rel=manifest]").get_attribute("href")
    response = phone.request.get(server.url + href)
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text())
    for key in ("name", "short_name", "description", "start_url", "scope", "id", "theme_color", "background_color"):
        assert manifest[key], key
    assert manifest["display"] == "standalone"
    sizes = {}
    for icon in manifest["icons"]:
        data = urllib.request.urlopen(server.url + icon["src"]).read()
        sizes[(icon["sizes"], icon["purpose"])] = png_size(data)
    assert sizes == {("192x192", "any"): (192, 192), ("512x512", "any"): (512, 512), ("512x512", "maskable"): (512, 512)}


def test_the_service_worker_keeps_visited_pages_and_the_offline_page_when_the_server_is_gone(
    browser: Browser, own_server: Server
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, own_server.url)
    state = page.evaluate("() => navigator.serviceWorker.ready.then((r) => r.active.state)")
    assert state in ("activating", "activated")
    under_the_worker(page)
    # this visit goes through the worker, which keeps a copy of the page
    page.goto(game)
    expect(page.locator("#next-deal-title")).to_have_text("Deal 1: Ana deals")
    own_server.stop()
    page.goto(game)
    expect(page.locator("#next-deal-title")).to_have_text("Deal 1: Ana deals")
    expect(page.locator("link[rel=stylesheet]")).to_have_count(1)
    assert page.evaluate("() => getComputedStyle(document.querySelector('.card')).borderRadius") == "12px"
    page.goto(f"{own_server.url}/black-spy/never-visited")
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    context.close()


def test_after_a_change_of_language_the_offline_page_speaks_the_new_one(browser: Browser, own_server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    page.goto(own_server.url)
    under_the_worker(page)
    page.get_by_label("Language").select_option("es")
    page.wait_for_function("() => document.documentElement.lang === 'es'", polling=100)
    page.wait_for_function(
        """async () => {
            for (const key of await caches.keys()) {
                const kept = await (await caches.open(key)).match("/offline");
                if (kept && (await kept.text()).includes('<html lang="es"')) return true;
            }
            return false;
        }""",
        polling=250,
    )
    own_server.stop()
    page.goto(f"{own_server.url}/black-spy/never-visited")
    spanish = Translations.load(str(TRANSLATIONS), ["es"]).gettext("No connection")
    assert spanish != "No connection"
    expect(page.get_by_role("heading", name=spanish)).to_be_visible()
    context.close()


def test_a_new_version_of_the_app_gets_a_new_cache(phone: Page, server: Server) -> None:
    body = phone.request.get(f"{server.url}/sw.js").text()
    assert 'const CACHE = "companion-' in body
    assert phone.request.get(f"{server.url}/sw.js").headers["cache-control"] == "no-cache"
    # the cache name is made of the shell files' hashes, so it changes with any of them
    css = phone.request.get(f"{server.url}/").text()
    css_hash = css.split("css/app.css?v=")[1][:12]
    assert css_hash in body


def test_the_wake_lock_toggle_is_shown_and_on_during_a_game(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    assert phone.evaluate("() => 'wakeLock' in navigator"), "this chromium has the screen wake lock api"
    toggle = phone.get_by_label("Keep screen on")
    expect(toggle).to_be_visible()
    expect(toggle).to_be_checked()


def test_a_phone_that_turns_the_screen_lock_off_keeps_it_off_on_the_next_pages(phone: Page, server: Server) -> None:
    game = new_game(phone, server.url)
    phone.get_by_label("Keep screen on").uncheck()
    phone.reload()
    expect(phone.get_by_label("Keep screen on")).not_to_be_checked()
    # another game's page too, and on again once this phone says so
    new_game(phone, server.url)
    expect(phone.get_by_label("Keep screen on")).not_to_be_checked()
    phone.get_by_label("Keep screen on").check()
    phone.goto(game)
    expect(phone.get_by_label("Keep screen on")).to_be_checked()


def test_the_table_display_on_an_upright_phone_shows_every_total_whole(phone: Page, server: Server) -> None:
    names = ("Alessandra", "Bartholomew", "Maximilian", "Dmitri")
    new_game(phone, server.url, names=names, first_dealer=3)
    enter_points(phone, dict(zip(names, (40, 20, 0, 0), strict=True)))
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.get_by_role("heading", name="Deal 2: Alessandra deals")).to_be_visible()
    phone.goto(phone.locator("a[href*='/watch/']").first.get_attribute("href") + "/table")
    totals = phone.locator(".table-standings .total")
    expect(totals).to_have_count(4)
    # each total on one line, wholly on the screen: a long name gives way, never a number
    for row in range(4):
        box = totals.nth(row).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
        assert totals.nth(row).evaluate("(total) => total.getClientRects().length") == 1
        assert box["height"] < 2 * float(totals.nth(row).evaluate("(total) => parseFloat(getComputedStyle(total).lineHeight)"))


def test_the_first_load_of_a_game_page_is_at_most_30_kb_all_from_the_app(browser: Browser, pages: dict[str, str]) -> None:
    context = phone_context(browser, service_workers="block")
    first = transferred(context, pages["game"])
    context.close()
    assert first["foreign"] == 0
    assert first["bytes"] <= 30_000


def test_the_wake_lock_toggle_is_hidden_where_the_browser_lacks_the_api(browser: Browser, pages: dict[str, str]) -> None:
    context = phone_context(browser)
    context.add_init_script("delete Navigator.prototype.wakeLock")
    page = context.new_page()
    page.goto(pages["game"])
    expect(page.locator(".wake-lock")).to_be_hidden()
    context.close()


IPHONE = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1"


def test_safari_on_an_iphone_is_told_how_to_add_the_app_to_the_home_screen(browser: Browser, pages: dict[str, str]) -> None:
    iphone = phone_context(browser, user_agent=IPHONE)
    page = iphone.new_page()
    page.goto(pages["home"])
    expect(page.get_by_text("tap Share, then “Add to Home Screen”")).to_be_visible()
    iphone.close()
    android = phone_context(browser)
    page = android.new_page()
    page.goto(pages["home"])
    expect(page.locator("#ios-install")).to_be_hidden()
    android.close()


def test_a_spy_bases_cards_make_even_rows_on_a_320_pixel_phone(browser: Browser, server: Server, pages: dict[str, str]) -> None:
    # a game of two (seven cards a base) from the pages, and one of three (six) made here
    context = phone_context(browser, viewport=SMALL_PHONE)
    page = context.new_page()
    page.goto(f"{server.url}/new?game=spy")
    for row, name in enumerate(("Ana", "Ben", "Cy")):
        page.get_by_label(f"Player {row + 1} name").fill(name)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/spy/*")
    rows_of = """() => [...document.querySelectorAll('.slots')].map((slots) => {
      const rows = {};
      for (const slot of slots.children) rows[slot.offsetTop] = (rows[slot.offsetTop] || 0) + 1;
      return Object.values(rows);
    })"""
    narrowest = (
        "() => Math.min(...[...document.querySelectorAll('.slots > *')].map((slot) => slot.getBoundingClientRect().width))"
    )
    three, three_narrowest = page.evaluate(rows_of), page.evaluate(narrowest)
    page.goto(pages["spy game"])
    two, two_narrowest = page.evaluate(rows_of), page.evaluate(narrowest)
    context.close()
    assert three and all(rows == [6] for rows in three), three
    assert two and all(sorted(rows) == [3, 4] for rows in two), two
    assert min(three_narrowest, two_narrowest) >= 44
