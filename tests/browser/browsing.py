"""Driving Debian's Chromium through Playwright against `companion serve` on loopback."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page

from tests.servers import Server, free_port  # noqa: F401  (the browser tests' server)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # browser furniture a page never sees, started with every window (each test's context is
    # one): the address bar's two popups, each a WebUI renderer process, and a spare renderer
    # kept warm for the next tab. Leaving them out takes a third of the CPU a browser test
    # spends (docs/benchmarks.md, "The suite")
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,SpareRendererForSitePerProcess",
]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 320, "height": 640}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def phone_context(browser: Browser, viewport: dict = PHONE, color_scheme: str = "light", **options) -> BrowserContext:
    return browser.new_context(
        viewport=viewport,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme=color_scheme,
        **options,
    )


def new_game(
    page: Page, base: str, names: tuple[str, ...] = ("Ana", "Ben", "Cy", "Dee"), first_dealer: int = 0, **extra: str
) -> str:
    """Fill and send the new-game form as a player would; return the game page's url."""
    page.goto(f"{base}/new")
    for row, name in enumerate(names):
        page.get_by_label(f"Seat {row + 1} name").fill(name)
    page.locator(f"input[name=first_dealer][value='{first_dealer}']").check()
    if "end_value" in extra:
        page.get_by_text("House rules").click()
        page.get_by_label("End value").fill(extra["end_value"])
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_url("**/black-spy/*")
    return page.url


def new_pad(page: Page, base: str, name: str, players: tuple[str, ...] = ("Ana", "Ben", "Cy")) -> str:
    """Fill and send the score pad's form as a player would; return the pad's url."""
    page.goto(f"{base}/new?game=scorepad")
    page.get_by_role("textbox", name="Which game").fill(name)
    for row, player in enumerate(players):
        page.get_by_label(f"Player {row + 1} name").fill(player)
    page.get_by_role("button", name="Start the pad").click()
    page.wait_for_url("**/scorepad/*")
    return page.url


def settled(page: Page) -> None:
    """Wait until htmx has finished its swap and settle, and the page's own handlers have run.

    What a swap shows is visible before its settle ends, and the settle's handlers (focus,
    scroll) may still move things: a test that acts in between races them. What an answer
    brought to draw after the rest is shown (Black Spy's chart) is drawn too.
    """
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        # and what an answer brought to draw once the rest was shown (Black Spy's chart)
        " && [...document.querySelectorAll('template[data-draws]')].every((drawing) => !drawing.content.textContent.trim())",
        polling=50,
    )


def touched(page: Page) -> None:
    """A first touch on the page, which brings htmx (static/js/first-touch.js), and htmx there: as it
    is once a player has typed or scrolled."""
    page.dispatch_event("body", "pointerdown")
    page.wait_for_function("() => window.htmx !== undefined")


def under_the_worker(page: Page) -> None:
    """Wait until the service worker answers this page's requests.

    Polled on a timer, not per animation frame: a headless page on a busy machine draws
    seldom. Once the worker is active, a page it has not claimed yet is reloaded, as a
    phone's next visit would be: every navigation after activation goes through it.
    """
    page.wait_for_function("async () => (await navigator.serviceWorker.ready).active !== null", polling=100)
    if page.evaluate("() => navigator.serviceWorker.controller === null"):
        page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", polling=100)


def enter_points(page: Page, points: dict[str, int | str]) -> None:
    for name, value in points.items():
        page.get_by_role("textbox", name=name, exact=True).fill(str(value))


# a deal's counts of four players, Dee taking the rest: Ana 2 Black Spies, 3 low blacks and a
# coloured Spy; Ben a Black Spy; Cy two coloured Spies (the high blacks are marked apart)
COUNTED = {"black_spies-0": 2, "low_blacks-0": 3, "coloured_spies-0": 1, "black_spies-1": 1, "coloured_spies-2": 2}


def enter_counts(page: Page, counts: dict[str, int] = COUNTED) -> None:
    """Type a deal's card counts into the cards form, box by box."""
    for field, value in counts.items():
        page.locator(f"#{field}").fill(str(value))


def transferred(context: BrowserContext, url: str) -> dict:
    """Load ``url`` in a new tab; return bytes on the wire, how many came from elsewhere,
    and the protocols spoken."""
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    sizes: dict[str, int] = {}
    urls: dict[str, str] = {}
    protocols: set[str] = set()
    cdp.on("Network.requestWillBeSent", lambda event: urls.__setitem__(event["requestId"], event["request"]["url"]))
    cdp.on("Network.responseReceived", lambda event: protocols.add(event["response"].get("protocol", "?")))
    cdp.on("Network.loadingFinished", lambda event: sizes.__setitem__(event["requestId"], int(event["encodedDataLength"])))
    page.goto(url, wait_until="networkidle")
    loaded = sum(sizes.values())
    # what the first touch brings (htmx, and on a recording page the offline queue): a tap
    # on the page's first box, or on its body where it has none
    boxes = page.locator("main input[type=text]")
    (boxes.first if boxes.count() else page.locator("main")).click(position={"x": 1, "y": 1})
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    touched = sum(sizes.values()) - loaded
    page.close()
    origin = url.split("/", 3)[:3]
    foreign = [address for address in urls.values() if address.split("/", 3)[:3] != origin and not address.startswith("data:")]
    return {
        "bytes": loaded,
        "touched": touched,
        "requests": len(sizes),
        "foreign": len(foreign),
        "protocol": "+".join(sorted(protocols)),
    }
