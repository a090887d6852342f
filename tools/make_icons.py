"""Render the PNG icons in static/icons from their SVG sources (run by hand after changing them)."""
from pathlib import Path
from playwright.sync_api import sync_playwright
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"]
out = Path(__file__).resolve().parent.parent / "static" / "icons"
jobs = [("icon.svg", 192, "icon-192.png"), ("icon.svg", 512, "icon-512.png"), ("maskable.svg", 512, "maskable-512.png"), ("maskable.svg", 180, "apple-touch-icon.png")]
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
    for src, size, name in jobs:
        path = out / src
        page = b.new_page(viewport={"width": size, "height": size})
        page.set_content(f'<html><body style="margin:0;background:transparent">{path.read_text()}</body></html>')
        page.eval_on_selector("svg", f"e => {{ e.setAttribute('width', {size}); e.setAttribute('height', {size}); }}")
        page.screenshot(path=str(out / name), omit_background=True, clip={"x":0,"y":0,"width":size,"height":size})
    b.close()
