"""A whole game of Spy played on a phone, in a real Chromium."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Locator, Page, expect

from tests.browser.browsing import Server, phone_context, settled, touched

ANA, BEN = 0, 1


def new_spy_game(page: Page, base: str, names: tuple[str, ...], first_player: int) -> str:
    """Fill and send the Spy form as a player would; return the game page's url."""
    page.goto(f"{base}/new?game=spy")
    for row, name in enumerate(names):
        page.get_by_label(f"Player {row + 1} name").fill(name)
    page.locator(f"input[name=first_player][value='{first_player}']").check()
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url(re.compile(r"/spy/[A-Za-z0-9]+$"))
    return page.url


def cards(page: Page, seat: int):
    return page.locator(f"section[aria-labelledby=base-{seat}] label.tap")


def tap(page: Page, seat: int, card: int) -> None:
    """Tap card ``card`` (from the owner's left, the Spy left out) of ``seat``'s base."""
    cards(page, seat).nth(card - 1).click()
    expect(page.locator(".answers legend")).to_contain_text(f"card {card}.")


def answer(page: Page, words: str) -> None:
    page.get_by_role("radio", name=re.compile("^" + re.escape(words))).check()


def record(page: Page, message: str) -> None:
    page.get_by_role("button", name=re.compile("^Record the turn")).click()
    expect(page.locator(".messages")).to_contain_text(message)


def turn_title(page: Page):
    return page.locator("#turn-title")


def base(page: Page, seat: int):
    return page.locator(f"section[aria-labelledby=base-{seat}]")


def test_a_two_player_game_of_spy_played_by_taps_to_its_end(phone: Page, server: Server) -> None:
    new_spy_game(phone, server.url, ("Ana", "Ben"), first_player=0)
    expect(turn_title(phone)).to_have_text("Turn 1: Ana's turn")
    # two players: green and red, 8-card bases, so 7 cards of Ben's to tap besides his Spy
    expect(base(phone, ANA).locator("h3")).to_contain_text("green")
    expect(base(phone, BEN).locator("h3")).to_contain_text("red")
    expect(cards(phone, BEN)).to_have_count(7)
    expect(cards(phone, ANA)).to_have_count(0)
    expect(base(phone, BEN)).to_contain_text("Next target: Safe 1")
    expect(base(phone, BEN)).to_contain_text("3 of 3 bombs unlit")

    # 1 Ana exposes Ben's Safe 1
    tap(phone, BEN, 3)
    expect(phone.get_by_role("radio", name=re.compile("^A Safe that is not the target"))).to_have_count(1)
    answer(phone, "The target: it is exposed now (Safe 1)")
    record(phone, "Ana exposed Ben's Safe 1.")
    expect(turn_title(phone)).to_have_text("Turn 2: Ben's turn")
    expect(base(phone, BEN)).to_contain_text("Next target: Safe 2")
    expect(base(phone, BEN).locator("li.slot.exposed")).to_have_text(re.compile(r"3\s*Safe\s1"))

    # 2 Ben finds one of Ana's bombs
    tap(phone, ANA, 5)
    answer(phone, "A bomb: tssss! It is lit now")
    record(phone, "Ben found one of Ana's bombs: tssss! It is lit.")
    expect(base(phone, ANA).locator("li.slot.lit")).to_have_text(re.compile(r"5\s*lit bomb"))
    expect(base(phone, ANA)).to_contain_text("2 of 3 bombs unlit")

    # 3 Ana: an exposed card is not asked about; she taps another card and exposes Safe 2
    tap(phone, BEN, 3)
    expect(phone.locator(".answers")).to_contain_text("An exposed card: nothing new. No question to ask.")
    tap(phone, BEN, 1)
    # with Safe 1 exposed, Ben's only hidden Safe is the target: "a Safe" is not offered
    expect(phone.get_by_role("radio", name=re.compile("^A Safe that is not the target"))).to_have_count(0)
    answer(phone, "The target: it is exposed now (Safe 2)")
    record(phone, "Ana exposed Ben's Safe 2.")

    # 4 Ben does not spy
    expect(turn_title(phone)).to_have_text("Turn 4: Ben's turn")
    phone.get_by_role("button", name="Record the turn: no spy").click()
    expect(phone.locator(".messages")).to_contain_text("Ben did not spy.")

    # 5 Ana exposes Top Secret 1, and the table takes it back
    tap(phone, BEN, 6)
    answer(phone, "The target: it is exposed now (Top Secret 1)")
    record(phone, "Ana exposed Ben's Top Secret 1.")
    expect(base(phone, BEN)).to_contain_text("Next target: Top Secret 2")
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Undo turn 5").click()
    expect(phone.locator(".messages")).to_contain_text("Turn 5 undone: what was entered for it is back in the form")
    expect(turn_title(phone)).to_have_text("Turn 5: Ana's turn")
    expect(base(phone, BEN)).to_contain_text("Next target: Top Secret 1")
    expect(base(phone, BEN).locator("li.slot.exposed")).to_have_count(2)
    # the card tapped and its answer come back chosen: the turn is recorded again as it stands
    expect(phone.locator(".answers legend")).to_contain_text("card 6.")
    expect(phone.get_by_role("radio", name=re.compile(r"^The target: it is exposed now \(Top Secret 1\)"))).to_be_checked()
    record(phone, "Ana exposed Ben's Top Secret 1.")

    # 6 Ben hears "a Top Secret"
    tap(phone, ANA, 2)
    answer(phone, "A Top Secret that is not the target")
    record(phone, "Ben spied on Ana: a Top Secret.")

    # 7 Ana exposes Ben's Top Secret 2: Ben is found out, Ana is the last player standing
    expect(turn_title(phone)).to_have_text("Turn 7: Ana's turn")
    tap(phone, BEN, 2)
    answer(phone, "The target: it is exposed now (Top Secret 2)")
    record(phone, "Ana exposed Ben's Top Secret 2: Ben is found out. Ana wins!")
    expect(phone.get_by_role("heading", name="Game over")).to_be_visible()
    expect(phone.locator(".banner .winner")).to_have_text(re.compile(r"Ana\s+wins: the last player standing\."))
    expect(base(phone, BEN).locator(".badge.out")).to_have_text("found out")
    # out, Ben's base has no next target any more: it is no longer spied on
    expect(base(phone, BEN)).to_contain_text("Ben is out: their base is no longer spied on.")
    expect(base(phone, BEN)).not_to_contain_text("target")
    expect(base(phone, BEN).locator("li.slot.exposed")).to_have_count(4)
    expect(phone.get_by_role("button", name=re.compile("^Record the turn"))).to_have_count(0)
    expect(phone.locator("label.tap")).to_have_count(0)
    expect(phone.get_by_role("button", name="Undo turn 7")).to_be_visible()


IN_VIEW = """(element) => {
  const box = element.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight;
}"""


def in_view(locator: Locator) -> bool:
    """Whether the element is wholly in view, or comes there within a moment: the scroll to a
    tapped card's answers waits for the frame that shows them (static/js/kinds/spy.js)."""
    locator.page.wait_for_function(IN_VIEW, arg=locator.element_handle(), timeout=2000)
    return True


# the closest two of the page's buttons and links come, edge to edge
CLOSEST_TARGETS = """() => {
  const targets = [...document.querySelectorAll("main button, main a[href], main .button")]
    .filter((el) => el.getClientRects().length > 0)
    .map((el) => ({name: el.textContent.trim().slice(0, 40), box: el.getBoundingClientRect()}));
  let closest = {gap: Infinity};
  for (const [i, a] of targets.entries()) {
    for (const b of targets.slice(i + 1)) {
      const across = Math.max(b.box.left - a.box.right, a.box.left - b.box.right);
      const down = Math.max(b.box.top - a.box.bottom, a.box.top - b.box.bottom);
      const gap = Math.max(across, down);
      if (gap < closest.gap) closest = {gap, between: [a.name, b.name]};
    }
  }
  return closest;
}"""


def four_players(phone: Page, server: Server) -> str:
    return new_spy_game(phone, server.url, ("Ana", "Ben", "Cy", "Dee"), first_player=0)


def test_a_turn_an_undo_put_back_can_be_started_again_as_no_spy(phone: Page, server: Server) -> None:
    new_spy_game(phone, server.url, ("Ana", "Ben"), 0)
    tap(phone, BEN, 3)
    answer(phone, "A bomb")
    record(phone, "tssss! It is lit.")
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Undo turn 1").click()
    expect(phone.get_by_role("radio", name=re.compile("^A bomb"))).to_be_checked()
    # Ana did not spy after all: one tap clears the card and its answer
    phone.get_by_role("link", name="Start this turn again").click()
    expect(phone.locator("#spy-answers")).to_have_count(0)
    phone.get_by_role("button", name="Record the turn: no spy").click()
    expect(phone.locator(".messages")).to_contain_text("Ana did not spy.")


def test_a_tapped_cards_answers_and_its_record_button_come_into_view_by_the_card(phone: Page, server: Server) -> None:
    four_players(phone, server)
    # Ben's base is the second of four: the answers used to come below Dee's, off the screen
    tap(phone, BEN, 3)
    answers = phone.locator("#spy-answers")
    expect(base(phone, BEN).locator("#spy-answers")).to_have_count(1)
    assert in_view(answers)
    assert in_view(phone.get_by_role("button", name="Record the turn", exact=True))
    assert cards(phone, BEN).nth(2).evaluate(IN_VIEW), "the card just tapped scrolled away"
    # Dee's base is the last: its answers open below the screen's edge and are brought in
    dee = 3
    cards(phone, dee).nth(0).scroll_into_view_if_needed()
    tap(phone, dee, 1)
    expect(base(phone, dee).locator("#spy-answers")).to_have_count(1)
    expect(base(phone, BEN).locator("#spy-answers")).to_have_count(0)
    assert in_view(answers)
    assert in_view(phone.get_by_role("button", name="Record the turn", exact=True))
    answer(phone, "A Safe that is not the target")
    record(phone, "Ana spied on Dee: a Safe.")


def test_a_card_chosen_with_the_arrow_keys_keeps_the_focus_for_the_next_one(phone: Page, server: Server) -> None:
    four_players(phone, server)
    touched(phone)  # htmx comes with the first touch
    looks = phone.locator("input[name=look]")
    first, second = looks.nth(0).get_attribute("value"), looks.nth(1).get_attribute("value")
    looks.nth(0).focus()
    phone.keyboard.press("Space")
    expect(phone.locator(".answers legend")).to_contain_text("card 1.")
    settled(phone)
    # the answers came with the whole game, and the card chosen is focused in it, checked
    focused = "() => [document.activeElement.name, document.activeElement.value, document.activeElement.checked]"
    assert phone.evaluate(focused) == ["look", first, True]
    # so the next arrow goes on from there, to the next card
    phone.keyboard.press("ArrowRight")
    expect(phone.locator(".answers legend")).to_contain_text("card 2.")
    settled(phone)
    assert phone.evaluate(focused) == ["look", second, True]


def test_a_turn_recorded_with_the_keys_leaves_the_next_tab_in_the_next_turn(phone: Page, server: Server) -> None:
    four_players(phone, server)
    touched(phone)
    phone.get_by_role("button", name="Record the turn: no spy").focus()
    phone.keyboard.press("Enter")
    expect(turn_title(phone)).to_have_text("Turn 2: Ben's turn")
    # the button pressed went with the old turn: the new turn's heading has the focus, not the page
    expect(turn_title(phone)).to_be_focused()
    phone.keyboard.press("Tab")
    assert phone.evaluate("() => document.activeElement.closest('form.turn-form') !== null")


def test_the_spy_pages_buttons_and_links_keep_8_pixels_apart(phone: Page, server: Server) -> None:
    four_players(phone, server)
    closest = phone.evaluate(CLOSEST_TARGETS)
    assert closest["gap"] >= 8, closest
    tap(phone, BEN, 3)
    closest = phone.evaluate(CLOSEST_TARGETS)
    assert closest["gap"] >= 8, closest


def test_without_javascript_a_tapped_card_opens_the_page_at_its_answers(browser: Browser, server: Server) -> None:
    context = phone_context(browser, java_script_enabled=False)
    page = context.new_page()
    four_players(page, server)
    cards(page, 3).nth(1).click()
    page.get_by_role("button", name="Show the possible answers").click()
    page.wait_for_url(re.compile(r"look=3%3A2.*#spy-answers$"))
    expect(base(page, 3).locator("#spy-answers legend")).to_contain_text("Ana looked at Dee's card 2.")
    assert in_view(page.locator("#spy-answers"))
    answer(page, "A Safe that is not the target")
    page.get_by_role("button", name="Record the turn", exact=True).click()
    expect(page.locator(".messages")).to_contain_text("Ana spied on Dee: a Safe.")
    context.close()
