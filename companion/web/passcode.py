"""An optional passcode for the organiser of a public server (COMPANION_PASSCODE).

When set, every page but the read-only links, the manifest, the service worker, the
offline page and static files asks for it once per device. Only a hash of it is kept; attempts are rate-limited.

A device that typed it carries a mark of that passcode in its session, not a plain
"yes": when the organiser changes the passcode, every device is signed out.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import time
from urllib.parse import urlsplit

from flask import Blueprint, Flask, current_app, make_response, redirect, render_template, request, session, url_for
from flask.sessions import SecureCookieSessionInterface
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from ..rules import N_, Nn_
from .extensions import htmx, limiter

# wrong tries from one address in a minute before the passcode pauses there
TRIES_PER_MINUTE = 5

bp = Blueprint("passcode", __name__)

# pages a phone needs before it knows the passcode
OPEN_ENDPOINTS = {
    "static",
    "pwa.manifest",
    "pwa.service_worker",
    "pwa.offline",
    "passcode.enter",
    "passcode.check",
    # a guest trusts the table's certificate first, then signs in at the secure address
    "trust.phone",
    "trust.profile",
    "trust.certificate",
    # the passcode page is read in the phone's own language
    "i18n.choose",
    # a read-only link is shared so that others can follow without the passcode
    "watch.show",
    "watch.everything",
    "watch.table",
    "watch.qr",
    # a player's own seat link works without the passcode: the scorer, who has it, hands it out
    "seats.show",
    "seats.enter",
    # a proxy's or a platform's health check knows no passcode (and learns nothing but ok)
    "health.healthz",
}


class SessionInterface(SecureCookieSessionInterface):
    """The session cookie is Secure whenever the request came over https."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"] or (request and request.is_secure))


def init_app(app: Flask) -> None:
    plain = app.config.pop("PASSCODE", None) or os.environ.get("COMPANION_PASSCODE")
    app.config["PASSCODE_HASH"] = generate_password_hash(plain) if plain else None
    # what a signed-in device carries: the same passcode gives the same mark after a
    # restart, another passcode another mark
    app.config["PASSCODE_MARK"] = (
        hmac.new(app.config["SECRET_KEY"].encode(), b"passcode:" + plain.encode(), hashlib.sha256).hexdigest()[:32]
        if plain
        else None
    )
    app.session_interface = SessionInterface()
    app.register_blueprint(bp)
    app.before_request(_ask_for_passcode)


def _ask_for_passcode() -> Response | None:
    if not current_app.config["PASSCODE_HASH"] or signed_in():
        return None
    if request.endpoint in OPEN_ENDPOINTS or request.endpoint is None:
        return None
    target = url_for("passcode.enter", next=request.full_path.rstrip("?"))
    if request.method not in ("GET", "HEAD", "OPTIONS") and not htmx:
        # a write from a device that is not signed in is refused, not sent on: the passcode's
        # page says so, and leads back to the page the write was sent from
        back = safe_next(urlsplit(request.referrer or "").path or None)
        return make_response(render_template("passcode.html", next=back, error=None), 403)
    if htmx:
        response = Response(status=204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)


def signed_in() -> bool:
    """Whether this device typed the passcode in force now."""
    mark = current_app.config["PASSCODE_MARK"]
    return mark is not None and hmac.compare_digest(str(session.get("passcode", "")), mark)


def safe_next(value: str | None) -> str:
    # only a path on this site: never send someone elsewhere after they type the passcode.
    # A backslash is a slash to some browsers; a control character cannot go in a header.
    if (
        not value
        or not value.startswith("/")
        or value.startswith("//")
        or "\\" in value
        or not value.isprintable()
        or urlsplit(value).netloc
    ):
        return url_for("games.index")
    return value


@bp.get("/passcode")
def enter() -> str:
    """Ask for the organiser's passcode."""
    return render_template("passcode.html", next=safe_next(request.args.get("next")), error=None)


@bp.post("/passcode")
# wrong tries are counted, not the right ones: a table whose phones sign in together, from
# one network, is never paused
@limiter.limit(f"{TRIES_PER_MINUTE} per minute", deduct_when=lambda response: response.status_code == 401)
def check() -> Response | tuple[str, int]:
    """Let this device in when the passcode is right."""
    target = safe_next(request.form.get("next"))
    if check_password_hash(current_app.config["PASSCODE_HASH"] or "", request.form.get("passcode", "")):
        session.permanent = True
        session["passcode"] = current_app.config["PASSCODE_MARK"]
        # a form token from before signing in is not carried past it: a new one is made
        session.pop("csrf_token", None)
        return redirect(target, code=303)
    return render_template("passcode.html", next=target, error=N_("That is not the passcode.")), 401


@bp.errorhandler(429)
def paused(_error: Exception) -> Response:
    """Say how long the pause after too many wrong tries lasts, and for whom."""
    limit = limiter.current_limit
    # reset_at is rounded up to the next whole second: never more than the window itself
    seconds = max(1, min(60, math.ceil(limit.reset_at - time.time()))) if limit is not None else 60
    message = Nn_(
        "%(tries)s wrong tries in a minute from this network: the passcode is paused for %(num)s second, for every phone on this network.",
        "%(tries)s wrong tries in a minute from this network: the passcode is paused for %(num)s seconds, for every phone on this network.",
        seconds,
        tries=TRIES_PER_MINUTE,
    )
    target = safe_next(request.form.get("next"))
    response = make_response(render_template("passcode.html", next=target, error=message), 429)
    response.headers["Retry-After"] = str(seconds)
    return response
