"""What a game page keeps of itself between phones: a copy per worker of each page made
(companion/web/freshness.py keeps them under their validator's parts), with the one
phone's form token and form id cut out and each phone's own put back, and the form id
every form of one page shares.
"""

from __future__ import annotations

import secrets
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import Response, current_app, g, request, session
from flask_wtf.csrf import generate_csrf

Html = TypeVar("Html", bound=str)


class Kept(Generic[Html]):
    """Html kept per worker process under a key, the oldest dropped first once full: more
    than ``size`` copies, or more than ``budget`` characters in all.

    The key must hold everything the html shows: a kept copy is never checked again.
    """

    def __init__(self, size: int, budget: int | None = None) -> None:
        self.size = size
        self.budget = budget
        self._kept: OrderedDict[Hashable, Html] = OrderedDict()
        self._characters = 0
        self._keeping = threading.Lock()  # a worker answers on several threads

    def find(self, key: Hashable) -> Html | None:
        with self._keeping:
            html = self._kept.get(key)
            if html is not None:
                self._kept.move_to_end(key)
            return html

    def keep(self, key: Hashable, html: Html) -> None:
        with self._keeping:
            before = self._kept.pop(key, None)
            if before is not None:
                self._characters -= len(before)
            self._kept[key] = html
            self._characters += len(html)
            while len(self._kept) > self.size or (
                self.budget is not None and self._characters > self.budget and len(self._kept) > 1
            ):
                _, dropped = self._kept.popitem(last=False)
                self._characters -= len(dropped)

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._keeping:
            self._kept.clear()
            self._characters = 0

    def get(self, key: Hashable, make: Callable[[], Html]) -> Html:
        html = self.find(key)
        if html is None:
            # made outside the lock: two threads may both make a new version, once each
            html = make()
            self.keep(key, html)
        return html


def submission() -> str:
    """This page's form id, one per page sent: a form sent twice is stored once
    (companion/service.py). Every form of one page shares it."""
    if "submission" not in g:
        g.submission = uuid.uuid4().hex
    return str(g.submission)


# what a kept page holds in place of the one phone's token and form id: nothing a page
# can say by chance (a name, a number) looks like these
_TOKEN = f"kept-token-{secrets.token_hex(12)}"
_SUBMISSION = f"kept-submission-{secrets.token_hex(12)}"


def with_holes(html: str) -> str:
    """A page made for this phone, without what is this phone's alone: its form token and its form id."""
    html = html.replace(generate_csrf(), _TOKEN)
    if "submission" in g:
        html = html.replace(g.submission, _SUBMISSION)
    return html


def filled(html: str) -> str:
    """A kept page with this phone's token and a new form id in its holes."""
    return html.replace(_TOKEN, generate_csrf()).replace(_SUBMISSION, submission())


def phone() -> str:
    """This phone's short id, kept in its session: a game's history says which phone changed
    what (the same phone, the same id), and nothing more of it."""
    if "phone" not in session:
        session["phone"] = secrets.token_hex(4)
    return str(session["phone"])


# the cookie that tells a page its own phone's id (the session's is not for scripts to read)
PHONE_COOKIE = "phone"


def tell_the_page_its_phone(response: Response) -> Response:
    """A phone that has changed a game is told its own short id, which its pages read to say
    "from this phone" or "from another phone" of each change listed (static/js/app.js).

    The lists themselves name no viewer: a kept page, or a 304, serves every phone alike.
    The id is a label, no secret: the page showed it before it was a phrase."""
    # a page alone: asked, the session makes every answer vary by cookie, a stylesheet too
    if response.mimetype != "text/html":
        return response
    mine = session.get("phone")
    if mine and request.cookies.get(PHONE_COOKIE) != mine:
        secure = bool(current_app.config["SESSION_COOKIE_SECURE"] or request.is_secure)
        # kept as long as the session that holds the id (a passcode's session outlives the browser's)
        lasts = int(current_app.permanent_session_lifetime.total_seconds()) if session.permanent else None
        response.set_cookie(PHONE_COOKIE, str(mine), max_age=lasts, samesite="Lax", secure=secure)
    return response
