"""The new Spy game's mirror helper names each Spy for its player as the table types the
names, and shows a row for each player named."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.browsing import Server


def test_each_spy_is_named_as_its_player_is_typed_and_unnamed_players_have_no_row(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/new?game=spy")
    phone.get_by_text("Mirror helper (optional)").click()
    expect(phone.locator(".spy-start:visible")).to_have_count(2)
    phone.locator("#spy-player-0").fill("Ana")
    phone.locator("#spy-player-2").fill("Cy")
    expect(phone.locator('[data-spy-of="0"]')).to_have_text("Ana's Spy")
    expect(phone.locator('[data-spy-of="1"]')).to_have_text("Player 2's Spy")
    expect(phone.locator('[data-spy-of="2"]')).to_have_text("Cy's Spy")
    expect(phone.locator(".spy-start:visible")).to_have_count(3)
    phone.locator("#spy-player-2").fill("")
    expect(phone.locator(".spy-start:visible")).to_have_count(2)


def places_offered(phone: Page) -> list[str]:
    return phone.locator("select[name=spy-slot-0] option:not([disabled])").all_inner_texts()


def test_each_spy_is_offered_the_places_of_its_tables_bases_and_placing_one_tracks_the_spies(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/new?game=spy")
    phone.get_by_text("Mirror helper (optional)").click()
    # two players: bases of 8 cards, the Spy one of them
    expect(phone.locator("select[name=spy-slot-0] option:not([disabled])")).to_have_count(8)
    assert places_offered(phone)[-1] == "after card 7"
    phone.locator("select[name=spy-slot-1]").select_option(label="after card 7")
    # three players: bases of 7, so no "after card 7"; a Spy placed there moves to the last place left
    phone.locator("#spy-player-0").fill("Ana")
    phone.locator("#spy-player-1").fill("Ben")
    phone.locator("#spy-player-2").fill("Cy")
    expect(phone.locator("select[name=spy-slot-0] option:not([disabled])")).to_have_count(7)
    assert places_offered(phone)[-1] == "after card 6"
    expect(phone.locator("select[name=spy-slot-1]")).to_have_value("7")
    # the place was set before "Track the Spies" was ticked: it is ticked for it
    expect(phone.get_by_label("Track the Spies")).to_be_checked()


def test_a_blank_seat_between_two_names_is_no_player_so_the_places_stay_a_two_player_tables(phone: Page, server: Server) -> None:
    phone.goto(f"{server.url}/new?game=spy")
    phone.get_by_text("Mirror helper (optional)").click()
    phone.locator("#spy-player-0").fill("Ana")
    phone.locator("#spy-player-2").fill("Cy")
    # three rows show (a row for each seat up to the last named), but the table is two players,
    # as the server will seat it: bases of 8, the Spy before card 1 or after any of 7
    expect(phone.locator(".spy-start:visible")).to_have_count(3)
    expect(phone.locator("select[name=spy-slot-0] option:not([disabled])")).to_have_count(8)
    phone.locator("#spy-player-1").fill("Ben")
    expect(phone.locator("select[name=spy-slot-0] option:not([disabled])")).to_have_count(7)


def test_two_players_named_in_the_first_and_third_rows_play_green_and_red_and_a_third_gets_its_colour_back(
    phone: Page, server: Server
) -> None:
    phone.goto(f"{server.url}/new?game=spy")
    colour = phone.locator("#spy-colour-2")
    expect(colour).to_have_value("blue")
    phone.locator("#spy-player-0").fill("Ana")
    phone.locator("#spy-player-2").fill("Cy")
    # a table of two plays the green and red sets: the third row's blue would be refused
    expect(colour).to_have_value("red")
    phone.locator("#spy-player-1").fill("Ben")
    expect(colour).to_have_value("blue")
    phone.locator("#spy-player-1").fill("")
    expect(colour).to_have_value("red")
    phone.get_by_role("button", name="Start the game").click()
    phone.wait_for_url("**/spy/*")
    expect(phone.locator("main")).to_contain_text("Cy")
