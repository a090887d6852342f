"""Static files: urls that carry a hash of the file, so they can be cached for a year, and
their bodies made small once: our own scripts and stylesheet minified, then every text
file compressed as hard as brotli (or gzip) compresses.

Flask-Compress compresses every response at a level cheap enough for a page made per
request (brotli 4, zstd 3). A static file changes only with a release, so it is worth
brotli's best once: htmx, the css and the scripts come to some 6 KB less on a phone's
first load, and minifying (rjsmin, rcssmin: comments and spaces out, nothing renamed)
some 3 KB more (benchmarks/page_weight.py). The files in static/ stay as written, with
their comments, for the next person to read.
"""

from __future__ import annotations

import gzip
import hashlib
from functools import cache, lru_cache
from pathlib import Path

import brotli
import rcssmin
import rjsmin
from flask import Flask, Response, current_app, request, url_for
from werkzeug.security import safe_join

HTMX_FILE = "vendor/htmx-2.0.11.min.js"
# every page's scripts after js/first-touch.js, which brings htmx: one job each, run in this
# order (deferred), entry.js first for what swaps.js and elsewhere.js ask of an entry form.
# app.js, which says an answer htmx cannot show, needs no other: a tap never ends in silence
PAGE_SCRIPTS = ("js/entry.js", "js/app.js", "js/swaps.js", "js/elsewhere.js")


@cache
def _digest(path: Path, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def file_version(filename: str) -> str:
    path = Path(current_app.static_folder or "") / filename
    return _digest(path, path.stat().st_mtime_ns)


def asset_url(filename: str) -> str:
    """The url of a static file with its content hash in it."""
    return url_for("static", filename=filename, v=file_version(filename))


# what is worth compressing; png and the like are compressed already
COMPRESSIBLE = frozenset({"text/css", "text/javascript", "application/javascript", "image/svg+xml", "application/json"})


def minified(path: Path) -> bytes:
    """The file as a phone gets it: our scripts and stylesheet without comments and spaces.

    A vendored file comes minified already (htmx's .min.js) and is left as it is.
    """
    data = path.read_bytes()
    if path.name.endswith(".min.js"):
        return data
    if path.suffix == ".js":
        return bytes(rjsmin.jsmin(data))
    if path.suffix == ".css":
        return bytes(rcssmin.cssmin(data))
    return data


@lru_cache(maxsize=256)
def _body(path: Path, mtime_ns: int, encoding: str) -> bytes:
    data = minified(path)
    if encoding == "br":
        return bytes(brotli.compress(data, quality=11))
    if encoding == "gzip":
        return gzip.compress(data, compresslevel=9, mtime=0)
    return data


def _precompressed(response: Response) -> Response:
    """A static file's body made small once: minified, and compressed at its best, brotli
    or else gzip, as the phone takes.

    (Flask-Compress leaves a file it streams to zstd, brotli or deflate: a browser that
    takes gzip alone would get it whole.)
    """
    if (
        request.endpoint != "static"
        or response.status_code != 200
        or response.mimetype not in COMPRESSIBLE
        or "Content-Encoding" in response.headers
    ):
        return response
    encoding = next((name for name in ("br", "gzip") if request.accept_encodings[name] > 0), "identity")
    found = safe_join(current_app.static_folder or "", (request.view_args or {}).get("filename", ""))
    if found is None or not Path(found).is_file():
        return response
    path = Path(found)
    response.direct_passthrough = False
    response.set_data(_body(path, path.stat().st_mtime_ns, encoding))
    response.vary.add("Accept-Encoding")
    # another body is another representation: its validator says so, as Flask-Compress's do
    suffix = "min" if encoding == "identity" else f"min:{encoding}"
    if encoding != "identity":
        response.headers["Content-Encoding"] = encoding
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}:{suffix}", weak=bool(weak))
        # a phone asks again with the validator it was given, this one: werkzeug checked only
        # the file's own (which no phone holds), so the file went out whole every time
        response.make_conditional(request)
    return response


# what a static file's answer carries that a phone never reads: the year of max-age says
# what Expires and Last-Modified would, the name is the url's, and the body sent (minified,
# compressed) is not the file a range would count bytes of
NEEDLESS_ON_A_FILE = ("Content-Disposition", "Expires", "Last-Modified", "Accept-Ranges")


def _lean(response: Response) -> Response:
    """A static file's answer with the headers it needs and no more: each is sent again with
    every file of a phone's first load, uncompressed over HTTP/1.1."""
    if request.endpoint != "static" or response.status_code not in (200, 304):
        return response
    for name in NEEDLESS_ON_A_FILE:
        response.headers.pop(name, None)
    # the body is the same whoever asks: a session read on the way does not make it vary
    response.vary.discard("Cookie")
    if request.args.get("v"):
        # its url changes with its content (asset_url): no need to ask again within the year
        response.cache_control.immutable = True
    return response


def init_app(app: Flask) -> None:
    app.add_template_global(asset_url)
    app.jinja_env.globals["HTMX_FILE"] = HTMX_FILE
    app.jinja_env.globals["PAGE_SCRIPTS"] = PAGE_SCRIPTS
    # registered after Flask-Compress, so they run before it: a body already encoded is left be
    app.after_request(_lean)
    app.after_request(_precompressed)
