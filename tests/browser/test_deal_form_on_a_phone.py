"""The Black Spy deal form on a 390x844 phone: the keypad, the screen and what the form says."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Dialog, Locator, Page, expect

from tests.browser.browsing import PHONE, SMALL_PHONE, Server, enter_counts, enter_points, new_game, phone_context, settled

# the phone of issue 15 with its on-screen keyboard open: a little over half the screen is left
KEYBOARD_OPEN = {"width": 390, "height": 500}


@pytest.fixture
def small_view(browser: Browser) -> Iterator[Page]:
    context = phone_context(browser, viewport=KEYBOARD_OPEN)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert errors == [], f"the page raised script errors: {errors}"


def box(page: Page, name: str) -> Locator:
    return page.get_by_role("textbox", name=name, exact=True)


def wholly_on_screen(page: Page, locator: Locator, within_ms: int = 2000) -> bool:
    """Whether the element is wholly on screen, or comes there within a moment: a swap's
    scroll to what it brought waits for the frame that shows it (static/js/swaps.js)."""
    for _ in range(within_ms // 50 + 1):
        place = locator.bounding_box()
        height = page.evaluate("() => window.visualViewport.height")
        if place is not None and place["y"] >= 0 and place["y"] + place["height"] <= height:
            return True
        page.wait_for_timeout(50)
    return False


def posts_of(page: Page) -> list[str]:
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.url) if request.method == "POST" else None)
    return sent


def test_next_on_the_keypad_moves_to_the_next_box_and_only_the_last_box_records(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    sent = posts_of(phone)
    hints = phone.locator(".points-input").evaluate_all("(boxes) => boxes.map((b) => b.getAttribute('enterkeyhint'))")
    assert hints == ["next", "next", "next", "done"]
    box(phone, "Ana").click()
    phone.keyboard.type("25")
    phone.keyboard.press("Enter")
    expect(box(phone, "Ben")).to_be_focused()
    for points, following in (("15", "Cy"), ("20", "Dee")):
        phone.keyboard.type(points)
        phone.keyboard.press("Enter")
        expect(box(phone, following)).to_be_focused()
    expect(phone.locator(".deal-form .error")).to_have_count(0)
    assert sent == []
    phone.keyboard.type("0")
    phone.keyboard.press("Enter")
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    assert len(sent) == 1
    expect(phone.locator(".deals tbody tr")).to_have_count(1)


def test_enter_in_the_last_box_does_not_answer_an_open_shoot_question(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    enter_points(phone, {"Ana": 65, "Ben": -5, "Cy": 0, "Dee": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.get_by_text("Did Ana take all 16 black cards?")).to_be_visible()
    # once the question's swap has settled: its handler lowers the keyboard of a box in focus
    settled(phone)
    sent = posts_of(phone)
    box(phone, "Dee").focus()
    phone.keyboard.press("Enter")
    expect(phone.get_by_role("button", name="Yes: 0 for Ana, 60 for everyone else")).to_be_focused()
    assert sent == []
    # a changed box closes the question, which was about the points as they were
    box(phone, "Dee").fill("5")
    expect(phone.get_by_text("Did Ana take all 16 black cards?")).to_have_count(0)
    expect(phone.get_by_role("button", name="Record deal 1")).to_be_visible()


def test_with_the_keyboard_open_next_shows_each_box_and_record_is_on_screen_at_the_last(phone: Page, server: Server) -> None:
    page = phone
    url = new_game(page, server.url)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    page.get_by_role("button", name="Record deal 1").click()
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    page.goto(url)
    sent = posts_of(page)
    # the first box is tapped, and then the keyboard comes up over the lower part of the screen
    box(page, "Ana").click()
    page.set_viewport_size(KEYBOARD_OPEN)
    for points, following in (("10", "Ben"), ("10", "Cy"), ("10", "Dee")):
        page.keyboard.type(points)
        page.keyboard.press("Enter")
        expect(box(page, following)).to_be_focused()
        assert wholly_on_screen(page, box(page, following)), following
    # the boxes were walked on the phone, not by a refused deal's round trip
    assert sent == []
    expect(page.locator(".deal-form .error")).to_have_count(0)
    # typing the last box, the button that records is in view without a scroll by hand
    assert wholly_on_screen(page, page.get_by_role("button", name="Record deal 2"))
    page.keyboard.type("30")
    page.keyboard.press("Enter")
    expect(page.locator(".messages")).to_contain_text("Deal 2 recorded.")


def test_the_keyboard_coming_up_over_the_last_box_leaves_it_and_record_on_screen(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25})
    box(phone, "Dee").click()
    assert phone.evaluate("() => window.scrollY") == 0
    # the browser shows the box it focused above the keyboard; the page shows the rest of the way
    phone.set_viewport_size(KEYBOARD_OPEN)
    record = phone.get_by_role("button", name="Record deal 1")
    phone.wait_for_function("() => window.scrollY > 0", polling=100)
    assert wholly_on_screen(phone, box(phone, "Dee"))
    assert wholly_on_screen(phone, record)


def test_on_a_phone_whose_deal_the_pass_the_totals_and_the_whole_deal_form_show_without_scrolling(
    phone: Page, server: Server
) -> None:
    url = new_game(phone, server.url)
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    phone.goto(url)
    assert phone.evaluate("() => window.scrollY") == 0
    for part in (
        phone.locator("#next-deal-title"),
        phone.locator(".next-deal .pass"),
        box(phone, "Ana"),
        box(phone, "Dee"),
        phone.get_by_role("button", name="Record deal 2"),
    ):
        assert wholly_on_screen(phone, part), part
    expect(phone.locator(".point-row").filter(has=box(phone, "Cy"))).to_contain_text("25 so far")


def test_a_refused_deals_messages_go_as_their_boxes_change(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    enter_points(phone, {"Ana": 20, "Ben": "x", "Cy": 25})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator("#points-1-error")).to_contain_text("is not a whole number")
    expect(phone.locator("#points-3-error")).to_contain_text("Enter Dee's points")
    settled(phone)  # a box typed in before the swap settles races the settle's own handlers
    box(phone, "Dee").fill("0")
    expect(phone.locator("#points-3-error")).to_have_count(0)
    expect(box(phone, "Dee")).not_to_have_attribute("aria-invalid", "true")
    # Ben's box has not changed: its message stays
    expect(phone.locator("#points-1-error")).to_be_visible()
    expect(box(phone, "Ben")).to_have_attribute("aria-invalid", "true")
    box(phone, "Ben").fill("16")
    expect(phone.locator("#points-1-error")).to_have_count(0)
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator("#total-error")).to_contain_text("The points add up to 61, not 60")
    # the total is every box's: any of them changed, the message goes
    box(phone, "Ana").fill("19")
    expect(phone.locator("#total-error")).to_have_count(0)


def test_a_wrong_total_is_brought_wholly_into_view(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 1})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator("#total-error")).to_contain_text("The points add up to 61, not 60")
    assert wholly_on_screen(phone, phone.locator("#total-error"))


def test_a_wrong_total_sent_from_the_last_box_with_the_keyboard_open_is_wholly_in_view(small_view: Page, server: Server) -> None:
    page = small_view
    new_game(page, server.url)
    enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 1})
    box(page, "Dee").press("Enter")
    expect(page.locator("#total-error")).to_contain_text("The points add up to 61, not 60")
    assert wholly_on_screen(page, page.locator("#total-error"))


def test_the_sum_says_what_is_left_to_enter(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    line = phone.locator(".sum")
    # what shows, not what the script keeps hidden
    expect(line).to_have_text("Still to enter: all 60 points", use_inner_text=True)
    enter_points(phone, {"Ana": 25})
    expect(line).to_have_text("Sum: 25 of 60 (35 still to enter)", use_inner_text=True)
    enter_points(phone, {"Ben": 15, "Cy": 15})
    # one box left: the button offers the rest, and says it
    expect(line).to_have_text("Sum: 55 of 60 Give Dee the rest: 5", use_inner_text=True)
    enter_points(phone, {"Dee": 6})
    expect(line).to_have_text("Sum: 61 of 60", use_inner_text=True)


def test_a_box_the_sum_cannot_read_is_named_not_counted_as_empty(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    line = phone.locator(".sum")
    enter_points(phone, {"Ana": 25, "Ben": 15, "Cy": 15})
    # a slip on the keypad: the sum leaves it out, and says whose box it is
    phone.get_by_role("textbox", name="Dee", exact=True).fill("5-")
    expect(line).to_have_text("Sum: 55 of 60 (Dee: not a whole number)", use_inner_text=True)
    expect(line).to_have_class(re.compile(r"\boff\b"))
    # not offered the rest as if the box were empty
    expect(phone.locator(".fill-last")).to_be_hidden()
    # a minus typed first is a number on its way, not a slip
    phone.get_by_role("textbox", name="Dee", exact=True).fill("-")
    expect(line).not_to_contain_text("not a whole number", use_inner_text=True)
    expect(line).not_to_have_class(re.compile(r"\boff\b"))
    # what the server reads as a number, the sum reads too: a sign, a Telugu keypad's digits
    for typed in ("5", "+5", "\u0c6b"):
        phone.get_by_role("textbox", name="Dee", exact=True).fill(typed)
        expect(line).to_have_text("Sum: 60 of 60", use_inner_text=True)
        expect(line).to_have_class(re.compile(r"\bok\b"))
    # a number longer than any deal's is left out whole, never summed into a float's 1e+23
    phone.get_by_role("textbox", name="Dee", exact=True).fill("123456789012345678901")
    expect(line).to_have_text("Sum: 55 of 60 (Dee: not a whole number)", use_inner_text=True)


def test_the_classic_sum_and_keys_follow_the_classic_rules(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/new")
    for row, name in enumerate(("Ana", "Ben", "Cy")):
        phone.get_by_label(f"Seat {row + 1} name").fill(name)
    phone.locator("input[name=first_dealer][value='0']").check()
    phone.get_by_label("Classic").check()
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/black-spy/*")
    expect(phone.locator(".sum")).to_have_text("Still to enter: all 80 points", use_inner_text=True)
    expect(phone.locator("button.sign")).to_have_count(0)


def test_counting_cards_shows_each_players_points_and_where_the_rest_goes(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    phone.get_by_role("link", name="By cards").click()
    phone.get_by_label("Dee gets the rest").check()

    def points() -> list[str]:
        return phone.locator("output[data-points-for]").all_inner_texts()

    # nothing counted yet: no player has points, not even the rest, who holds every card
    expect(phone.locator("output[data-points-for='3']")).to_have_text("–")
    assert points() == ["–", "–", "–", "–"]
    # and the heading keeps its range whole ("Black 1–6" on one line at a phone's width)
    lines_of_the_range = """(th) => {
      const text = th.firstChild, words = text.textContent, range = document.createRange();
      range.setStart(text, words.indexOf("1"));
      range.setEnd(text, words.indexOf("6") + 1);
      return range.getClientRects().length;
    }"""
    assert phone.locator(".cards-table thead th").nth(2).evaluate(lines_of_the_range) == 1
    for field, value in {"black_spies-0": 2, "low_blacks-0": 3, "coloured_spies-0": 1, "black_spies-1": 1}.items():
        phone.locator(f"#{field}").fill(str(value))
    # Cy's row is still blank: a row to fill (the rules would refuse it), not a 0
    expect(phone.locator("output[data-points-for='2']")).to_have_text("–")
    phone.locator("#coloured_spies-2").fill("2")

    # ana 2x10 + 3 - 5, ben 10, cy -10; dee the rest: 3x10 + 3 - 5 and all four high blacks (14)
    expect(phone.locator("output[data-points-for='3']")).to_have_text("42")
    assert points() == ["18", "10", "-10", "42"]
    # a high black nobody is marked for shows on the chip of the player who gets the rest
    expect(phone.locator("fieldset[data-high='8'] label.chip.rest-takes")).to_have_text("Dee")
    for card, name in {8: "Ana", 9: "Ben", 11: "Ana"}.items():
        phone.locator(f"fieldset[data-high='{card}'] label.chip", has_text=name).click()
    expect(phone.locator("fieldset[data-high='8'] label.chip.rest-takes")).to_have_count(0)
    expect(phone.locator("fieldset[data-high='10'] label.chip.rest-takes")).to_have_text("Dee")
    assert points() == ["25", "13", "-10", "32"]
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    expect(phone.locator(".deals tbody tr").first).to_contain_text("25")


def test_a_deal_counted_by_cards_and_undone_keeps_the_rests_counts_when_the_rest_moves(phone: Page, server: Server) -> None:
    new_game(phone, server.url, first_dealer=3)
    phone.get_by_role("link", name="By cards").click()
    enter_counts(phone)
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Undo it").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 undone: its numbers are back in the form")
    # the dealer's row, the rest, shows what the deal gave it; made a row to type in, it keeps it
    rest = [phone.locator(f"#{key}-3") for key in ("black_spies", "low_blacks", "coloured_spies")]
    counted = [box.input_value() for box in rest]
    assert counted != ["", "", ""]
    phone.get_by_label("Nobody gets the rest: I typed every count").check()
    for box, value in zip(rest, counted, strict=True):
        expect(box).to_have_value(value)
        expect(box).to_be_editable()
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")


@pytest.mark.parametrize("viewport", [PHONE, SMALL_PHONE], ids=["390px", "320px"])
def test_long_names_leave_the_whole_cards_table_on_the_phone_the_rest_column_too(
    browser: Browser, server: Server, viewport: dict
) -> None:
    context = phone_context(browser, viewport=viewport)
    page = context.new_page()
    names = ("Maximiliano", "Alessandra", "Alessandro", "Venkateswara", "Christopher", "Christina")
    game = new_game(page, server.url, names=names)
    page.goto(f"{game}?mode=cards")
    # nothing to scroll sideways for: a new player never finds a column hidden off the side
    table = page.locator(".table-scroll", has=page.locator(".cards-table"))
    assert table.evaluate("(box) => box.scrollWidth - box.clientWidth") <= 0
    for name in names:
        rest = page.locator("label.tap", has=page.get_by_label(f"{name} gets the rest")).bounding_box()
        assert rest is not None and rest["x"] + rest["width"] <= viewport["width"], f"{name}'s Rest is off the screen"
    # and every name is there whole, on two lines if it must: cut short, Alessandra and
    # Alessandro would read alike
    shown = page.locator(".cards-table tbody th").evaluate_all(
        "(cells) => cells.map((cell) => [cell.innerText.replace(/[\\s\\u00ad-]/g, ''), cell.scrollWidth <= cell.clientWidth])"
    )
    assert shown == [[name, True] for name in names]
    context.close()


def test_the_rules_pages_scoring_table_keeps_its_card_names_whole(phone: Page, server: Server) -> None:
    phone.set_viewport_size(SMALL_PHONE)
    phone.goto(f"{server.url}/rules/black-spy")
    cut = phone.locator(".cards-table th[scope=row]").evaluate_all(
        "(cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.innerText)"
    )
    assert phone.locator(".cards-table th[scope=row]").count() > 0 and cut == []


def test_the_rest_shows_no_count_below_zero_when_the_others_counted_more_than_the_deck(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    phone.get_by_role("link", name="By cards").click()
    phone.get_by_label("Dee gets the rest").check()
    phone.locator("#black_spies-0").fill("4")
    expect(phone.locator("#black_spies-3")).to_have_value("2")
    phone.locator("#black_spies-1").fill("3")
    # 7 of the deck's 6: nothing is left for Dee, and no -1 is shown as a count
    expect(phone.locator("#black_spies-3")).to_have_value("")
    # nor points that add up to more than a deal's: none are shown until the counts fit the deck
    expect(phone.locator("output[data-points-for]")).to_have_text(["…", "…", "–", "…"])
    phone.locator("#black_spies-2").fill("0")
    phone.get_by_role("button", name="Record deal 1").click()
    # the count that is wrong is said, in the rules' words
    expect(phone.locator(".deal-form .error", has_text="7")).to_be_visible()


def test_a_blank_row_refused_is_no_fault_once_that_player_gets_the_rest(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    phone.get_by_role("link", name="By cards").click()
    phone.get_by_label("Nobody gets the rest: I typed every count").check()
    for seat, counts in enumerate([(2, 3, 1), (1, 2, 1), (3, 1, 2)]):
        for key, value in zip(("black_spies", "low_blacks", "coloured_spies"), counts, strict=True):
            phone.locator(f"#{key}-{seat}").fill(str(value))
    phone.get_by_role("button", name="Record deal 1").click()
    refused = phone.locator(".deal-form .error", has_text="Enter the cards Dee took (0 if none).")
    expect(refused).to_be_visible()
    # Dee's row is now what the others left: the message about it is out of date, and goes
    phone.get_by_label("Dee gets the rest").check()
    expect(refused).to_have_count(0)
    expect(phone.locator("#black_spies-3")).not_to_have_attribute("aria-invalid", "true")


def test_a_tap_on_another_players_rest_gives_back_the_counts_typed_for_the_first(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    phone.get_by_role("link", name="By cards").click()
    for field, value in {"black_spies-1": 3, "low_blacks-1": 2, "coloured_spies-1": 1}.items():
        phone.locator(f"#{field}").fill(str(value))
    # Ben made the rest by a slip: his boxes show what is left ...
    phone.get_by_label("Ben gets the rest").check()
    expect(phone.locator("#black_spies-1")).to_have_value("6")
    # ... and the dealer made the rest again: what was typed for Ben is back
    phone.get_by_label("Ana gets the rest").check()
    assert [phone.locator(f"#{key}-1").input_value() for key in ("black_spies", "low_blacks", "coloured_spies")] == [
        "3",
        "2",
        "1",
    ]
    expect(phone.locator("#black_spies-0")).to_have_value("3")


def test_all_sixteen_black_cards_counted_say_it_is_a_shoot_before_recording(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    phone.get_by_role("link", name="By cards").click()
    phone.get_by_label("Dee gets the rest").check()
    phone.locator("#black_spies-0").fill("6")
    phone.locator("#low_blacks-0").fill("6")
    # the others took none: their zeros typed, as the rules want every row filled
    phone.locator("#black_spies-1").fill("0")
    phone.locator("#black_spies-2").fill("0")
    note = phone.get_by_text("Ana took all 16 black cards: 0 for Ana, 60 for everyone else.")
    expect(note).to_be_hidden()
    for card in (8, 9, 10, 11):
        phone.locator(f"fieldset[data-high='{card}'] label.chip", has_text="Ana").click()
    expect(note).to_be_visible()
    # the points line shows the shoot's scores, the ones the deal will be recorded with
    points = [phone.locator(f"output[data-points-for='{seat}']") for seat in range(4)]
    for output, value in zip(points, ("0", "60", "60", "60"), strict=True):
        expect(output).to_have_text(value)
    phone.locator("#low_blacks-0").fill("5")
    expect(note).to_be_hidden()
    expect(points[0]).to_have_text("79")


def test_numbers_another_phone_beat_stay_on_screen_to_record_as_the_next_deal(
    browser: Browser, phone: Page, server: Server
) -> None:
    url = new_game(phone, server.url)
    other = phone_context(browser)
    second = other.new_page()
    second.goto(url)
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    enter_points(second, {"Ana": 10, "Ben": 10, "Cy": 10, "Dee": 30})
    second.get_by_role("button", name="Record deal 1").click()
    expect(second.locator(".messages")).to_contain_text("Deal 1 was just recorded from another phone, so yours was not.")
    expect(box(second, "Dee")).to_have_value("30")
    second.get_by_role("button", name="Record deal 2").click()
    expect(second.locator(".messages")).to_contain_text("Deal 2 recorded.")
    expect(second.locator(".deals tbody tr")).to_have_count(2)
    other.close()


def test_switching_to_cards_with_points_typed_asks_first_and_keeps_them_on_a_no(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    # nothing typed: the switch is made at once
    phone.get_by_role("link", name="By cards").click()
    expect(phone.locator("#black_spies-0")).to_be_visible()
    phone.get_by_role("link", name="By points").click()
    enter_points(phone, {"Ana": 20, "Ben": 15})
    asked: list[str] = []

    def say_no(dialog: Dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    phone.once("dialog", say_no)
    phone.get_by_role("link", name="By cards").click()
    expect(box(phone, "Ben")).to_have_value("15")
    assert asked == ["Count the deal by cards instead? The points typed here are cleared."]
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("link", name="By cards").click()
    expect(phone.locator("#black_spies-0")).to_be_visible()


def test_an_edit_of_a_deal_counted_by_cards_switched_to_points_shows_the_points_the_cards_gave(
    phone: Page, server: Server
) -> None:
    game = new_game(phone, server.url)
    phone.get_by_role("link", name="By cards").click()
    phone.get_by_label("Dee gets the rest").check()
    enter_counts(phone)
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    phone.goto(f"{game}/deals/1/edit")
    phone.get_by_role("link", name="By points").click()
    settled(phone)
    assert [box(phone, name).input_value() for name in ("Ana", "Ben", "Cy", "Dee")] == ["18", "10", "-10", "42"]


def test_a_stored_shoot_edited_into_ordinary_points_is_saved_as_typed(phone: Page, server: Server) -> None:
    game = new_game(phone, server.url)
    enter_points(phone, {"Ana": 65, "Ben": -5, "Cy": 0, "Dee": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    phone.get_by_role("button", name="Yes: 0 for Ana, 60 for everyone else").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    phone.goto(f"{game}/deals/1/edit")
    expect(phone.get_by_role("radio", name="Ana did: 0 for Ana, 60 for everyone else")).to_be_checked()
    # the shoot's answer was about the points as stored: changed, they are asked about anew
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    expect(phone.locator("fieldset.shoot-choice")).to_have_count(0)
    phone.get_by_role("button", name="Save deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 changed")
    expect(phone.locator(".deals tbody tr").first).to_contain_text("25")
    # points that could still be a shoot are asked about, as a new deal's are
    phone.goto(f"{game}/deals/1/edit")
    enter_points(phone, {"Ana": 70, "Ben": -10, "Cy": 0, "Dee": 0})
    phone.get_by_role("button", name="Save deal 1").click()
    expect(phone.get_by_role("button", name="Yes: 0 for Ana, 60 for everyone else")).to_be_visible()


def test_back_after_a_tab_of_the_form_leaves_the_player_at_the_form(phone: Page, server: Server) -> None:
    """Back restores the page as it was, where it was: a tab given the focus back after its
    swap held the page at itself through the restore, and Back landed at the chart (d1f8b4e)."""
    game = new_game(phone, server.url, end_value="500")
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    settled(phone)
    phone.get_by_role("link", name="By cards").tap()
    phone.wait_for_url("**mode=cards")
    settled(phone)
    phone.go_back()
    phone.wait_for_url(game)
    expect(phone.get_by_role("link", name="By points")).to_have_attribute("aria-current", "page")
    settled(phone)
    phone.wait_for_timeout(300)  # a scroll the restore set off would come by now
    assert phone.evaluate("() => scrollY") < 400, "Back left the page far below the form"
    expect(phone.get_by_role("heading", name="Record deal 2")).to_be_in_viewport()
