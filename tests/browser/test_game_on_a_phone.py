"""A whole game of Black Spy played on a phone, in a real Chromium."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect

from tests.browser.browsing import Server, enter_counts, enter_points, new_game, phone_context


def standings(page: Page) -> dict[str, int]:
    rows = page.locator(".standings li")
    result = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        name = row.locator(".name").inner_text().split("\n")[0].replace(" lowest", "").replace(" won", "").strip()
        result[name] = int(row.locator(".total").inner_text())
    return result


def record(page: Page, number: int) -> None:
    page.get_by_role("button", name=f"Record deal {number}").click()


def test_a_four_player_standard_game_played_to_its_end(phone: Page, server: Server) -> None:
    new_game(phone, server.url, first_dealer=3)
    expect(phone.locator("#next-deal-title")).to_have_text("Deal 1: Dee deals")
    expect(phone.locator(".next-deal .pass")).to_contain_text("Ana → Ben")

    # deal 1 by points, the running sum shown before sending
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25})
    expect(phone.locator("output[data-sum]")).to_have_text("60")
    enter_points(phone, {"Dee": 1})
    expect(phone.locator("output[data-sum]")).to_have_text("61")
    # a refused deal: the message sits by the total and nothing is recorded
    record(phone, 1)
    expect(phone.locator("#total-error")).to_contain_text("The points add up to 61, not 60")
    expect(phone.locator("#next-deal-title")).to_have_text("Deal 1: Dee deals")
    enter_points(phone, {"Dee": 0})
    record(phone, 1)
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    assert standings(phone) == {"Dee": 0, "Ben": 15, "Ana": 20, "Cy": 25}
    expect(phone.locator("#next-deal-title")).to_have_text("Deal 2: Ana deals")
    expect(phone.locator(".next-deal .pass")).to_contain_text("Pass 3 cards right")

    # deal 2 by cards, dee getting the rest
    phone.get_by_role("link", name="By cards").click()
    # the dealer gets the rest unless the table says otherwise
    expect(phone.get_by_label("Ana gets the rest")).to_be_checked()
    expect(phone.locator("#black_spies-0")).not_to_be_editable()
    phone.get_by_label("Dee gets the rest").check()
    enter_counts(phone)
    expect(phone.locator("#black_spies-3")).to_have_value("3")
    for card, name in {8: "Ana", 9: "Ben", 10: "Dee", 11: "Ana"}.items():
        phone.locator(f"fieldset:has(legend:text('Black {card} ')) label.chip", has_text=name).click()
    record(phone, 2)
    expect(phone.locator(".messages")).to_contain_text("Deal 2 recorded.")
    assert standings(phone) == {"Cy": 15, "Ben": 28, "Dee": 32, "Ana": 45}

    # deal 3: a shoot, with ben's minus typed through the sign key
    # the form stays in the mode the table used
    expect(phone.get_by_role("link", name="By cards")).to_have_attribute("aria-current", "page")
    phone.get_by_role("link", name="By points").click()
    enter_points(phone, {"Ana": 65, "Ben": 5, "Cy": 0, "Dee": 0})
    phone.get_by_role("button", name="Switch the sign of Ben's points").click()
    expect(phone.get_by_role("textbox", name="Ben", exact=True)).to_have_value("-5")
    record(phone, 3)
    expect(phone.get_by_text("Did Ana take all 16 black cards?")).to_be_visible()
    phone.get_by_role("button", name=re.compile("^Yes: 0 for Ana")).click()
    expect(phone.locator(".messages")).to_contain_text("Ana took all 16 black cards")
    assert standings(phone) == {"Ana": 45, "Ben": 88, "Cy": 75, "Dee": 92}

    # undo it: its numbers come back in the form, as typed, and it is recorded again as they stand
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Undo deal 3").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 3 undone: its numbers are back in the form")
    assert standings(phone) == {"Cy": 15, "Ben": 28, "Dee": 32, "Ana": 45}
    for name, typed in {"Ana": "65", "Ben": "-5", "Cy": "0", "Dee": "0"}.items():
        expect(phone.get_by_role("textbox", name=name, exact=True)).to_have_value(typed)
    expect(phone.locator(".deal-form .sum")).to_contain_text("Sum: 60 of 60")
    record(phone, 3)
    phone.get_by_role("button", name=re.compile("^Yes: 0 for Ana")).click()
    expect(phone.locator(".messages")).to_contain_text("Deal 3 recorded.")

    enter_points(phone, {"Ana": 0, "Ben": 20, "Cy": 20, "Dee": 20})
    record(phone, 4)
    expect(phone.locator(".messages")).to_contain_text("Deal 4 recorded.")
    enter_points(phone, {"Ana": 0, "Ben": 45, "Cy": 15, "Dee": 0})
    record(phone, 5)
    expect(phone.get_by_role("heading", name="Game over")).to_be_visible()
    expect(phone.locator(".banner .winner")).to_have_text(re.compile(r"Ana\s+wins with 45 points"))
    expect(phone.get_by_role("button", name=re.compile("^Record deal"))).to_have_count(0)
    assert standings(phone) == {"Ana": 45, "Ben": 153, "Cy": 110, "Dee": 112}


def test_the_same_submission_sent_twice_is_stored_once(phone: Page, server: Server) -> None:
    url = new_game(phone, server.url)
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    statuses = phone.evaluate(
        """async () => {
            const form = document.querySelector("form.deal-form");
            const send = () => fetch(form.action, {method: "POST", body: new FormData(form)})
                .then(async (r) => [r.status, await r.text()]);
            return [await send(), await send()];
        }"""
    )
    # fetch follows each 303 to the game page, which shows what happened
    (first_status, first_page), (second_status, second_page) = statuses
    assert (first_status, second_status) == (200, 200)
    assert "Deal 1 recorded." in first_page
    assert "This deal was already recorded; it is counted once." in second_page
    phone.goto(url)
    expect(phone.locator(".deals tbody tr")).to_have_count(1)


def looked_at_again(page: Page) -> None:
    """The phone's screen comes back on (or the tab is shown again): its page checks for news."""
    page.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")


def test_a_friend_on_the_same_game_page_is_told_when_another_phone_records_and_can_show_it(
    browser: Browser, server: Server
) -> None:
    scorer_context, friend_context = phone_context(browser), phone_context(browser)
    scorer, friend = scorer_context.new_page(), friend_context.new_page()
    url = new_game(scorer, server.url)
    friend.goto(url)
    notice = friend.locator("[data-changed-elsewhere]")
    looked_at_again(friend)
    friend.wait_for_timeout(500)  # the look's answer: unchanged, nothing to say
    expect(notice).to_be_hidden()
    enter_points(scorer, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    scorer.get_by_role("button", name="Record deal 1").click()
    expect(scorer.locator(".messages")).to_contain_text("Deal 1 recorded.")
    # the phone that recorded it is not told of its own deal
    looked_at_again(scorer)
    scorer.wait_for_timeout(500)
    expect(scorer.locator("[data-changed-elsewhere]")).to_be_hidden()
    # the friend's page is not swapped unasked: it may be typing; it is told, and shows it on a tap
    looked_at_again(friend)
    expect(notice).to_contain_text("Another phone changed this game.")
    expect(friend.get_by_role("button", name="Record deal 1")).to_be_visible()
    notice.get_by_role("link", name="Show it as it is now").click()
    expect(friend.get_by_role("button", name="Record deal 2")).to_be_visible()
    expect(notice).to_be_hidden()
    scorer_context.close()
    friend_context.close()


def test_a_double_tap_on_record_records_the_deal_once_and_keeps_its_news(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    posts: list[str] = []
    phone.on("request", lambda request: posts.append(request.url) if request.method == "POST" else None)
    enter_points(phone, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    # the finger's second tap lands on the next deal's Record button the moment it is swapped in
    phone.evaluate("""() => document.addEventListener("htmx:afterSwap", () => {
      setTimeout(() => document.querySelector("form.deal-form button.big").click(), 50);
    }, {once: true})""")
    phone.get_by_role("button", name="Record deal 1").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    phone.wait_for_timeout(300)
    expect(phone.locator(".messages")).to_contain_text("Deal 1 recorded.")
    expect(phone.locator("form.deal-form .error")).to_have_count(0)
    assert len(posts) == 1
    # a deal typed and sent straight after is sent: typing shows the table meant it
    enter_points(phone, {"Ana": 0, "Ben": 25, "Cy": 15, "Dee": 20})
    phone.get_by_role("button", name="Record deal 2").click()
    expect(phone.locator(".messages")).to_contain_text("Deal 2 recorded.")


def test_the_sign_key_tapped_before_the_number_keeps_the_minus(phone: Page, server: Server) -> None:
    new_game(phone, server.url)
    phone.get_by_role("button", name="Switch the sign of Ben's points").click()
    phone.keyboard.type("5")
    expect(phone.get_by_role("textbox", name="Ben", exact=True)).to_have_value("-5")


def test_a_change_says_whether_it_came_from_this_phone_or_another(browser: Browser, server: Server) -> None:
    scorer_context, friend_context = phone_context(browser), phone_context(browser)
    scorer, friend = scorer_context.new_page(), friend_context.new_page()
    url = new_game(scorer, server.url)
    enter_points(scorer, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    record(scorer, 1)
    expect(scorer.locator(".messages")).to_contain_text("Deal 1 recorded.")
    scorer.once("dialog", lambda dialog: dialog.accept())
    scorer.get_by_role("button", name="Undo it").click()
    change = scorer.locator("#changes li").first
    # swapped in with the undo's answer, and said as the table says it: no code to puzzle over
    expect(change).to_contain_text("Deal 1 undone at")
    expect(change).to_contain_text("from this phone")
    assert not re.search(r"\b[0-9a-f]{8}\b", change.inner_text())
    # the same list on another phone, and on a reload of the first
    friend.goto(url)
    expect(friend.locator("#changes li").first).to_contain_text("from another phone")
    scorer.reload()
    expect(scorer.locator("#changes li").first).to_contain_text("from this phone")
    scorer_context.close()
    friend_context.close()
