"""What makes the companion installable: the manifest, the service worker, the offline page."""

from __future__ import annotations

import hashlib

from flask import Blueprint, current_app, render_template, url_for
from flask_babel import force_locale, gettext
from werkzeug.wrappers import Response

from .. import paths
from .assets import HTMX_FILE, PAGE_SCRIPTS, asset_url, file_version
from .i18n import LANGUAGES, language

bp = Blueprint("pwa", __name__)

# the app shell the service worker keeps for offline use; each kind's own script is in
# static/js/kinds/, and every one there is kept, whatever kinds there are
SHELL = (
    "css/app.css",
    "js/first-touch.js",
    *PAGE_SCRIPTS,
    "js/offline.js",
    "js/offline-queue.js",
    "js/offline-page.js",
    *sorted(f"js/kinds/{path.name}" for path in (paths.STATIC / "js" / "kinds").glob("*.js")),
    HTMX_FILE,
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
# the script that keeps deals on the phone; the worker imports it to send them (Background Sync)
QUEUE = "js/offline-queue.js"


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """Describe the app to the phone that installs it."""
    data = {
        "id": url_for("games.index"),
        "name": gettext("Companion for Black Spy and Spy"),
        "short_name": gettext("Companion"),
        "description": gettext("The score pad for Black Spy and the table tracker for Spy, on the phone at the table."),
        "lang": language(),
        "start_url": url_for("games.index"),
        "scope": url_for("games.index"),
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": "#1f3b2d",
        "background_color": "#f6f3ee",
        "icons": [
            {"src": asset_url("icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
            {"src": asset_url("icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
            {"src": asset_url("icons/maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        ],
    }
    response = current_app.response_class(current_app.json.dumps(data), mimetype="application/manifest+json")
    response.cache_control.no_cache = True
    response.vary.update(("Cookie", "Accept-Language"))  # its name and description are translated
    return response


@bp.get("/sw.js")
def service_worker() -> Response:
    """Serve the service worker from the root, so its scope is the whole app."""
    shell = [asset_url(name) for name in SHELL] + [url_for("pwa.offline")]
    # one name for the whole shell: a change to any of its files (not only the first few) is a
    # new cache, and the worker drops the old one with the files it no longer names
    version = hashlib.sha256("-".join(file_version(name) for name in SHELL).encode()).hexdigest()[:16]
    body = render_template(
        "pwa/sw.js", shell=shell, version=version, offline=url_for("pwa.offline"), queue=asset_url(QUEUE), kept=_kept_sentences()
    )
    response = current_app.response_class(body, mimetype="text/javascript")
    # the browser must always check for a new worker; that is how a new version arrives
    response.cache_control.no_cache = True
    response.headers["Service-Worker-Allowed"] = "/"
    return response


def _kept_sentences() -> dict[str, str]:
    """What a page served from the phone's copy says, in each language: the worker picks
    the page's own, as it does not know which one the reader has until it reads the page."""
    sentences = {}
    for code in LANGUAGES:
        with force_locale(code):
            sentences[code] = gettext(
                "This page is a copy kept on this phone from %(when)s: the server cannot be reached just now.", when="{when}"
            )
    return sentences


@bp.get("/offline")
def offline() -> str:
    """Say the connection is gone, when the service worker has nothing better."""
    return render_template("pwa/offline.html")
