"""Static files reach a phone minified and compressed once, as hard as their encoding allows."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess

import brotli
import pytest
from flask.testing import FlaskClient

from companion import paths
from companion.web.assets import HTMX_FILE, minified


@pytest.mark.parametrize("name", ["css/app.css", "js/app.js", HTMX_FILE, "icons/icon.svg"])
def test_a_phone_that_takes_brotli_gets_the_file_at_brotlis_best(page_client: FlaskClient, name: str) -> None:
    whole = minified(paths.STATIC / name)
    response = page_client.get(f"/static/{name}", headers={"Accept-Encoding": "gzip, deflate, br, zstd"})
    assert response.status_code == 200 and response.headers["Content-Encoding"] == "br"
    body = response.get_data()
    assert brotli.decompress(body) == whole
    # smaller than the level a page made per request is compressed at (Flask-Compress's 4)
    assert len(body) < len(brotli.compress(whole, quality=4))
    assert response.headers["ETag"].endswith(':br"') and "Accept-Encoding" in response.headers["Vary"]


@pytest.mark.parametrize("encoding", ["br", "gzip", "identity"])
def test_a_phone_asking_again_with_the_validator_it_holds_gets_304(page_client: FlaskClient, encoding: str) -> None:
    first = page_client.get("/static/css/app.css", headers={"Accept-Encoding": encoding})
    held = first.headers["ETag"]
    again = page_client.get("/static/css/app.css", headers={"Accept-Encoding": encoding, "If-None-Match": held})
    assert again.status_code == 304 and again.get_data() == b""
    assert again.headers["ETag"] == held
    # a validator of another encoding is another body: the file goes out whole
    other = "gzip" if encoding == "br" else "br"
    changed = page_client.get("/static/css/app.css", headers={"Accept-Encoding": other, "If-None-Match": held})
    assert changed.status_code == 200 and changed.get_data()


def test_a_browser_without_brotli_gets_gzip_and_one_that_asks_for_nothing_gets_the_file_whole(page_client: FlaskClient) -> None:
    whole = minified(paths.STATIC / "css/app.css")
    for asked in ("gzip", "br;q=0, gzip"):
        response = page_client.get("/static/css/app.css", headers={"Accept-Encoding": asked})
        assert response.headers["Content-Encoding"] == "gzip" and gzip.decompress(response.get_data()) == whole, asked
    response = page_client.get("/static/css/app.css", headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in response.headers and response.get_data() == whole


def test_our_scripts_and_stylesheet_go_out_minified_and_the_scripts_still_parse(page_client: FlaskClient, tmp_path) -> None:
    files = [*sorted(paths.STATIC.glob("js/**/*.js")), paths.STATIC / "css/app.css"]
    assert len(files) >= 4
    for path in files:
        served = page_client.get(f"/static/{path.relative_to(paths.STATIC)}", headers={"Accept-Encoding": "identity"}).get_data()
        assert served == minified(path) and len(served) < 0.85 * path.stat().st_size, path.name
        assert b"/*" not in served and b"\n  " not in served, path.name
    # the vendored htmx comes minified already and is sent exactly as pinned
    assert minified(paths.STATIC / HTMX_FILE) == (paths.STATIC / HTMX_FILE).read_bytes()
    # a minifier that broke a script would break the phone: node reads each one as the phone would
    node = shutil.which("node")
    assert node, "node (installed for axe by make test) is needed to check the scripts"
    for path in paths.STATIC.glob("js/**/*.js"):
        copy = tmp_path / path.name
        copy.write_bytes(minified(path))
        checked = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, check=False)
        assert checked.returncode == 0, (path.name, checked.stderr)


def test_a_range_of_a_file_and_an_image_are_sent_as_they_are(page_client: FlaskClient) -> None:
    whole = (paths.STATIC / "css/app.css").read_bytes()
    part = page_client.get("/static/css/app.css", headers={"Accept-Encoding": "br", "Range": "bytes=0-99"})
    assert part.status_code == 206 and part.get_data() == whole[:100] and "Content-Encoding" not in part.headers
    icon = page_client.get("/static/icons/icon-192.png", headers={"Accept-Encoding": "br"})
    assert "Content-Encoding" not in icon.headers and icon.get_data() == (paths.STATIC / "icons/icon-192.png").read_bytes()


def test_a_page_loads_htmx_exactly_when_it_swaps_and_at_once_only_when_it_swaps_by_itself(app, client: FlaskClient) -> None:
    from tests.test_security import a_game_of_each_kind, get_routes

    values = a_game_of_each_kind(client)
    pages = [url for url in get_routes(app, values) if not url.startswith("/static")] + [
        "/",
        "/new",
        "/history",
        "/players",
        "/phone",
    ]
    without, on_touch, at_once = [], [], []
    for url in pages:
        response = client.get(url)
        if response.mimetype != "text/html" or response.status_code != 200:
            continue
        html = response.get_data(as_text=True)
        # first-touch.js brings it with the first touch (data-htmx), or the page loads it itself
        touch = re.search(r'<script src="[^"]*first-touch\.js[^"]*" data-htmx="[^"]*' + re.escape(HTMX_FILE), html) is not None
        tag = re.search(r'<script src="[^"]*' + re.escape(HTMX_FILE), html) is not None
        assert not (touch and tag), f"{url} loads htmx twice"
        assert touch or tag or " hx-" not in html, f"{url} swaps without htmx"
        # a poll starts with no touch to bring htmx
        if re.search(r'hx-trigger="(every|load)', html):
            assert tag, f"{url} polls, but htmx waits for a touch"
        (at_once if tag else on_touch if touch else without).append(url)
    # the pages that never swap go without it; the game pages bring it when touched, but one
    # whose players send their shares from their own phones (the Black Spy game here, whose
    # seat links are out) asks for them by itself, at once; the follower's page at once
    assert "/" in without and "/new" in without and "/players" in without, without
    game_pages = [url for url in on_touch if re.fullmatch(r"/(black-spy|spy|scorepad)/[^/]+", url)]
    assert sorted(url.split("/")[1] for url in game_pages) == ["scorepad", "spy"], on_touch
    assert f"/black-spy/{values['black_spy:game_id']}" in at_once, at_once
    assert [url for url in at_once if "/follow/" in url or "/watch/" in url], at_once
