"""How many bytes a phone downloads for the home, new-game and game pages.

Starts `companion serve` on loopback with a fresh database, makes a game with a few
deals, then loads each page in Debian's Chromium at phone size, first with an empty
cache and then again, reading the bytes from the browser's own network records
(compressed, headers included), and what a first tap on the page brings after it (htmx
comes with the first touch, static/js/first-touch.js). Each page is measured at the plain address
and at the secure one (the address a phone at the table is meant to use, where the
browser speaks HTTP/2 and sends headers compressed), with the protocol the browser used.
Run by hand:

    .venv/bin/python benchmarks/page_weight.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.serving import tls
from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS, Server, enter_points, free_port, new_game, phone_context, transferred


def main() -> None:
    server = Server(Path(tempfile.mkdtemp()), free_port(), https_port=free_port()).start()
    secure = f"https://localhost:{server.https_port}"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            setup = phone_context(browser)
            page = setup.new_page()
            game = new_game(page, server.url)
            for deal in range(1, 6):
                enter_points(page, {"Ana": 20, "Ben": 15, "Cy": 25, "Dee": 0})
                page.get_by_role("button", name=f"Record deal {deal}").click()
                page.wait_for_selector(f"text=Deal {deal} recorded.")
            setup.close()
            game_path = game.removeprefix(server.url)
            # a phone that trusted the table's certificate: Chromium trusts the server's key
            # (a certificate error would keep it from caching anything, and the repeat load
            # would say nothing)
            material = tls.load(server.folder / "tls")
            assert material is not None, "companion serve made no certificate"
            trusting = playwright.chromium.launch(
                executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, f"--ignore-certificate-errors-spki-list={material.spki_sha256}"]
            )
            print(
                f"{'page':10} {'address':8} {'protocol':9} {'first load':>12} {'first touch':>12} {'repeat load':>12}"
                f" {'requests':>9} {'foreign':>8}"
            )
            for name, path in {"home": "/", "new game": "/new", "game": game_path}.items():
                for address, base, phone in (("plain", server.url, browser), ("secure", secure, trusting)):
                    # services workers off, so the figures are the http cache's alone
                    context = phone_context(phone, service_workers="block")
                    first = transferred(context, base + path)
                    repeat = transferred(context, base + path)
                    context.close()
                    print(
                        f"{name:10} {address:8} {first['protocol']:9} {first['bytes']:>10} B {first['touched']:>10} B"
                        f" {repeat['bytes']:>10} B"
                        f" {first['requests']:>9} {first['foreign']:>8}"
                    )
            trusting.close()
            browser.close()
    finally:
        server.stop()


if __name__ == "__main__":
    main()
