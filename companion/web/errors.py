"""Error pages that say what happened in words, for people and for htmx."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, abort, make_response, redirect, render_template, request, url_for
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DataError, DBAPIError, StatementError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, SecurityError
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response as BaseResponse

from .. import registry
from ..rules import N_
from ..store.base import db
from ..store.games import Game
from ..store.outages import Outage, outage_of
from .extensions import htmx
from .health import healthz

MESSAGES = {
    400: N_("The companion could not read that request."),
    404: N_("There is nothing here. The game may have been deleted, or the link is incomplete."),
    405: N_("That address does not take this kind of request."),
    408: N_("What was sent stopped arriving before it was complete, so nothing was saved. Try again."),
    410: N_("This game was deleted, so nothing was saved. It can be restored from Recently deleted."),
    413: N_("That upload is too large."),
    429: N_("Too many tries. Wait a minute and try again."),
}


# each outage: its status, the seconds a phone waits before it sends again, and its words
OUTAGES = {
    Outage.BUSY: (
        503,
        2,
        N_("The scorebook is busy with another table's write. Nothing was saved: try again in a moment."),
    ),
    Outage.UNREACHABLE: (
        503,
        5,
        N_(
            "The server cannot reach its database just now, so nothing was saved. "
            "Your phone keeps what you entered and sends it when the database answers again."
        ),
    ),
    Outage.DISK_FULL: (
        507,
        30,
        N_(
            "The server is out of disk space, so nothing was saved. "
            "Your phone keeps what you entered and sends it once the server has room again."
        ),
    ),
}


# what the server's front tells the app of a body it refused (companion/serving/asgi.py):
# the app answers in the reader's language
BODY_REFUSED = "companion.body_refused"


def refused_status(environ: Mapping[str, Any]) -> int | None:
    """The status the server's front refused this request's body with (408, 413), if it did."""
    return environ.get(BODY_REFUSED)


def refuse_unreadable() -> None:
    """Refuse, before anything reads it, a request whose body the server would not wait for
    or found too large, and an address with a NUL character, which no page has (and which
    PostgreSQL cannot even be asked about)."""
    status = refused_status(request.environ)
    if status is not None:
        abort(status)
    if "\x00" in request.path:
        abort(404)


def _holds_nul(error: StatementError) -> bool:
    return "NUL" in str(error.orig) or any("\x00" in str(value) for value in _parameters(error.params))


def _parameters(params: object) -> list[object]:
    if isinstance(params, dict):
        return list(params.values())
    if isinstance(params, list | tuple):
        return (
            [value for item in params for value in _parameters(item)]
            if params and isinstance(params[0], dict | list | tuple)
            else list(params)
        )
    return []


def _rematch_of(game_path: str) -> str | None:
    """The page of the rematch of the game at ``game_path`` (/<kind>/<id>), if it has one."""
    game = db.session.get(Game, game_path.rsplit("/", 1)[-1][:64])
    if game is None or game.rematch_id is None:
        return None
    again = db.session.get(Game, game.rematch_id)
    return url_for(registry.of(again).show, game_id=again.id) if again is not None else None


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> tuple[str, int]:
        message = N_(
            "This form has expired or did not come from the companion. Reload the page and try again; nothing was saved."
        )
        return render_template("error.html", code=400, message=message), 400

    @app.errorhandler(SecurityError)
    def foreign_host(error: SecurityError) -> BaseResponse | tuple[str, int, dict[str, str]]:
        # a proxy's health check asks an instance at its own address, not the site's name,
        # and is answered: it names no host and says nothing but ok or unavailable
        if request.path == "/healthz" and request.method in ("GET", "HEAD"):
            return healthz()
        # a Host outside COMPANION_HOSTS: no page can be built for it, and none should
        # carry its name, so the refusal is plain text
        return "This server does not answer to that host name.\n", 400, {"Content-Type": "text/plain; charset=utf-8"}

    @app.errorhandler(DBAPIError)
    def database_out(error: DBAPIError) -> Response:
        # a state to wait out (companion/store/outages.py); any other database error is a fault
        outage = outage_of(error)
        if outage is None:
            raise error
        try:
            db.session.rollback()
        except DBAPIError:
            db.session().invalidate()  # a connection already gone: the pool makes a new one
        status, retry_after, message = OUTAGES[outage]
        if htmx:
            # a small notice swapped in above the page: the form keeps what was typed, and the
            # phone keeps the entry to send again (static/js/offline-page.js, offline-queue.js)
            response = make_response(render_template("_busy.html", message=message), status)
            response.headers["HX-Retarget"] = "#busy"
            response.headers["HX-Reswap"] = "outerHTML"
        else:
            response = make_response(render_template("error.html", code=status, message=message), status)
        response.headers["Retry-After"] = str(retry_after)
        return response

    @app.errorhandler(DataError)
    def unstorable(error: DataError) -> tuple[str, int]:
        # a NUL character in a form or query value that reached PostgreSQL (SQLite stores it,
        # and finds nothing): no game holds one, so nothing was found and nothing written
        if not _holds_nul(error):
            raise error
        db.session.rollback()
        message = N_("The companion could not read that request: it holds a character no game can store. Nothing was saved.")
        return render_template("error.html", code=422, message=message), 422

    @app.errorhandler(MethodNotAllowed)
    def only_posted(error: MethodNotAllowed) -> BaseResponse | tuple[str, int, dict[str, str]]:
        # a phone without JavaScript shows a refused deal at the address it posted to
        # (/black-spy/<id>/deals); a reload there asks for it: show the game it belongs to
        parent = request.path.rstrip("/").rsplit("/", 1)[0]
        again = _rematch_of(parent) if request.path.rstrip("/").endswith("/rematch") else None
        if request.method in ("GET", "HEAD") and again is not None:
            # a reload of the rematch's answer: the rematch, not the game it came from
            return redirect(again, code=303)
        if request.method in ("GET", "HEAD") and parent:
            try:
                adapter = app.create_url_adapter(request)
                assert adapter is not None
                adapter.match(parent, method="GET")
            except (NotFound, MethodNotAllowed, RequestRedirect):
                pass
            else:
                return redirect(request.script_root + parent, code=303)
        return http_error(error)

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> tuple[str, int, dict[str, str]]:
        code = error.code or 500
        # werkzeug's own descriptions are English only: a code without words of ours gets a plain sentence
        message = MESSAGES.get(code, N_("Something went wrong."))
        # an error is about now: a browser keeps a 404 or a 410 by default, and a seat's
        # page, asking every few seconds, was answered from its copy of "deleted" long after
        # a restore
        return render_template("error.html", code=code, message=message), code, {"Cache-Control": "no-store"}
