"""Playing on when the Wi-Fi drops: deals and turns kept on the phone, sent once when it is back."""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.browser.browsing import Server, enter_counts, enter_points, new_game, phone_context, under_the_worker
from tests.browser.test_spy_on_a_phone import BEN, answer, new_spy_game, tap

DEALS = [
    {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0},
    {"Ana": 10, "Ben": 30, "Cy": 0, "Dee": 20},
    {"Ana": 5, "Ben": 5, "Cy": 45, "Dee": 5},
    {"Ana": 0, "Ben": 0, "Cy": 30, "Dee": 30},
    {"Ana": 40, "Ben": 10, "Cy": 10, "Dee": 0},
]


def exported(game: str) -> dict:
    with urllib.request.urlopen(f"{game}/export.json") as response:
        return json.load(response)["games"][0]


def stored(server: Server, game: str) -> list[dict[str, int]]:
    """The deals the server holds for ``game``, in order, as its export file has them."""
    return [deal.get("raw") or deal.get("cards") for deal in exported(game)["deals"]]


def record(page: Page, number: int, points: dict[str, int | str]) -> None:
    enter_points(page, points)
    page.get_by_role("button", name=f"Record deal {number}").click()


def status(page: Page):
    return page.locator(".offline-status")


def controlled(page: Page, url: str) -> None:
    """Open ``url`` through the service worker, which keeps a copy of it for a reload offline."""
    under_the_worker(page)
    page.goto(url)


def test_three_deals_recorded_offline_with_a_reload_between_are_stored_once_each_in_order(
    browser: Browser, own_server: Server
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, own_server.url)
    controlled(page, game)
    context.set_offline(True)
    record(page, 1, DEALS[0])
    expect(status(page)).to_contain_text("Deal 1 is saved on this phone and will be sent when the connection is back.")
    expect(status(page)).to_contain_text("1 deal is waiting to be sent.")
    # the deal card moves on, as the rules have it, and the form is clear for the next deal
    expect(page.locator("#next-deal-title")).to_have_text("Deal 2: Ben deals")
    expect(page.locator(".deal-card .pass")).to_contain_text("Pass 3 cards right")
    expect(page.get_by_role("textbox", name="Ana", exact=True)).to_have_value("")
    record(page, 2, DEALS[1])
    expect(status(page)).to_contain_text("2 deals are waiting to be sent.")
    page.reload()
    # from when: the time its server sent it, as the reader's language writes a date
    copy = page.locator(".offline-copy")
    expect(copy).to_contain_text("This page is a copy kept on this phone from")
    kept = datetime.fromisoformat(copy.get_attribute("data-kept").replace("Z", "+00:00"))
    assert abs((datetime.now(UTC) - kept).total_seconds()) < 120
    expect(copy).to_contain_text(f"{kept.year}")
    expect(page.locator("#next-deal-title")).to_have_text("Deal 3: Cy deals")
    expect(page.locator(".deals tr.offline-row")).to_have_count(2)
    expect(page.locator(".deals tr.offline-row").first).to_contain_text("waiting")
    expect(page.locator(".as-of")).to_be_visible()
    record(page, 3, DEALS[2])
    expect(status(page)).to_contain_text("3 deals are waiting to be sent.")
    assert stored(own_server, game) == []
    # the table has started on deal 4 when the connection comes back
    page.get_by_role("textbox", name="Ana", exact=True).fill("35")
    context.set_offline(False)
    expect(status(page)).to_contain_text("3 deals saved on this phone are now recorded.")
    expect(page.locator(".deals tr.offline-row")).to_have_count(0)
    expect(page.locator(".deals tbody tr")).to_have_count(3)
    expect(page.locator("#next-deal-title")).to_have_text("Deal 4: Dee deals")
    expect(page.get_by_role("textbox", name="Ana", exact=True)).to_have_value("35")
    assert stored(own_server, game) == DEALS[:3]
    context.close()


def beaten_while_offline(
    browser: Browser, server: Server, theirs: dict[str, int | str]
) -> tuple[BrowserContext, Page, BrowserContext, str]:
    """A phone records deal 1 (``DEALS[0]``) offline while a second phone records ``theirs``
    as deal 1; then the first is back online. Its context and page, the second's context, the game."""
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    other = phone_context(browser)
    second = other.new_page()
    second.goto(game)
    context.set_offline(True)
    record(page, 1, DEALS[0])
    expect(status(page)).to_contain_text("Deal 1 is saved on this phone")
    record(second, 1, theirs)
    expect(second.locator(".messages")).to_contain_text("Deal 1 recorded.")
    context.set_offline(False)
    return context, page, other, game


def test_a_deal_another_phone_recorded_with_the_same_points_is_refused_with_no_second_recording_offered(
    browser: Browser, server: Server
) -> None:
    context, page, other, game = beaten_while_offline(browser, server, DEALS[0])
    refused = page.locator(".offline-refused")
    expect(refused).to_contain_text(
        "Deal 1, saved on this phone, was not recorded: Deal 1 was just recorded from another phone with the same points "
        "as yours: it counts once."
    )
    # the same deal: nothing offers to record it again as deal 2, and nothing says it still waits
    expect(refused.get_by_role("button", name="Record them as deal 2")).to_have_count(0)
    expect(status(page)).not_to_contain_text("is saved on this phone")
    expect(page.locator("#standings .as-of")).to_be_hidden()
    refused.get_by_role("button", name="Discard these numbers").click()
    expect(page.locator(".offline-refused")).to_have_count(0)
    expect(page.get_by_role("button", name="Record deal 2")).to_be_visible()
    assert stored(server, game) == [DEALS[0]]
    context.close()
    other.close()


def test_a_deal_another_phone_recorded_meanwhile_is_shown_refused_with_the_reason_and_its_numbers(
    browser: Browser, server: Server
) -> None:
    context, page, other, game = beaten_while_offline(browser, server, DEALS[1])
    refused = page.locator(".offline-refused")
    expect(refused).to_contain_text(
        "Deal 1, saved on this phone, was not recorded: Deal 1 was just recorded from another phone, so yours was not."
    )
    expect(refused).to_contain_text("The numbers typed: Ana\u00a020, Ben\u00a015, Cy\u00a025, and Dee\u00a00.")
    expect(page.locator(".deals tr.offline-row")).to_have_text(re.compile(r"1\s*not recorded\s*20\s*15\s*25\s*0"))
    # the other phone's deal is the one shown as recorded, and the only one stored
    expect(page.locator(".deals tbody tr:not(.offline-row)")).to_have_count(1)
    assert stored(server, game) == [DEALS[1]]
    # they were a new deal after all: one tap records them as the next one
    page.get_by_role("button", name="Record them as deal 2").click()
    expect(status(page)).to_contain_text("1 deal saved on this phone is now recorded.")
    expect(page.locator(".offline-refused")).to_have_count(0)
    expect(page.locator(".deals tbody tr")).to_have_count(2)
    assert stored(server, game) == [DEALS[1], DEALS[0]]
    other.close()
    context.close()


def test_a_refused_deal_is_discarded_by_a_tap_and_nothing_is_stored_twice(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    other = phone_context(browser)
    second = other.new_page()
    second.goto(game)
    context.set_offline(True)
    record(page, 1, DEALS[0])
    expect(status(page)).to_contain_text("1 deal is waiting to be sent.")
    record(page, 2, DEALS[1])
    expect(status(page)).to_contain_text("2 deals are waiting to be sent.")
    # the other phone recorded the same two deals
    record(second, 1, DEALS[0])
    expect(second.locator(".messages")).to_contain_text("Deal 1 recorded.")
    record(second, 2, DEALS[1])
    expect(second.locator(".messages")).to_contain_text("Deal 2 recorded.")
    context.set_offline(False)
    expect(page.locator(".offline-refused")).to_contain_text("Deal 1, saved on this phone, was not recorded")
    # the deal after the refused one waits until the table says what the refused one was
    expect(page.locator(".offline-refused")).to_contain_text("The deals after it wait until it is recorded again or discarded.")
    page.get_by_role("button", name="Discard these numbers").click()
    expect(page.locator(".offline-refused")).to_contain_text("Deal 2, saved on this phone, was not recorded")
    page.get_by_role("button", name="Discard these numbers").click()
    expect(page.locator(".offline-status")).to_be_hidden()
    expect(page.locator(".deals tr.offline-row")).to_have_count(0)
    expect(page.locator("#next-deal-title")).to_have_text("Deal 3: Cy deals")
    assert stored(server, game) == DEALS[:2]
    assert page.evaluate("() => companionQueue.all().then((list) => list.length)") == 0
    other.close()
    context.close()


def test_a_server_killed_while_a_queue_of_five_is_sent_stores_each_once_when_it_is_started_again(
    browser: Browser, own_server: Server
) -> None:
    # no service worker (a phone at a plain-http address): the queue lives in the page's
    # script and IndexedDB alone, brought in once the table started playing
    context = phone_context(browser, service_workers="block")
    page = context.new_page()
    game = new_game(page, own_server.url)
    first = {"Ana": 15, "Ben": 15, "Cy": 15, "Dee": 15}
    record(page, 1, first)
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    context.set_offline(True)
    for number, points in enumerate(DEALS, start=2):
        record(page, number, points)
        expect(status(page)).to_contain_text(f"Deal {number} is saved on this phone")
        # the server's last news is not left above it, as if deal 1 were the latest
        expect(page.get_by_text("Deal 1 recorded.")).to_be_hidden()
    expect(status(page)).to_contain_text("5 deals are waiting to be sent.")
    sent: list[str] = []

    def third_stored_then_the_server_killed(route: Route) -> None:
        sent.append(route.request.post_data or "")
        if len(sent) != 3:
            route.continue_()
            return
        # deal 4 reaches the server and is stored; the server dies before its answer is back
        route.fetch()
        own_server.kill()
        route.abort("connectionreset")

    page.route("**/deals", third_stored_then_the_server_killed)
    context.set_offline(False)
    expect(status(page)).to_contain_text("3 deals are waiting to be sent.")
    assert own_server.process is not None and own_server.process.poll() is not None
    own_server.start()
    # tried again after a growing pause, deal 4 among them: the server knows its submission
    expect(status(page)).to_contain_text("3 deals saved on this phone are now recorded.", timeout=30_000)
    assert stored(own_server, game) == [first, *DEALS]
    numbers = [re.search(r"(?:^|&)number=(\d+)", body).group(1) for body in sent]
    # in order; deal 4 again (once, or more while the server was down), then the rest
    assert numbers[:3] == ["2", "3", "4"] and numbers[-2:] == ["5", "6"]
    assert set(numbers[3:-2]) == {"4"}
    expect(page.locator(".deals tbody tr")).to_have_count(6)
    context.close()


def test_a_spy_turn_recorded_offline_arrives_once(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_spy_game(page, server.url, ("Ana", "Ben"), first_player=0)
    tap(page, BEN, 3)
    context.set_offline(True)
    answer(page, "A Safe that is not the target")
    page.get_by_role("button", name="Record the turn", exact=True).click()
    expect(status(page)).to_contain_text("Turn 1 is saved on this phone and will be sent when the connection is back.")
    # the bases move on with the turn, which only the server works out
    expect(status(page)).to_contain_text("the next turn can be recorded once it is sent")
    expect(page.get_by_role("button", name="Record the turn", exact=True)).to_be_disabled()
    assert exported(game)["turns"] == []
    context.set_offline(False)
    expect(status(page)).to_contain_text("The turn saved on this phone is now recorded.")
    expect(page.locator("#turn-title")).to_have_text("Turn 2: Ben's turn")
    assert exported(game)["turns"] == [{"player": "Ana", "spy": {"target": "Ben", "slot": 3, "answer": "safe"}}]
    context.close()


@pytest.fixture(scope="module")
def untouched(browser: Browser, server: Server) -> str:
    """A game with no deal, that the refusals below leave as it is."""
    context = phone_context(browser)
    game = new_game(context.new_page(), server.url)
    context.close()
    return game


def refusal(page: Page, fill: Callable[[Page], None]) -> list[str]:
    fill(page)
    page.locator("form.deal-form button.big").click()
    expect(page.locator("form.deal-form .error").first).to_be_visible()
    return page.locator("form.deal-form .error").all_inner_texts()


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "points",
    [
        {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 1},
        {"Ana": 100, "Ben": 15, "Cy": 25, "Dee": 0},
        {"Ana": 20, "Ben": "1x", "Cy": "", "Dee": 0},
        {"Ana": 0, "Ben": 60, "Cy": 60, "Dee": 60},
    ],
    ids=["short of the total", "more than a deal gives", "unreadable and blank", "a shoot typed as its scores"],
)
def test_a_deal_the_rules_refuse_is_refused_offline_in_the_words_used_online(
    browser: Browser, untouched: str, language: str, points: dict[str, int | str]
) -> None:
    context = phone_context(browser, locale=language)
    page = context.new_page()
    page.goto(untouched)
    online = refusal(page, lambda page: enter_points(page, points))
    page.goto(untouched)
    context.set_offline(True)
    assert refusal(page, lambda page: enter_points(page, points)) == online
    expect(page.locator(".offline-status")).to_be_hidden()
    assert page.evaluate("() => companionQueue.all().then((list) => list.length)") == 0
    context.close()


def too_many_black_spies(page: Page) -> None:
    page.locator("tr[data-seat='3'] label.tap").click()
    page.locator("#black_spies-0").fill("4")
    page.locator("#black_spies-1").fill("3")
    page.locator("#black_spies-2").fill("0")


def every_count_typed_but_short(page: Page) -> None:
    page.locator("label.dealer-pick").click()
    page.locator("#black_spies-0").fill("5")
    page.locator("#low_blacks-2").fill("9")
    page.locator("#black_spies-1").fill("0")
    page.locator("#black_spies-3").fill("0")
    page.locator("fieldset[data-high='8'] label.chip", has_text="Ana").click()


def a_row_left_blank(page: Page) -> None:
    """Ana's and Ben's cards typed, Cy's row skipped: blank, Cy's cards would go to the rest."""
    page.locator("tr[data-seat='3'] label.tap").click()
    page.locator("#black_spies-0").fill("2")
    page.locator("#low_blacks-1").fill("3")


def a_chip_beside_blank_boxes(page: Page) -> None:
    """Cy's black 9 tapped, Cy's boxes left blank: Cy's other cards would go to the rest."""
    page.locator("tr[data-seat='3'] label.tap").click()
    page.locator("#black_spies-0").fill("2")
    page.locator("#low_blacks-1").fill("3")
    page.locator("fieldset[data-high='9'] label.chip", has_text="Cy").click()


def nothing_counted(page: Page) -> None:
    """The form as it opens: a tap on Record would give the dealer (the rest) every card."""


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "counts",
    [too_many_black_spies, every_count_typed_but_short, nothing_counted, a_row_left_blank, a_chip_beside_blank_boxes],
    ids=["more than the deck", "short of the deck", "nothing counted", "a row left blank", "a chip beside blank boxes"],
)
def test_cards_the_rules_refuse_are_refused_offline_in_the_words_used_online(
    browser: Browser, untouched: str, language: str, counts: Callable[[Page], None]
) -> None:
    context = phone_context(browser, locale=language)
    page = context.new_page()
    page.goto(f"{untouched}?mode=cards")
    online = refusal(page, counts)
    if counts in (a_row_left_blank, a_chip_beside_blank_boxes) and language == "en":
        assert online == ["Enter the cards Cy took (0 if none)."]
    page.goto(f"{untouched}?mode=cards")
    context.set_offline(True)
    assert refusal(page, counts) == online
    assert page.evaluate("() => companionQueue.all().then((list) => list.length)") == 0
    context.close()


def test_a_score_at_the_shoot_threshold_asks_offline_what_it_asks_online_and_keeps_the_answer(
    browser: Browser, server: Server
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    shoot = {"Ana": 70, "Ben": -5, "Cy": -5, "Dee": 0}
    record(page, 1, shoot)
    question = page.locator("form.deal-form .question")
    online = question.inner_text()
    assert "Did Ana take all 16 black cards?" in online
    page.goto(game)
    context.set_offline(True)
    record(page, 1, shoot)
    expect(question).to_have_text(online, use_inner_text=True)
    expect(page.get_by_role("button", name="Record deal 1")).to_be_hidden()
    page.get_by_role("button", name="Yes: 0 for Ana, 60 for everyone else").click()
    expect(status(page)).to_contain_text("Deal 1 is saved on this phone")
    # the waiting row marks the shoot as the server's row will
    waiting = page.locator(".deals tbody tr.offline-row")
    expect(waiting.locator("td.shooter")).to_have_text("70 shot")
    expect(waiting.locator(".shot")).to_have_attribute("title", "took all 16 black cards")
    context.set_offline(False)
    expect(status(page)).to_contain_text("1 deal saved on this phone is now recorded.")
    assert exported(game)["deals"] == [{"raw": shoot, "shooter": "Ana"}]
    expect(page.locator(".deals tbody tr").first).to_contain_text("shot")
    context.close()


def test_a_deal_counted_by_cards_offline_is_sent_as_counted(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    page.get_by_role("link", name="By cards").click()
    expect(page.locator("#black_spies-0")).to_be_visible()
    context.set_offline(True)
    page.get_by_label("Dee gets the rest").check()
    enter_counts(page)
    for card, name in {8: "Ana", 9: "Ben", 11: "Ana"}.items():
        page.locator(f"fieldset[data-high='{card}'] label.chip", has_text=name).click()
    page.get_by_role("button", name="Record deal 1").click()
    expect(status(page)).to_contain_text("Deal 1 is saved on this phone")
    expect(page.locator(".deals tr.offline-row")).to_have_text(re.compile(r"1\s*waiting\s*25\s*13\s*-10\s*32"))
    # the next deal's counts start empty, the rest going to its dealer
    expect(page.locator("#next-deal-title")).to_have_text("Deal 2: Ben deals")
    expect(page.get_by_label("Ben gets the rest")).to_be_checked()
    expect(page.locator("#black_spies-0")).to_have_value("")
    context.set_offline(False)
    expect(status(page)).to_contain_text("1 deal saved on this phone is now recorded.")
    expect(page.locator(".deals tbody tr").first).to_contain_text("25")
    assert exported(game)["deals"][0]["cards"]["Dee"]["black_spies"] == 3
    context.close()


def test_undo_and_edit_while_offline_say_they_need_the_connection_and_change_nothing(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    record(page, 1, DEALS[0])
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    context.set_offline(True)
    page.get_by_role("button", name="Undo deal 1").click()
    expect(status(page)).to_have_text("Undoing a deal needs the connection; nothing was changed.")
    page.get_by_role("link", name="Edit deal 1").click()
    expect(status(page)).to_have_text("Changing a deal needs the connection; nothing was changed.")
    assert page.url == game
    context.set_offline(False)
    page.get_by_role("link", name="Edit deal 1").click()
    page.wait_for_url("**/deals/1/edit")
    context.set_offline(True)
    page.get_by_role("textbox", name="Ana", exact=True).fill("25")
    page.get_by_role("textbox", name="Dee", exact=True).fill("-5")
    page.get_by_role("button", name="Save deal 1").click()
    expect(page.get_by_role("alert")).to_have_text("Changing a deal needs the connection; nothing was changed.")
    assert page.url.endswith("/deals/1/edit")
    context.set_offline(False)
    assert stored(server, game) == [DEALS[0]]
    context.close()


def until(page: Page, condition: Callable[[], bool], seconds: float = 20) -> None:
    """Wait for what no page shows (the server's deals, the browser's own events), asking again
    every 0.2 s; the page's wait lets Playwright hand over the events meanwhile."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not in time"
        page.wait_for_timeout(200)


def test_with_no_page_open_the_service_worker_sends_what_waits_by_background_sync(browser: Browser, own_server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, own_server.url)
    controlled(page, game)
    context.set_offline(True)
    record(page, 1, DEALS[0])
    expect(status(page)).to_contain_text("1 deal is waiting to be sent.")
    record(page, 2, DEALS[1])
    expect(status(page)).to_contain_text("2 deals are waiting to be sent.")
    # the phone is put away: only its service worker is left to send them
    page.close()
    context.set_offline(False)
    blank = context.new_page()
    cdp = context.new_cdp_session(blank)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: registrations.extend(item["registrationId"] for item in event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    until(blank, lambda: bool(registrations))
    # Chromium fires the sync itself once the network is back; fired again here, so that the
    # test does not hang on when it does, it finds nothing left to send, or sends each deal once
    cdp.send(
        "ServiceWorker.dispatchSyncEvent",
        {"origin": own_server.url, "registrationId": registrations[0], "tag": "companion-queue", "lastChance": False},
    )
    until(blank, lambda: stored(own_server, game) == DEALS[:2])
    blank.goto(game)
    expect(blank.locator(".deals tbody tr")).to_have_count(2)
    expect(blank.locator(".offline-status")).to_be_hidden()
    context.close()


def test_on_a_safari_that_cannot_tell_the_button_a_shoot_answered_offline_keeps_its_answer(
    browser: Browser, server: Server
) -> None:
    # Safari before 15.4 has no SubmitEvent.submitter: the shoot's answer is the button pressed
    context = phone_context(browser)
    context.add_init_script('Object.defineProperty(SubmitEvent.prototype, "submitter", {get() { return undefined; }});')
    page = context.new_page()
    game = new_game(page, server.url)
    page.goto(game)
    context.set_offline(True)
    shoot = {"Ana": 70, "Ben": -5, "Cy": -5, "Dee": 0}
    record(page, 1, shoot)
    page.get_by_role("button", name="Yes: 0 for Ana, 60 for everyone else").click()
    expect(status(page)).to_contain_text("Deal 1 is saved on this phone")
    context.set_offline(False)
    expect(status(page)).to_contain_text("1 deal saved on this phone is now recorded.")
    assert exported(game)["deals"] == [{"raw": shoot, "shooter": "Ana"}]
    context.close()


def test_deals_waiting_that_end_the_game_say_so_before_another_is_played(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    new_game(page, server.url, end_value="50")
    record(page, 1, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    context.set_offline(True)
    ends = page.locator(".next-deal .ends")
    record(page, 2, {"Ana": 0, "Ben": 15, "Cy": 20, "Dee": 25})
    expect(status(page)).to_contain_text("1 deal is waiting to be sent.")
    # Cy's 45 with it is short of 50: nothing said yet
    expect(ends).to_have_count(0)
    record(page, 3, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
    expect(ends).to_have_text(
        "With the deals waiting, a total reaches 50: the game is over once they are sent, and a deal recorded after them will not count."
    )
    context.set_offline(False)
    expect(status(page)).to_contain_text("2 deals saved on this phone are now recorded.")
    expect(page.get_by_role("heading", name="Game over")).to_be_visible()
    expect(ends).to_have_count(0)
    context.close()


def test_while_deals_wait_on_the_phone_the_standings_show_provisional_totals(browser: Browser, server: Server) -> None:
    context = phone_context(browser)
    page = context.new_page()
    game = new_game(page, server.url)
    record(page, 1, DEALS[0])
    expect(page.locator(".messages")).to_contain_text("Deal 1 recorded.")
    context.set_offline(True)
    record(page, 2, DEALS[1])
    expect(status(page)).to_contain_text("1 deal is waiting to be sent.")
    # the recorded totals stay as they are; beside each, the total with the waiting deal, said as such
    ana = page.locator("#standings li[data-seat='0']")
    expect(ana.locator(".total")).to_have_text("20")
    expect(ana.locator(".provisional")).to_have_text("30 with the deals waiting")
    # what is left to the end value, counted from the recorded total, would mislead beside it
    expect(ana.locator(".to-go")).to_be_hidden()
    expect(page.locator("#standings li[data-seat='1'] .provisional")).to_contain_text("45 with the deals waiting")
    # the form beside each name says the same as the standings
    so_far = page.locator(".point-row .so-far")
    expect(so_far.first).to_have_text("30 with the deals waiting")
    expect(so_far.nth(1)).to_have_text("45 with the deals waiting")
    context.set_offline(False)
    expect(status(page)).to_contain_text("1 deal saved on this phone is now recorded.")
    expect(page.locator("#standings .provisional")).to_have_count(0)
    expect(so_far.first).to_have_text("30 so far")
    expect(ana.locator(".total")).to_have_text("30")
    expect(ana.locator(".to-go")).to_have_text("120 to go")
    assert len(exported(game)["deals"]) == 2
    context.close()
