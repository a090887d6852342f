"""Every player on their own phone: a link per seat, the seat's page, and the share of the
next deal or round each player sends from it.

The scorer opens "Players' phones" (``<game url>/phones``, behind the passcode like any of
the game's pages) and hands each player the link of their seat, by QR code. A seat link is
an unguessable capability: it opens that seat's page of that game, with no passcode, and
lets its holder send that seat's share of the next deal, nothing else. The seat page never
names the game's own address: a phone that holds only a seat link cannot reach the game's
other writes. A phone that opened a seat link and never kept score is a seat phone: any
other write from it is refused (403) until it signs in with the passcode, or, on a server
without one, opens the home page (which is what a scorer does).

When every seat's share is in, ``service.shares`` checks the whole by the kind's rules and
records it, once; a whole that does not add up is shown on every phone, for a recount.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    Flask,
    abort,
    current_app,
    flash,
    get_flashed_messages,
    make_response,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from werkzeug.wrappers import Response

from .. import registry
from ..rules import N_, Message, RulesError, Unanswered
from ..service import posted_number
from ..service import shares as service
from ..service.shares import Shared
from ..store.deleted import holds_seat_link
from ..store.games import Game, game_or_404
from ..store.shares import links_out, pending, seat_of_link
from .extensions import htmx, limiter
from .fragments import page_or_fragment
from .i18n import say
from .parts import submission
from .passcode import TRIES_PER_MINUTE, signed_in

bp = Blueprint("seats", __name__)

# how often a seat's page asks whether the others have sent theirs
POLL_SECONDS = 4
# what a seat phone may do besides its seat's page: sign in, pick its language
SEAT_ENDPOINTS = {"seats.show", "seats.enter", "passcode.check", "i18n.choose"}
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


@dataclass(frozen=True)
class Sent:
    name: str
    sent: bool
    words: str  # what they sent, as the table reads it ("" before they have)


@dataclass(frozen=True)
class Waiting:
    """Where the players' shares of the next deal or round stand."""

    number: int
    what: str  # the input, as the kind names it ("deal 4", "round 4")
    seats: tuple[Sent, ...]
    problem: RulesError | None  # every share is in and the whole does not add up
    asked: tuple[int, ...]  # every share is in and adds up; these seats are asked a question
    question: str = ""  # what the table is asked

    @property
    def count(self) -> int:
        return sum(seat.sent for seat in self.seats)


def waiting(game: Game) -> Waiting | None:
    """The players' shares of the game's next input, or None where no seat link was made
    (nothing to show) or the game is over."""
    kind = registry.of(game)
    if not kind.seat_shares or game.finished or not links_out(game):
        return None
    kept = pending(game)
    sent = tuple(
        Sent(
            seat.player.name,
            seat.position in kept,
            kind.share_words(game, kept[seat.position].share) if seat.position in kept else "",
        )
        for seat in game.seats
    )
    problem: RulesError | None = None
    asked: tuple[int, ...] = ()
    question = ""
    if len(kept) == len(game.seats):
        try:
            game.played(kind.entry_from_shares(game, {seat: row.share for seat, row in kept.items()}))
        except Unanswered as unanswered:
            asked, question = unanswered.seats, say(unanswered.question)
        except RulesError as error:
            problem = error
    number = len(game.inputs()) + 1
    return Waiting(number, say(kind.entry_name(number)), sent, problem, asked, question)


@bp.get("/games/<game_id>/shares")
def shares(game_id: str) -> Response:
    """Where the players' shares stand, for the scorer's own game page, which asks every few
    seconds while seat links are out. When the deal (or round) the page shows was recorded
    meanwhile (its last share came in) or the game ended, the answer says so (an htmx event)
    and the page brings the game as it is now, unless its scorer has started typing."""
    game = game_or_404(Game, game_id)
    if not htmx:
        # a region of the game page, not a page: an address opened by hand shows the game
        return redirect(url_for(registry.of(game).show, game_id=game.id), code=303)
    now = waiting(game)
    response = make_response(render_template("seats/_waiting.html", game=game, waiting=now, live_shares=True))
    shown = posted_number(request.args.get("number"))
    if now is None or shown != now.number:
        # the entry the page showed is recorded now (its last share came in): the page says so
        # as it moves on, or beside the numbers its scorer is typing. JSON kept to ASCII: a header
        news = ""
        if shown is not None and len(game.inputs()) >= shown:
            news = say(N_("Recorded meanwhile: %(what)s.", what=registry.of(game).entry_name(shown)))
        response.headers["HX-Trigger"] = json.dumps({"companion:moved-on": {"news": news}})
    return response


# --- the scorer's page of links ------------------------------------------------------


def phones_page(game: Game) -> str:
    """``<game url>/phones``: each seat's link and its QR code, made the first time."""
    kind = registry.of(game)
    if not kind.seat_shares:
        abort(404)
    links = service.links(game)
    return render_template("seats/phones.html", game=game, kind=kind, links=links)


def renew(game: Game) -> Response:
    """New links for every seat: the old ones open nothing from now on."""
    if not registry.of(game).seat_shares:
        abort(404)
    service.links(game, renew=True)
    flash(say(N_("New links made: the old ones open nothing now. Hand each player their new one.")))
    # back to the links, where the new ones are to hand out
    return redirect(url_for(request.endpoint or "", **(request.view_args or {})), code=303)


# --- a seat's page --------------------------------------------------------------------


def _seat(link: str) -> tuple[Game, int]:
    found = seat_of_link(link)
    if found is None and link and len(link) <= 64 and holds_seat_link(link):
        # its game deleted, kept to restore: the player's phone, asking every few seconds,
        # is told so, and is no guesser (a restore gives the same link back)
        abort(410)
    if found is None or not registry.of(found[0]).seat_shares:
        abort(404)
    return found


def _was_wrong(response: Response) -> bool:
    # a link that opens nothing counts against the address; a deleted game's (410) does not
    return response.status_code == 404


@bp.get("/seat/<link>")
# wrong links are counted, as wrong passcodes are: a seat link is a capability to guess
@limiter.limit(f"{TRIES_PER_MINUTE} per minute", deduct_when=_was_wrong)
def show(link: str) -> Response:
    """A seat's page: whose deal, this player's pass and total, and their share's form."""
    game, seat = _seat(link)
    return _page(game, seat, link)


@bp.post("/seat/<link>")
@limiter.limit(f"{TRIES_PER_MINUTE} per minute", deduct_when=_was_wrong)
def enter(link: str) -> Response:
    """Keep this seat's share of the next deal; record the deal if it was the last one in."""
    game, seat = _seat(link)
    kind = registry.of(game)
    form = request.form
    try:
        entered = service.enter(
            game,
            seat,
            form.get("number"),
            lambda: kind.share_from_form(game, seat, form),
            form.get("submission"),
            lambda shares: kind.entry_from_shares(game, shares),
        )
    except RulesError as error:
        return _page(game, seat, link, values=form, errors=error.errors, status=422)
    game = entered.game
    message, status = _said(entered)
    if not htmx and status < 400:
        flash(say(message))
        return redirect(url_for("seats.show", link=link), code=303)
    # a deal that does not add up is no failure of this phone's, but it is news to act on
    return _page(game, seat, link, message=message, status=status, refused=status >= 400 or entered.outcome is Shared.RECOUNT)


def _said(entered: service.Entered) -> tuple[Message, int]:
    what = registry.of(entered.game).entry_name(entered.number)
    said = {
        Shared.RECORDED: (N_("Every share is in: %(what)s is recorded.", what=what), 200),
        Shared.WAITING: (N_("Your share of %(what)s is in. Waiting for the others.", what=what), 200),
        Shared.RECOUNT: (
            N_("Your share of %(what)s is in, but the whole does not add up: the table must recount.", what=what),
            200,
        ),
        Shared.ASKED: (N_("Your share of %(what)s is in. One question before it is recorded:", what=what), 200),
        Shared.REPEATED: (N_("This share was already sent; it counts once."), 200),
        Shared.OVER: (N_("The game is over: there is nothing left to enter."), 409),
        Shared.STALE: (N_("Your share came after %(what)s was recorded, so it was not taken.", what=what), 409),
    }
    return said[entered.outcome]


def _page(
    game: Game, seat: int, link: str, message: str | None = None, status: int = 200, refused: bool = False, **form: Any
) -> Response:
    kind = registry.of(game)
    state = game.state()
    messages = [*get_flashed_messages(), *([message] if message else [])]
    mine = pending(game).get(seat)
    # the table plays again: this player's page in the rematch is a tap away, also once an
    # edit or undo reopens this game (as the scorer's page says it): a share sent here would
    # go to the game the table has most likely left
    again = service.rematch_seat(game, seat)
    context = {
        "game": game,
        "kind": kind,
        "state": state,
        "seat": seat,
        "name": game.player_names[seat],
        "link": link,
        "waiting": waiting(game),
        # what this seat sent of the next deal: its form shows it, to change until it is recorded
        "mine": mine.share if mine is not None else None,
        "submission": submission(),
        "messages": messages,
        "values": form.get("values") or {},
        "errors": form.get("errors") or {},
        "poll": POLL_SECONDS,
        "refused": refused or status >= 400,
        "rematch": url_for("seats.show", link=again.link) if again is not None and again.link else None,
    }
    return page_or_fragment("seats/seat.html", "seats/_seat.html", status, **context)


# --- a seat phone writes nothing else ---------------------------------------------------


def _keep_to_its_seat() -> Response | None:
    """A phone that opened a seat link and never kept score sends its seat's share only."""
    unsafe = request.method in UNSAFE_METHODS
    # a page read, and a static file above all, leaves the session unread (it varies by no cookie)
    if request.endpoint in (None, "static") or (not unsafe and request.endpoint != "games.index"):
        return None
    if not session.get("seat_phone"):
        return None
    if signed_in():
        session.pop("seat_phone", None)
        return None
    if request.endpoint == "games.index" and not current_app.config["PASSCODE_HASH"]:
        # the scorer's way in, on a server that asks no passcode
        session.pop("seat_phone", None)
        return None
    if unsafe and request.endpoint not in SEAT_ENDPOINTS:
        # with the way to keep score on it after all (the table may hand the scoring over). Only
        # a server with no passcode comes here: with one, a phone not signed in is asked for it
        # first, and signing in lets go of the seat (above)
        words = N_(
            "This phone opened a player's own link: it can only enter that player's points. "
            "To keep score on it, open the list of games first."
        )
        return Response(render_template("error.html", message=say(words), code=403), 403, mimetype="text/html")
    return None


def _mark_scorer(response: Response) -> Response:
    """A phone that wrote through the scorer's pages keeps score: a seat link it opens later
    (the scorer plays too) does not make it a seat phone. Marked after the answer, which may
    be a kept copy or a 304 (companion/web/freshness.py) that the view never saw."""
    if request.endpoint == "seats.show" and response.status_code in (200, 304):
        if not signed_in() and not session.get("scorer") and not session.get("seat_phone"):
            session["seat_phone"] = True
        return response
    wrote = request.method in UNSAFE_METHODS and response.status_code < 400
    mark = wrote and request.endpoint not in (*SEAT_ENDPOINTS, None) and not session.get("seat_phone")
    if mark and not session.get("scorer"):
        session["scorer"] = True
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
    app.before_request(_keep_to_its_seat)
    app.after_request(_mark_scorer)
    app.add_template_global(waiting, "shares_waiting")
    # how often the scorer's page asks for the shares, as a seat's page does
    app.jinja_env.globals["SHARES_POLL_SECONDS"] = POLL_SECONDS
