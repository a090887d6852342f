"""The companion in the table's language, in a real Chromium at phone size."""

from __future__ import annotations

import re
import subprocess
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from babel.support import Translations
from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import Server, phone_context

TRANSLATIONS = Path(__file__).resolve().parents[2] / "translations"
PLACEHOLDER = re.compile(r"%\(\w+\)s")
TELUGU = re.compile(r"[\u0c00-\u0c7f]")
# what a combining mark is drawn on, by script
BASES = {char: "\u0c15" for char in map(chr, range(0x0C00, 0x0C80))}


@cache
def catalogue(locale: str) -> Translations:
    return Translations.load(str(TRANSLATIONS), [locale])


def said(locale: str, message: str, **params: object) -> str:
    return catalogue(locale).gettext(message) % params if params else catalogue(locale).gettext(message)


def english_left_on(page: Page, locale: str) -> list[str]:
    """English sentences of the catalogue that show on the page although they have a translation."""
    text = page.locator("body").inner_text()
    left = []
    for message in catalogue(locale)._catalog:
        english = message[0] if isinstance(message, tuple) else message
        translated = catalogue(locale)._catalog[message]
        if not english or translated == english:
            continue
        piece = max(PLACEHOLDER.split(english), key=len).strip()
        if len(piece) >= 15 and piece in text:
            left.append(piece)
    return left


def phone_set_to(browser: Browser, locale: str) -> Iterator[Page]:
    """A phone whose browser speaks ``locale``: it sends that Accept-Language."""
    context = phone_context(browser, locale=locale)
    yield context.new_page()
    context.close()


@pytest.fixture
def spanish_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_set_to(browser, "es-ES")


@pytest.fixture
def telugu_phone(browser: Browser) -> Iterator[Page]:
    yield from phone_set_to(browser, "te-IN")


def test_a_deal_played_in_spanish(spanish_phone: Page, server: Server) -> None:
    page = spanish_phone
    page.goto(f"{server.url}/new")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    # the game as the Spanish rules name it
    expect(page.locator("main")).to_contain_text("Espía negro")
    for row, name in enumerate(("Ana", "Ben", "Cy", "Dee")):
        page.locator(f"input[name=player-{row}]").fill(name)
    page.locator("input[name=first_dealer][value='0']").check()
    page.locator("form[action$='/black-spy/new'] button[type=submit]").click()
    page.wait_for_url("**/black-spy/*")

    expect(page.locator("#next-deal-title")).to_have_text(said("es", "Deal %(number)s: %(name)s deals", number=1, name="Ana"))
    for name, points in {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 5}.items():
        page.get_by_role("textbox", name=name, exact=True).fill(str(points))
    page.locator("form.deal-form button.big").first.click()
    # refused, in Spanish, by the total
    expect(page.locator("#total-error")).to_have_text(
        said("es", "The points add up to %(total)s, not %(deal_total)s: check each player's count.", total=65, deal_total=60)
    )
    page.get_by_role("textbox", name="Dee", exact=True).fill("0")
    page.locator("form.deal-form button.big").first.click()
    expect(page.locator(".messages")).to_contain_text(said("es", "Deal %(number)s recorded.", number=1))
    expect(page.locator("#next-deal-title")).to_have_text(said("es", "Deal %(number)s: %(name)s deals", number=2, name="Ben"))
    assert english_left_on(page, "es") == []


def test_the_switcher_changes_the_language_and_stays_on_the_page(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/history")
    expect(phone.locator("html")).to_have_attribute("lang", "en")
    phone.get_by_label("Language").select_option("it")
    phone.wait_for_load_state()
    expect(phone.locator("html")).to_have_attribute("lang", "it")
    assert phone.url.endswith("/history")
    phone.goto(f"{server.url}/")
    expect(phone.locator("html")).to_have_attribute("lang", "it")
    assert english_left_on(phone, "it") == []


@cache
def families_covering(codepoint: int) -> frozenset[str]:
    listed = subprocess.run(["fc-list", f":charset={codepoint:x}", "family"], capture_output=True, text=True, check=True)
    return frozenset(name.strip() for line in listed.stdout.splitlines() for name in line.split(","))


def badly_drawn(page: Page, script: re.Pattern[str]) -> list[str]:
    """The characters of ``script`` on the page that no font drew: each shows as an empty box.

    Every such character is put alone in a probe span styled as the page's text, and
    Chromium says which platform font drew it; that font must have the character
    (fontconfig knows which do). A character no font has is drawn by a fallback that
    lacks it.
    """
    chars = sorted(set(script.findall(page.locator("body").inner_text())))
    assert chars, "no text in this script on the page"
    # a vowel sign or virama is drawn on a consonant; alone it would be drawn with nothing
    probes = [f"{BASES.get(char, '')}{char}" if unicodedata.category(char).startswith("M") else char for char in chars]
    page.evaluate(
        """(chars) => {
            const probe = document.createElement("p");
            probe.id = "glyph-probe";
            for (const char of chars) {
                const span = document.createElement("span");
                span.textContent = char;
                span.dataset.char = char;
                probe.append(span, " ");
            }
            document.querySelector("main").append(probe);
            // CSS.getPlatformFontsForNode reads the last layout and does not make one: on a
            // busy machine the next frame may not have come yet, and a probe never laid out
            // has no fonts at all. Asking for its size lays it out now.
            probe.getBoundingClientRect();
        }""",
        probes,
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    spans = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "#glyph-probe span"})["nodeIds"]
    wrong = []
    for node_id, char in zip(spans, chars, strict=True):
        fonts = [font["familyName"] for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node_id})["fonts"]]
        if not fonts or not any(font in families_covering(ord(char)) for font in fonts):
            wrong.append(f"U+{ord(char):04X} {unicodedata.name(char, '?')} drawn with {fonts}")
    cdp.detach()
    page.evaluate("document.getElementById('glyph-probe').remove()")
    return wrong


def test_the_glyph_check_sees_characters_no_font_has(phone: Page, server: Server) -> None:
    # U+10FFFD is in no font here: if the check passed this, it could pass anything
    unassigned = 0x10FFFD
    assert not families_covering(unassigned)
    phone.goto(f"{server.url}/")
    phone.evaluate("document.querySelector('main').insertAdjacentHTML('afterbegin', '<p>\\u{10FFFD} ok</p>')")
    missing = badly_drawn(phone, re.compile("[\U0010fffd]"))
    assert len(missing) == 1 and missing[0].startswith("U+10FFFD")
    # and Latin letters, which every font here has, pass
    assert badly_drawn(phone, re.compile("[A-Za-z]")) == []


# rendering waits for a script that never comes, so no frame is ever drawn: the page a
# machine too busy to draw the next frame leaves the glyph check with
NEVER_DRAWN = (
    '<!doctype html><html lang="te"><head><meta charset="utf-8">'
    '<script async blocking="render" src="/never.js"></script></head>'
    "<body><main><p>\u0c15\u0c3e\u0c30\u0c4d\u0c21\u0c41</p></main></body></html>"
)


def test_the_glyph_check_needs_no_frame_drawn_before_it_asks(phone: Page) -> None:
    phone.route("http://glyphs.test/never.js", lambda route: None)
    phone.route("http://glyphs.test/", lambda route: route.fulfill(body=NEVER_DRAWN, content_type="text/html; charset=utf-8"))
    phone.goto("http://glyphs.test/", wait_until="domcontentloaded")
    drew = "() => new Promise((done) => { requestAnimationFrame(() => done(true)); setTimeout(() => done(false), 300); })"
    assert phone.evaluate(drew) is False, "the page drew a frame: this test no longer shows a check made before one"
    assert badly_drawn(phone, TELUGU) == []


@pytest.mark.parametrize("path", ["/", "/new", "/rules/black-spy", "/rules/spy", "/history"])
def test_telugu_pages_have_every_glyph(telugu_phone: Page, server: Server, path: str) -> None:
    telugu_phone.goto(f"{server.url}{path}")
    expect(telugu_phone.locator("html")).to_have_attribute("lang", "te")
    assert badly_drawn(telugu_phone, TELUGU) == []


def test_a_telugu_game_page_has_every_glyph(telugu_phone: Page, server: Server) -> None:
    page = telugu_phone
    page.goto(f"{server.url}/new")
    for row, name in enumerate(("Ana", "Ben", "Cy")):
        page.locator(f"input[name=player-{row}]").fill(name)
    page.locator("input[name=first_dealer][value='1']").check()
    page.locator("form[action$='/black-spy/new'] button[type=submit]").click()
    page.wait_for_url("**/black-spy/*")
    assert badly_drawn(page, TELUGU) == []
    assert english_left_on(page, "te") == []
