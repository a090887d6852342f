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
