"""Driving Debian's Chromium through Playwright against `companion serve` on loopback."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {"width": 390, "height": 844}
SMALL_PHONE = {"width": 320, "height": 640}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Server:
    """One `companion serve` process with its own instance folder and database."""

    folder: Path
    port: int
    database_url: str | None = None  # an empty database; `serve` migrates it
    process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        env = {
            **os.environ,
            "COMPANION_INSTANCE": str(self.folder),
            "DATABASE_URL": self.database_url or f"sqlite:///{self.folder / 'companion.sqlite3'}",
        }
        command = [str(Path(sys.executable).with_name("companion")), "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        self.folder.mkdir(parents=True, exist_ok=True)
        # a file, not a pipe: a pipe nobody reads would stall the server once full
        log = self.folder / "server.log"
        with log.open("ab") as output:
            self.process = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"companion serve exited: {log.read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("companion serve did not start in 30 s")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def phone_context(browser: Browser, viewport: dict = PHONE, color_scheme: str = "light", **options) -> BrowserContext:
    return browser.new_context(
        viewport=viewport,
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        color_scheme=color_scheme,
        **options,
    )


def new_game(page: Page, base: str, names: tuple[str, ...] = ("Ana", "Ben", "Cy", "Dee"), first_dealer: int = 0, **extra: str) -> str:
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


def enter_points(page: Page, points: dict[str, int | str]) -> None:
    for name, value in points.items():
        page.get_by_role("textbox", name=name, exact=True).fill(str(value))
