"""Static files: urls that carry a hash of the file, so they can be cached for a year, and
their bodies compressed once, as hard as brotli (or gzip) compresses.

Flask-Compress compresses every response at a level cheap enough for a page made per
request (brotli 4, zstd 3). A static file changes only with a release, so it is worth
brotli's best once: htmx, the css and the scripts come to some 6 KB less on a phone's
first load (benchmarks/page_weight.py).
"""

from __future__ import annotations

import gzip
import hashlib
from functools import cache, lru_cache
from pathlib import Path

import brotli
from flask import Flask, Response, current_app, request, url_for
from werkzeug.security import safe_join

HTMX_FILE = "vendor/htmx-2.0.11.min.js"


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


@lru_cache(maxsize=256)
def _compressed(path: Path, mtime_ns: int, encoding: str) -> bytes:
    data = path.read_bytes()
    return brotli.compress(data, quality=11) if encoding == "br" else gzip.compress(data, compresslevel=9, mtime=0)


def _precompressed(response: Response) -> Response:
    """A static file's body compressed at its best, brotli or else gzip, as the phone takes.

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
    encoding = next((name for name in ("br", "gzip") if request.accept_encodings[name] > 0), None)
    found = safe_join(current_app.static_folder or "", (request.view_args or {}).get("filename", ""))
    if encoding is None or found is None or not Path(found).is_file():
        return response
    path = Path(found)
    response.direct_passthrough = False
    response.set_data(_compressed(path, path.stat().st_mtime_ns, encoding))
    response.headers["Content-Encoding"] = encoding
    response.vary.add("Accept-Encoding")
    # another body is another representation: its validator says so, as Flask-Compress's do
    etag, weak = response.get_etag()
    if etag:
        response.set_etag(f"{etag}:{encoding}", weak=bool(weak))
    return response


def init_app(app: Flask) -> None:
    app.add_template_global(asset_url)
    app.jinja_env.globals["HTMX_FILE"] = HTMX_FILE
    # registered after Flask-Compress, so it runs before it: a body already encoded is left be
    app.after_request(_precompressed)
