"""Static file urls that carry a hash of the file, so they can be cached for a year."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

from flask import Flask, current_app, url_for

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


def init_app(app: Flask) -> None:
    app.add_template_global(asset_url)
    app.jinja_env.globals["HTMX_FILE"] = HTMX_FILE
