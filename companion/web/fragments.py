"""One url, page or fragment: what htmx asks for gets the fragment, a browser the page."""

from __future__ import annotations

from typing import Any

from flask import Response, make_response, render_template
from markupsafe import Markup

from .. import registry
from ..store.games import Game
from .extensions import htmx

# a game page shows its latest deals, turns or rounds only, the rest a tap away: its
# elements, and what a write costs the phone, stay the same however long the game
LATEST_ROWS = 8


def page_or_fragment(page: str, fragment: str, status: int = 200, **context: Any) -> Response:
    """Render ``fragment`` for htmx and ``page`` otherwise, varying caches on HX-Request.

    A history-restore request must get the whole page, not the fragment.
    """
    wants_fragment = bool(htmx) and not htmx.history_restore_request
    # a refusal's message (another phone was first, the game is over) must not look like
    # the green of "recorded": the templates style it by this
    context.setdefault("refused", status >= 400)
    response = make_response(render_template(fragment if wants_fragment else page, **context), status)
    response.headers["Vary"] = "HX-Request"
    return response


def as_text(markup: str) -> Markup:
    """Markup written as text, for a template an answer brings to be parsed only when the phone
    wants it (a chart drawn once the rest is shown): escaped as text needs, its quotes left as
    they are (forceescape wrote each as five characters, 2.5 KB more of a late answer)."""
    return Markup(str(markup).replace("&", "&amp;").replace("<", "&lt;"))


def every_entry(game: Game, back: str, readonly: bool) -> str:
    """Every deal, turn or round of ``game`` (its kind's ``all.html``), for the link under
    the latest ``LATEST_ROWS`` its page shows; ``back`` is the page the link was on."""
    kind = registry.of(game)
    return render_template(kind.template("all.html"), game=game, readonly=readonly, back=back, **kind.live(game))
