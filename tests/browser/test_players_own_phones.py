"""Four players, each on their own phone, enter their own share of each deal; the scorer's
phone and the table display follow. Three deals: one by points, one counted by cards with
a recount, one sent while a phone had no connection."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from companion.web.seats import POLL_SECONDS
from tests.browser.browsing import Server, new_game, phone_context
from tests.servers import Phone

NAMES = ("Ana", "Ben", "Cy", "Dee")


def send_points(page: Page, points: int) -> None:
    page.get_by_label("Your points in deal").fill(str(points))
    page.get_by_role("button", name="Send my share").click()


def seat_links(scorer: Page) -> list[str]:
    """The scorer opens "Players' phones" on the game page: each seat's link, in seat order."""
    scorer.get_by_role("link", name="Players' phones").click()
    return [scorer.locator(f"a[data-seat='{seat}']").get_attribute("href") or "" for seat in range(len(NAMES))]


def exported_deals(game_url: str) -> list[dict]:
    with urllib.request.urlopen(f"{game_url}/export.json", timeout=10) as answer:
        return json.load(answer)["games"][0]["deals"]


def test_four_players_score_three_deals_from_their_own_phones(browser: Browser, server: Server) -> None:
    scorer_context = phone_context(browser)
    scorer = scorer_context.new_page()
    game = new_game(scorer, server.url, NAMES)
    links = seat_links(scorer)
    contexts = [phone_context(browser, color_scheme="dark" if seat % 2 else "light") for seat in range(4)]
    phones = [context.new_page() for context in contexts]
    for phone, link in zip(phones, links, strict=True):
        phone.goto(link)
        expect(phone.get_by_role("heading", name="Deal 1: Ana deals")).to_be_visible()

    # deal 1, by points: each phone its own share; the last one in records the deal
    for phone, points in zip(phones[:3], (20, 15, 25), strict=True):
        send_points(phone, points)
        expect(phone.locator(".messages").first).to_contain_text("Waiting for the others")
    expect(phones[1].locator(".shares")).to_contain_text("Ana 20")
    send_points(phones[3], 0)
    expect(phones[3].locator(".messages").first).to_contain_text("Every share is in: deal 1 is recorded.")
    # the other phones move on by themselves (their poll), and so does the table display
    expect(phones[0].get_by_role("heading", name="Deal 2: Ben deals")).to_be_visible(timeout=10_000)
    expect(phones[0].locator(".my-total")).to_contain_text("Your total: 20, place 3 of 4.")
    assert [deal["raw"] for deal in exported_deals(game)] == [dict(zip(NAMES, (20, 15, 25, 0), strict=True))]

    # deal 2, counted by cards: Dee counts one Black Spy too many, the table recounts
    counts = [
        {"black_spies": 4, "low_blacks": 1, "highs": (8, 9)},
        {"black_spies": 2, "low_blacks": 4, "highs": (10,)},
        {"black_spies": 0, "low_blacks": 1, "coloured_spies": 3, "highs": (11,)},
        {"black_spies": 1, "low_blacks": 0, "coloured_spies": 1, "highs": ()},
    ]
    for seat, (phone, count) in enumerate(zip(phones, counts, strict=True)):
        phone.get_by_role("link", name="Count my cards instead").click()
        for key in ("black_spies", "low_blacks", "coloured_spies"):
            phone.locator(f"#{key}-{seat}").fill(str(count.get(key, 0)))
        for card in count["highs"]:
            phone.get_by_label(f"Black {card}", exact=True).check()
        phone.get_by_role("button", name="Send my share").click()
        expect(phone.locator(".messages").first).to_be_visible()
    for page in (phones[0], phones[3]):
        expect(page.locator(".shares")).to_contain_text("The deck has 6 Black Spies; these counts add up to 7.")
        expect(page.locator(".shares")).to_contain_text("The table must recount")
    scorer.goto(game)
    expect(scorer.locator(".shares")).to_contain_text("The table must recount")
    assert len(exported_deals(game)) == 1
    phones[3].locator("#black_spies-3").fill("0")
    phones[3].get_by_role("button", name="Send my share").click()
    expect(phones[3].locator(".messages").first).to_contain_text("deal 2 is recorded")
    (_, second) = exported_deals(game)
    assert second["cards"]["Ana"]["high_blacks"] == [8, 9]

    # deal 3: Cy's phone has no connection when she sends hers; it goes once it is back
    for phone in phones:
        phone.goto(phone.url.split("?")[0])
    for phone, points in zip(phones[:2], (10, 10), strict=True):
        send_points(phone, points)
    send_points(phones[3], 30)
    contexts[2].set_offline(True)
    send_points(phones[2], 10)
    expect(phones[2].locator(".seat-status")).to_contain_text("saved on this phone")
    assert len(exported_deals(game)) == 2
    contexts[2].set_offline(False)
    expect(phones[2].locator(".seat-status")).to_contain_text("was sent", timeout=15_000)
    expect(phones[0].get_by_role("heading", name="Deal 4: Dee deals")).to_be_visible(timeout=10_000)
    deals = exported_deals(game)
    assert len(deals) == 3
    assert deals[2]["raw"] == dict(zip(NAMES, (10, 10, 10, 30), strict=True))

    # the table display shows the standings read from across the table, and the last deal
    display = browser.new_page(viewport={"width": 1280, "height": 720})
    display.goto(scorer.locator("a[href*='/watch/']").first.get_attribute("href") or "")
    display.get_by_role("link", name="Table display").click()
    # measured once its stylesheet is in: the rows are there before it, at the browser's own sizes
    display.wait_for_url("**/table", wait_until="load")
    rows = display.locator(".table-standings li")
    expect(rows).to_have_count(4)
    assert all(rows.nth(row).bounding_box()["height"] >= 72 for row in range(4))  # type: ignore[index]
    expect(display.locator(".last-deal")).to_contain_text("Dee")
    display.close()
    for context in (*contexts, scorer_context):
        context.close()


def send_from_a_phone(server: Server, link: str, points: int) -> None:
    """A player's phone, as plain HTTP: its seat page, then its share."""
    phone = Phone(server.url)
    page = phone.get(link.split(server.url, 1)[-1])
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page))
    status, _, _ = phone.post(link.split(server.url, 1)[-1], {**fields, "points": str(points)})
    assert status == 303


def scorer_with_seat_links(browser: Browser, server: Server) -> tuple[BrowserContext, Page, str, list[str]]:
    """The scorer's phone on a new game whose seat links are out: its context, page, the game, the links."""
    context = phone_context(browser)
    scorer = context.new_page()
    game = new_game(scorer, server.url, NAMES)
    links = seat_links(scorer)
    scorer.goto(game)
    return context, scorer, game, links


def test_the_scorers_page_follows_the_shares_and_moves_on_when_the_deal_records_itself(browser: Browser, server: Server) -> None:
    context, scorer, game, links = scorer_with_seat_links(browser, server)
    for seat, points in enumerate((20, 15, 25)):
        send_from_a_phone(server, links[seat], points)
    # the scorer's page, untouched, shows who has sent theirs, then the next deal by itself
    expect(scorer.locator(".shares")).to_contain_text("3 of 4 in for deal 1", timeout=10_000)
    expect(scorer.locator(".shares")).to_contain_text("Cy 25")
    send_from_a_phone(server, links[3], 0)
    expect(scorer.get_by_role("heading", name="Deal 2: Ben deals")).to_be_visible(timeout=10_000)
    expect(scorer.locator("#standings")).to_contain_text("20")
    expect(scorer.locator("#game-now .messages")).to_have_text("Recorded meanwhile: deal 1.")
    # a scorer who has started typing the next deal keeps it, and is told instead
    scorer.get_by_role("textbox", name="Ana", exact=True).fill("30")
    for seat, points in enumerate((10, 10, 10, 30)):
        send_from_a_phone(server, links[seat], points)
    expect(scorer.locator("[data-changed-elsewhere]")).to_be_visible(timeout=10_000)
    expect(scorer.locator("#game-now .messages")).to_have_text("Recorded meanwhile: deal 2.")
    expect(scorer.get_by_role("textbox", name="Ana", exact=True)).to_have_value("30")
    expect(scorer.get_by_role("heading", name="Deal 2: Ben deals")).to_be_visible()
    # nor does one who starts typing while the game it was sent for is on its way
    scorer.goto(game)
    held: list[Route] = []
    # a function of our own: Playwright marks the handler it is given, which a bound builtin refuses
    scorer.route(game, lambda route: held.append(route))  # noqa: PLW0108
    for seat, points in enumerate((15, 15, 15, 15)):
        send_from_a_phone(server, links[seat], points)
    for _ in range(400):
        if held:
            break
        scorer.wait_for_timeout(50)
    assert held, "the scorer's page did not ask for the game once the deal recorded itself"
    scorer.get_by_role("textbox", name="Ben", exact=True).fill("12")
    held[0].continue_()
    expect(scorer.locator("[data-changed-elsewhere]")).to_be_visible()
    expect(scorer.get_by_role("textbox", name="Ben", exact=True)).to_have_value("12")
    expect(scorer.get_by_role("heading", name="Deal 3: Cy deals")).to_be_visible()
    context.close()


def test_a_share_sent_from_a_players_phone_is_no_change_to_the_scorers_page(browser: Browser, server: Server) -> None:
    context, scorer, game, links = scorer_with_seat_links(browser, server)
    scorer.get_by_role("textbox", name="Ana", exact=True).fill("20")
    send_from_a_phone(server, links[1], 15)
    expect(scorer.locator(".shares")).to_contain_text("Ben 15", timeout=10_000)
    # the screen comes back on: the page asks whether the game moved on, and is answered
    # with the game's new version (the share is on every page), yet nothing was recorded
    with scorer.expect_response(lambda answer: answer.url == game and answer.status == 200):
        scorer.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    scorer.wait_for_timeout(300)
    expect(scorer.locator("[data-changed-elsewhere]")).to_be_hidden()
    expect(scorer.get_by_role("textbox", name="Ana", exact=True)).to_have_value("20")
    # a deal recorded from another phone is a change, and is said
    other, path = Phone(server.url), game.split(server.url, 1)[-1]
    points = {f"points-{seat}": str(points) for seat, points in enumerate((20, 15, 25, 0))}
    status, _, _ = other.post(path + "/deals", {"csrf_token": other.token(path), "mode": "points", **points})
    assert status == 303
    scorer.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    expect(scorer.locator("[data-changed-elsewhere]")).to_be_visible()
    context.close()


def test_the_scorers_page_asks_for_the_shares_only_while_the_phone_is_online(browser: Browser, server: Server) -> None:
    context, scorer, _, links = scorer_with_seat_links(browser, server)
    send_from_a_phone(server, links[0], 20)
    expect(scorer.locator(".shares")).to_contain_text("Ana 20", timeout=10_000)
    asks: list[str] = []
    scorer.on("request", lambda request: asks.append(request.url) if "/shares" in request.url else None)
    errors: list[str] = []
    scorer.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    context.set_offline(True)
    scorer.wait_for_timeout(POLL_SECONDS * 1500)  # the page would have asked once
    assert asks == [], "the page asked for the shares with no connection"
    context.set_offline(False)
    with scorer.expect_request(lambda request: "/shares" in request.url, timeout=POLL_SECONDS * 2000):
        pass
    send_from_a_phone(server, links[1], 15)
    expect(scorer.locator(".shares")).to_contain_text("Ben 15", timeout=10_000)
    assert not [error for error in errors if "evalDisallowed" in error], errors
    context.close()


def test_a_players_phone_open_while_the_game_is_deleted_and_restored_says_so_and_comes_back(
    browser: Browser, server: Server
) -> None:
    context, scorer, game, links = scorer_with_seat_links(browser, server)
    player_context = phone_context(browser)
    player = player_context.new_page()
    player.goto(links[0])
    game_id = game.rsplit("/", 1)[1]
    other = Phone(server.url)
    status, _, _ = other.post(f"/games/{game_id}/delete", {"csrf_token": other.token(f"/games/{game_id}/delete")})
    assert status == 303
    notice = player.locator("#busy")
    expect(notice).to_have_text(re.compile("This game was deleted"), timeout=POLL_SECONDS * 2000)
    status, _, _ = other.post(f"/deleted/{game_id}/restore", {"csrf_token": other.token("/deleted")})
    assert status == 303
    # the next ask is answered by the server, not by the phone's copy of "deleted"
    expect(notice).to_be_hidden(timeout=POLL_SECONDS * 2000)
    send_points(player, 20)
    expect(scorer.locator(".shares")).to_contain_text("Ana 20", timeout=10_000)
    player_context.close()
    context.close()


def test_a_players_page_moved_on_by_another_phones_share_says_the_deal_was_recorded(browser: Browser, server: Server) -> None:
    context, _, _, links = scorer_with_seat_links(browser, server)
    player_context = phone_context(browser)
    ana = player_context.new_page()
    ana.goto(links[0])
    send_points(ana, 20)
    expect(ana.locator(".shares")).to_contain_text("1 of 4 in for deal 1")
    for seat, points in ((1, 15), (2, 25), (3, 0)):
        send_from_a_phone(server, links[seat], points)
    # Dee's share recorded deal 1: Ana's page, asking by itself, moves on and says why
    expect(ana.get_by_text("Your share of deal 2")).to_be_visible(timeout=POLL_SECONDS * 2000)
    expect(ana.locator(".seat-status")).to_have_text("Recorded meanwhile: deal 1.")
    player_context.close()
    context.close()


def test_what_a_player_types_while_their_pages_ask_is_on_its_way_is_kept(browser: Browser, server: Server) -> None:
    """The page's own ask never leaves while the player types; one that left just before
    they began brings an answer that would put the form back as the server had it."""
    context, _, _, links = scorer_with_seat_links(browser, server)
    player_context = phone_context(browser)
    dee = player_context.new_page()
    dee.goto(links[3])
    expect(dee.get_by_text("Your share of deal 1")).to_be_visible()
    asked: list[str] = []

    def slowly(route: Route) -> None:
        asked.append(route.request.url)
        dee.wait_for_timeout(1500)
        route.continue_()

    dee.route(links[3], lambda route: slowly(route) if route.request.method == "GET" else route.continue_())
    send_from_a_phone(server, links[0], 20)  # the game changed: the next ask brings it
    dee.wait_for_function("() => document.querySelector('#seat.htmx-request') !== null", timeout=POLL_SECONDS * 2000)
    box = dee.get_by_label("Your points in deal")
    box.fill("42")
    dee.wait_for_function("() => !document.querySelector('.htmx-request')", timeout=10_000)
    dee.wait_for_timeout(200)
    assert asked
    expect(box).to_have_value("42")
    # and once sent, the share counts, with Ana's
    dee.unroute(links[3])
    dee.get_by_role("button", name="Send my share").click()
    expect(dee.locator(".shares")).to_contain_text("2 of 4 in for deal 1")
    player_context.close()
    context.close()


def test_new_links_are_asked_for_twice_and_then_shown_to_hand_out(phone: Page, server: Server) -> None:
    game = new_game(phone, server.url)
    phone.goto(f"{game}/phones")
    links = phone.locator("a[data-seat]")
    old = links.all_inner_texts()
    # a tap by mistake, taken back: every player's link still works
    phone.once("dialog", lambda dialog: dialog.dismiss())
    phone.get_by_role("button", name="Make new links").click()
    expect(links).to_have_text(old)
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.get_by_role("button", name="Make new links").click()
    expect(phone.get_by_text("New links made: the old ones open nothing now.")).to_be_visible()
    expect(links).to_have_count(len(old))
    assert set(links.all_inner_texts()).isdisjoint(old)
