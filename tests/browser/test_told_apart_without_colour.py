"""Players told apart without colour: a colour-blind player reads the chart and the
standings by each player's mark and each line's dash (Chromium's vision-deficiency
emulation, as a screenshot for a person to look at too)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser.browsing import Server, enter_points, new_game


def test_with_no_colour_seen_each_line_and_standing_still_names_its_player(phone: Page, server: Server, tmp_path: Path) -> None:
    new_game(phone, server.url, ("Ana", "Ben", "Al", "Dee"))
    for number, points in enumerate(({"Ana": 20, "Ben": 15, "Al": 25, "Dee": 0}, {"Ana": 10, "Ben": 10, "Al": 10, "Dee": 30}), 1):
        enter_points(phone, points)
        phone.get_by_role("button", name=f"Record deal {number}").click()
        expect(phone.locator(".messages")).to_contain_text(f"Deal {number} recorded.")
    phone.context.new_cdp_session(phone).send("Emulation.setEmulatedVisionDeficiency", {"type": "achromatopsia"})
    phone.locator("#chart").screenshot(path=str(tmp_path / "chart-achromatopsia.png"))
    # each line ends in its player's mark, two letters where one would not tell them apart
    assert phone.locator(".chart .end-mark").all_text_contents() == ["An", "B", "Al", "D"]
    dashes = phone.locator(".chart .line").evaluate_all("lines => lines.map((line) => getComputedStyle(line).strokeDasharray)")
    assert len(set(dashes)) == 4, dashes
    # the standings and the legend show the same marks beside the names
    marks = dict(
        zip(phone.locator("#standings .name").all_inner_texts(), phone.locator("#standings .mark").all_inner_texts(), strict=True)
    )
    assert {name.split("\n")[0].replace(" lowest", "").strip(): mark for name, mark in marks.items()} == {
        "Dee": "D",
        "Ben": "B",
        "Ana": "An",
        "Al": "Al",
    }
    assert phone.locator(".legend .mark").all_inner_texts() == ["An", "B", "Al", "D"]


def test_the_players_table_leaves_its_scroll_shade_in_sight(phone: Page, server: Server) -> None:
    """A table wider than the phone shows a shade where more columns wait: the table's own
    background no longer covers it."""
    new_game(phone, server.url)
    phone.goto(f"{server.url}/players")
    table = phone.locator(".table-scroll > table.standings")
    assert table.evaluate("(table) => getComputedStyle(table).backgroundColor") == "rgba(0, 0, 0, 0)"
    shade = phone.locator(".table-scroll").evaluate("(box) => getComputedStyle(box).backgroundImage")
    assert "radial-gradient" in shade
