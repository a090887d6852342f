"""Render the PNG icons in static/icons from their SVG sources (run by hand after changing them)."""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.browser.browsing import CHROMIUM, CHROMIUM_ARGS

out = Path(__file__).resolve().parent.parent / "static" / "icons"
jobs = [
    ("icon.svg", 192, "icon-192.png"),
    ("icon.svg", 512, "icon-512.png"),
    ("maskable.svg", 512, "maskable-512.png"),
    ("maskable.svg", 180, "apple-touch-icon.png"),
]
with sync_playwright() as p:
    b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    for src, size, name in jobs:
        path = out / src
        page = b.new_page(viewport={"width": size, "height": size})
        page.set_content(f'<html><body style="margin:0;background:transparent">{path.read_text()}</body></html>')
        page.eval_on_selector("svg", f"e => {{ e.setAttribute('width', {size}); e.setAttribute('height', {size}); }}")
        page.screenshot(path=str(out / name), omit_background=True, clip={"x": 0, "y": 0, "width": size, "height": size})
    b.close()
