"""Security headers on every response, and who may tell the app its own address."""

from __future__ import annotations

import os

from flask import Flask, Response, request
from werkzeug.middleware.proxy_fix import ProxyFix

from .addresses import extra_names_from_env as names_from_env

# htmx is configured (see base.html) to need neither inline code nor eval
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# every powerful feature off but the one the table uses: keeping the screen on. Only
# features Chromium knows (it warns in the console of each page about one it does not:
# bluetooth and web-share were two)
PERMISSIONS_POLICY = ", ".join(
    [
        "screen-wake-lock=(self)",
        "accelerometer=()",
        "autoplay=()",
        "camera=()",
        "display-capture=()",
        "encrypted-media=()",
        "fullscreen=()",
        "geolocation=()",
        "gyroscope=()",
        "hid=()",
        "idle-detection=()",
        "magnetometer=()",
        "microphone=()",
        "midi=()",
        "payment=()",
        "picture-in-picture=()",
        "publickey-credentials-get=()",
        "serial=()",
        "usb=()",
        "xr-spatial-tracking=()",
    ]
)

# static files a browser may show as a document of their own
DOCUMENT_TYPES = frozenset({"text/html", "image/svg+xml"})

# a year; the built-in https listener and a proxy with a real certificate both stay https
STRICT_TRANSPORT_SECURITY = "max-age=31536000"


def init_app(app: Flask) -> None:
    # one proxy in front (caddy, tailscale serve, a hosting platform) says the client's
    # scheme, host and address; without COMPANION_PROXY those headers are never believed
    if os.environ.get("COMPANION_PROXY", "").strip().lower() in ("1", "true", "yes", "on"):
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)  # type: ignore[method-assign]  # wrapping wsgi_app is how werkzeug documents ProxyFix
    # COMPANION_HOSTS is written as COMPANION_TLS_NAMES is: names split by commas or spaces
    hosts = names_from_env(os.environ.get("COMPANION_HOSTS"))
    if hosts and not app.config.get("TRUSTED_HOSTS"):
        # werkzeug refuses any other Host with 400, so no link the app prints
        # (the follow link, its QR code, BG Stats) can name another site
        app.config["TRUSTED_HOSTS"] = hosts

    @app.after_request
    def add_headers(response: Response) -> Response:
        if request.endpoint != "static":
            # a page: what it may load, frame, use and open, and what it tells other sites
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
            response.headers.setdefault("Referrer-Policy", "same-origin")
            response.headers.setdefault("X-Frame-Options", "DENY")
            response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
            if request.is_secure:
                # a browser heeds it only in a secure context, and logs every page that sends it otherwise
                response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
        elif response.mimetype in DOCUMENT_TYPES:
            # an icon opened on its own is a document: nothing of another site in it, no frame
            response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
            response.headers.setdefault("X-Frame-Options", "DENY")
        # a stylesheet or a script is no document: the policies above would be some 700
        # bytes a file for nothing. Every answer is read as its type says, by this site alone
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        if request.is_secure:
            response.headers.setdefault("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY)
        return response
