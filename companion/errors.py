"""Error pages that say what happened in words, for people and for htmx."""

from __future__ import annotations

from flask import Flask, Response, make_response, redirect, render_template, request
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException, MethodNotAllowed, NotFound, SecurityError
from werkzeug.routing import RequestRedirect
from werkzeug.wrappers import Response as BaseResponse

from .extensions import db, htmx
from .models import is_busy
from .rules import N_

MESSAGES = {
    400: N_("The companion could not read that request."),
    404: N_("There is nothing here. The game may have been deleted, or the link is incomplete."),
    405: N_("That address does not take this kind of request."),
    413: N_("That upload is too large."),
    429: N_("Too many tries. Wait a minute and try again."),
}


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_refused(error: CSRFError) -> tuple[str, int]:
        message = N_(
            "This form has expired or did not come from the companion. Reload the page and try again; nothing was saved."
        )
        return render_template("error.html", code=400, message=message), 400

    @app.errorhandler(SecurityError)
    def foreign_host(error: SecurityError) -> tuple[str, int, dict[str, str]]:
        # a Host outside COMPANION_HOSTS: no page can be built for it, and none should
        # carry its name, so the refusal is plain text
        return "This server does not answer to that host name.\n", 400, {"Content-Type": "text/plain; charset=utf-8"}

    @app.errorhandler(OperationalError)
    def database_busy(error: OperationalError) -> Response:
        # only "database is locked" is a state to wait out; any other database error is a fault
        if not is_busy(error):
            raise error
        db.session.rollback()
        message = N_("The scorebook is busy with another table's write. Nothing was saved: try again in a moment.")
        if htmx:
            # a small notice swapped in above the page: the form keeps what was typed
            response = make_response(render_template("_busy.html", message=message), 503)
            response.headers["HX-Retarget"] = "#busy"
            response.headers["HX-Reswap"] = "outerHTML"
        else:
            response = make_response(render_template("error.html", code=503, message=message), 503)
        response.headers["Retry-After"] = "2"
        return response

    @app.errorhandler(MethodNotAllowed)
    def only_posted(error: MethodNotAllowed) -> BaseResponse | tuple[str, int]:
        # a phone without JavaScript shows a refused deal at the address it posted to
        # (/black-spy/<id>/deals); a reload there asks for it: show the game it belongs to
        parent = request.path.rstrip("/").rsplit("/", 1)[0]
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
    def http_error(error: HTTPException) -> tuple[str, int]:
        code = error.code or 500
        # werkzeug's own descriptions are English only: a code without words of ours gets a plain sentence
        message = MESSAGES.get(code, N_("Something went wrong."))
        return render_template("error.html", code=code, message=message), code
