"""Black Spy games: start one, record, undo and edit deals, export one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, flash, get_flashed_messages, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict
from werkzeug.wrappers import Response

from . import black_spy_codec, kinds, parts, service, sharing
from .charts import score_chart
from .exchange import HouseRules, csv_text, export_file, new_black_spy_game
from .extensions import htmx
from .fragments import page_or_fragment
from .games import MAX_ROWS, csv_download, json_download, lost_rematch, new_game_page, to_rematch
from .i18n import say
from .models import BLACK_SPY, Deal, Game, game_of_kind, load_inputs
from .rules import N_, RulesError
from .rules import black_spy as bs
from .service import Outcome

bp = Blueprint("black_spy", __name__, url_prefix="/black-spy")

POINTS, CARDS = "points", "cards"


class ShootQuestion(Exception):
    """The points allow a shoot: the table must say whether it was one."""

    def __init__(self, candidates: tuple[int, ...]) -> None:
        super().__init__(candidates)
        self.candidates = candidates


@bp.record_once
def rulebook_words(state) -> None:
    # a global, not a context processor, so macros imported without context see it too
    state.app.jinja_env.globals.update(
        BLACK_CARDS=bs.BLACK_CARDS,
        PASSED_CARDS=bs.PASSED_CARDS,
        BLACK_SPY_PLAYERS=(bs.STANDARD.min_players, bs.STANDARD.max_players),
        DEFAULT_PRESET=bs.DEFAULT_PRESET.value,
        rematch_first_dealer=bs.rematch_first_dealer,
        # drawn by black_spy/_progress.html, once per version of a game (companion/parts.py)
        score_chart=score_chart,
    )


def load(game_id: str) -> Game:
    return game_of_kind(game_id, BLACK_SPY)


@bp.post("/new")
def create() -> Response | tuple[str, int]:
    """Seat the players and start a game."""
    form = request.form
    names = [form.get(f"player-{row}", "") for row in range(MAX_ROWS)]
    dealer_row = form.get("first_dealer", "draw")
    try:
        end_value = bs.parse_end_value(form.get("end_value"))
        shoot_rule = {"on": True, "off": False}.get(form.get("shoot_rule", ""))
        rules = bs.rule_set(
            form.get("preset", bs.DEFAULT_PRESET),
            end_value=end_value,
            shoot_rule=shoot_rule,
            first_lead=form.get("first_lead") or None,
        )
        first = None if dealer_row == "draw" else _row(dealer_row)
        setup = bs.new_setup(rules, names, first)
    except RulesError as error:
        return new_game_page(BLACK_SPY, values=form, errors=error.errors, status=422)
    game = new_black_spy_game(setup, HouseRules(rules.preset.value, end_value, shoot_rule, form.get("first_lead") or None))
    service.start(game)
    if first is None:
        flash(say(N_("The draw is made: %(name)s deals first.", name=setup.players[setup.first_dealer])))
    return redirect(url_for("black_spy.show", game_id=game.id), code=303)


def _row(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise RulesError.about("first_dealer", N_("Pick who deals first.")) from None


@bp.get("/<game_id>")
def show(game_id: str) -> Response:
    """Show the next deal, the deal form and the scoreboard."""
    game = load(game_id)
    mode = CARDS if request.args.get("mode") == CARDS else POINTS
    return render_game(game, game.state(), mode=mode)


@bp.post("/<game_id>/deals")
def record_deal(game_id: str) -> Response:
    """Record the next deal, by points or by cards."""
    game = load(game_id)
    state = game.state()
    form = request.form
    mode = CARDS if form.get("mode") == CARDS else POINTS
    submission = form.get("submission", "")[:64] or None
    posted_number = form.get("number", "")
    refused = service.refusal(game, Deal, submission, posted_number)
    if refused is Outcome.REPEATED:
        return _after_write(game, ALREADY_RECORDED)
    if refused is Outcome.STALE:
        return _changed_elsewhere(game, state, mode, form, service.posted_number(posted_number))
    if state.finished:
        message = N_("The game is over: no more deals. Undo the last deal to reopen it.")
        return render_game(game, state, mode=mode, message=message, status=409)
    try:
        entry = entry_from_form(state.setup, form, mode)
        new_state = bs.record(state.setup, game.entries(), entry)
    except ShootQuestion as question:
        return render_game(game, state, mode=mode, values=form, ask_shoot=question.candidates)
    except RulesError as error:
        return render_game(game, state, mode=mode, values=form, errors=error.errors, status=422)
    meant = len(game.deals) + 1
    deal = Deal()
    deal.set_entry(entry)
    written = service.record(game, deal, submission, posted_number)
    if written.outcome is Outcome.REPEATED:
        return _after_write(written.game, ALREADY_RECORDED)
    if not written.done:
        return _changed_elsewhere(written.game, written.game.state(), mode, form, meant)
    return _after_write(written.game, _deal_message(new_state), mode)


def _changed_elsewhere(game: Game, state: bs.GameState, mode: str, form: Mapping[str, str], meant: int | None) -> Response:
    """Another phone wrote this game first: say what it did, and keep what this phone typed."""
    if meant is not None and len(state.deals) >= meant:
        if state.finished or state.next is None:
            message = N_(
                "Deal %(number)s was just recorded from another phone, and the game is over; yours was not recorded.",
                number=meant,
            )
            return render_game(game, state, mode=mode, message=_with_typed(message, state, form, mode), status=409)
        message = N_(
            "Deal %(number)s was just recorded from another phone, so yours was not. Your numbers are kept "
            "below: record them as deal %(next)s if they are a new deal, or discard them.",
            number=meant,
            next=state.next.number,
        )
    elif state.finished or state.next is None:
        message = N_("Another phone changed this game just now and it is over; nothing you typed was recorded.")
        return render_game(game, state, mode=mode, message=_with_typed(message, state, form, mode), status=409)
    else:
        message = N_(
            "Another phone changed this game just now (a deal edited or undone), so nothing was recorded. "
            "Your numbers are kept below: check them against the scores and record them as deal %(next)s, or discard them.",
            next=state.next.number,
        )
    return render_game(game, state, mode=mode, message=message, status=409, values=form, kept=True)


def _with_typed(message: str, state: bs.GameState, form: Mapping[str, str], mode: str) -> str:
    """A refusal that leaves no form to keep this phone's numbers in, with the numbers said:
    the table can check them against the deal that was recorded before it undoes anything."""
    typed = [(name, (form.get(f"points-{seat}") or "").strip()[:12]) for seat, name in enumerate(state.setup.players)]
    if mode != POINTS or not any(text for _, text in typed):
        return message
    numbers = [f"{name}\u00a0{text or '–'}" for name, text in typed]
    return f"{say(message)} {say(N_('The numbers typed: %(numbers)s.', numbers=numbers))}"


def _deal_message(state: bs.GameState) -> str:
    deal = state.deals[-1]
    names = state.setup.players
    sentences = [say(N_("Deal %(number)s recorded.", number=deal.number))]
    if deal.shooter is not None:
        sentences.append(
            say(
                N_(
                    "%(name)s took all %(blacks)s black cards: 0 for them, %(points)s for everyone else.",
                    name=names[deal.shooter],
                    blacks=bs.BLACK_CARDS,
                    points=state.setup.rules.deal_total,
                )
            )
        )
    if state.finished:
        sentences.append(say(N_("The game is over.")))
    return " ".join(sentences)


@bp.post("/<game_id>/undo")
def undo(game_id: str) -> Response:
    """Remove the last deal; a finished game reopens."""
    game = load(game_id)
    if not game.deals:
        return render_game(game, game.state(), message=N_("There is no deal to undo."), status=409)
    last = game.deals[-1].number
    written = service.undo(game, request.form.get("number", ""))
    if written.outcome is Outcome.STALE:
        message = N_("The last deal is now deal %(number)s; nothing was undone.", number=last)
        return render_game(game, game.state(), message=message, status=409)
    if not written.done:
        message = N_("Another phone changed this game just now; nothing was undone.")
        return render_game(written.game, written.game.state(), message=message, status=409)
    return _after_write(written.game, N_("Deal %(number)s undone.", number=last))


@bp.route("/<game_id>/deals/<int:number>/edit", methods=["GET", "POST"])
def edit_deal(game_id: str, number: int) -> Response | str | tuple[str, int]:
    """Change a past deal; every later total, dealer and pass follows."""
    game = load(game_id)
    if not 1 <= number <= len(game.deals):
        if request.method == "POST" and request.form.get("version"):
            # an edit page showed this deal: another phone undid it since
            return _edit_gone(game, number)
        abort(404)
    deal = game.deals[number - 1]
    state = game.state()
    if request.method == "GET":
        mode = request.args.get("mode") or (CARDS if deal.cards is not None else POINTS)
        return _edit_page(game, state, deal, mode, values=form_values(deal))
    form = request.form
    mode = CARDS if form.get("mode") == CARDS else POINTS
    if form.get("version") and form.get("version") != str(game.version):
        return _edit_page(game, state, deal, mode, values=form_values(deal), message=STALE_EDIT), 409
    try:
        entry = entry_from_form(state.setup, form, mode)
        after = bs.edit(state.setup, game.entries(), number - 1, entry)
    except ShootQuestion as question:
        return _edit_page(game, state, deal, mode, values=form, ask_shoot=question.candidates)
    except RulesError as error:
        return _edit_page(game, state, deal, mode, values=form, errors=error.errors), 422
    written = service.edit(game, number, lambda row: row.set_entry(entry), form.get("version"))
    if not written.done:
        game = written.game
        if number > len(game.deals):
            return _edit_gone(game, number)
        deal = game.deals[number - 1]
        return _edit_page(game, game.state(), deal, mode, values=form_values(deal), message=STALE_EDIT), 409
    flash(say(N_("Deal %(number)s changed; every total after it follows.", number=number)))
    if state.finished and not after.finished and after.next is not None:
        reopened = N_(
            "The game is open again: no total reaches %(end)s now, so deal %(next)s is to play.",
            end=after.end_value,
            next=after.next.number,
        )
        flash(say(reopened))
    elif after.finished and not state.finished:
        flash(say(N_("The game is over.")))
    return redirect(url_for("black_spy.show", game_id=game.id), code=303)


def _edit_gone(game: Game, number: int) -> Response:
    """An edit of a deal another phone undid meanwhile: the game as it is now, and why."""
    message = N_("Deal %(number)s was undone on another phone just now, so your change was not saved.", number=number)
    return render_game(game, game.state(), message=message, status=409)


STALE_EDIT = N_(
    "Another phone changed this game since you opened this page, so your change was not saved. Here is the deal as it is now."
)
ALREADY_RECORDED = N_("This deal was already recorded; it is counted once.")


def _edit_page(game: Game, state: bs.GameState, deal: Deal, mode: str, message: str | None = None, **form: Any) -> str:
    return render_template(
        "black_spy/edit.html",
        game=game,
        state=state,
        deal=deal,
        message=message,
        played=state.deals[deal.number - 1],
        **deal_form_context(
            state,
            mode,
            action=url_for("black_spy.edit_deal", game_id=game.id, number=deal.number),
            default_rest=state.deals[deal.number - 1].info.dealer,
            **form,
        ),
    )


@bp.get("/<game_id>/export.json")
def export(game_id: str) -> Response:
    """Download this game as a companion/1 file."""
    game = load(game_id)
    return json_download(export_file([game]), f"black-spy-{game.id}.json")


@bp.get("/<game_id>/export.csv")
def export_csv(game_id: str) -> Response:
    """Download this game's deals as CSV, one row per player per deal."""
    game = load(game_id)
    return csv_download(csv_text([game]), f"black-spy-{game.id}.csv")


@bp.post("/<game_id>/rematch")
def rematch(game_id: str) -> Response:
    """Start a new game: same players, seats and rules; the table picks who deals first.

    Once only: a second tap, or a second phone, is sent to the rematch already made.
    """
    game = load(game_id)
    if game.rematch_id is not None:
        return to_rematch(game)
    state = game.state()
    pick = request.form.get("first_dealer")
    try:
        setup = bs.rematch(state, pick)
    except RulesError as error:
        return render_game(game, state, message=error.message, status=409 if "rematch" in error.errors else 422)
    again = new_black_spy_game(
        setup, HouseRules(game.preset or bs.DEFAULT_PRESET.value, game.end_value, game.shoot_rule, game.first_lead)
    )
    written = service.rematch(game, again)
    if not written.done:
        return lost_rematch(written.game, lambda now, message: render_game(now, now.state(), message=message, status=409))
    first = setup.players[setup.first_dealer]
    if pick == bs.DRAW:
        flash(say(N_("The draw is made: %(name)s deals first.", name=first)))
    else:
        flash(say(N_("Rematch! %(name)s deals first.", name=first)))
    return redirect(url_for("black_spy.show", game_id=again.id), code=303)


# --- reading the deal form -----------------------------------------------------------


def entry_from_form(setup: bs.Setup, form: Mapping[str, str], mode: str) -> bs.DealEntry:
    """Turn a posted deal form into a rules entry, or ask about a shoot."""
    players = setup.players
    if mode == CARDS:
        rest_text = form.get("rest", "")
        rest = None
        if rest_text not in ("", "none"):
            try:
                rest = int(rest_text)
            except ValueError:
                raise RulesError.about("rest", N_("Pick who gets the rest.")) from None
        cards = bs.parse_cards(players, form, rest, rules=setup.rules)
        return bs.CardsEntry(cards)
    raw = bs.parse_points(setup.rules, players, [form.get(f"points-{seat}") for seat in range(len(players))])
    answer = form.get("shoot")
    candidates = bs.shoot_candidates(setup.rules, raw)
    if answer is None or answer == "":
        if candidates:
            raise ShootQuestion(candidates)
        return bs.PointsEntry(raw)
    if answer == "none":
        return bs.PointsEntry(raw)
    try:
        shooter = int(answer)
    except ValueError:
        raise RulesError.about("shooter", N_("Say who took all %(blacks)s black cards.", blacks=bs.BLACK_CARDS)) from None
    return bs.PointsEntry(raw, shooter=shooter)


def form_values(deal: Deal) -> MultiDict:
    """A stored deal as the form that would enter it again."""
    values: MultiDict = MultiDict()
    if deal.cards is not None:
        values["mode"] = CARDS
        values["rest"] = "none"
        for seat, taken in enumerate(deal.cards):
            for key in ("black_spies", "low_blacks", "coloured_spies"):
                values[f"{key}-{seat}"] = str(taken[key])
            for card in taken["high_blacks"]:
                values[f"high-{card}"] = str(seat)
    else:
        values["mode"] = POINTS
        for seat, points in enumerate(deal.raw or []):
            values[f"points-{seat}"] = str(points)
        if deal.shooter is not None:
            values["shoot"] = str(deal.shooter)
    return values


# --- rendering -----------------------------------------------------------------------


def deal_form_context(
    state: bs.GameState,
    mode: str,
    action: str,
    default_rest: int | None,
    values: Mapping[str, str] | None = None,
    errors: Mapping[str, str] | None = None,
    ask_shoot: tuple[int, ...] = (),
    kept: bool = False,
    totals: tuple[int, ...] = (),
) -> dict[str, Any]:
    rules = state.setup.rules
    return {
        "mode": mode,
        "action": action,
        "values": values or {},
        "errors": errors or {},
        "ask_shoot": ask_shoot,
        "default_rest": default_rest,
        "rules": rules,
        "high_blacks": bs.HIGH_BLACKS,
        "card_counts": rules.card_counts,
        # the messages a change of who gets the rest makes out of date
        "rest_clears": " ".join(
            [f"{key}-total" for key, _, _ in rules.card_counts] + [f"high-{card}" for card in bs.HIGH_BLACKS]
        ),
        # the page counts a deal's points as the cards are typed, from the rules' values
        "card_values": {
            "counts": dict(rules.card_values),
            "high": {str(card): points for card, points in rules.high_black_points.items()},
            "black": [key for key in bs.BLACK_COUNTS if key in rules.card_values],
            # once one player's cards hold every black one, the points shown are the shoot's
            "shoot": bs.shoot_scores(rules, len(state.setup.players)),
        },
        # numbers another phone beat this one to are kept on screen, with a way to drop them
        "kept": kept,
        "totals": totals,
        "submission": parts.submission(),
    }


# deals a phone may record ahead of the server: a stretch of a game without the Wi-Fi
UPCOMING_DEALS = 12


def _said(value: Any) -> Any:
    """The rules' sentences in ``value`` said in the reader's language, for the page's script."""
    if isinstance(value, Mapping):
        return {key: _said(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_said(item) for item in value]
    return say(value)


def render_game(
    game: Game,
    state: bs.GameState,
    mode: str = POINTS,
    message: str | None = None,
    status: int = 200,
    **form: Any,
) -> Response:
    """The game page, or only its ``#game`` fragment for htmx.

    It carries what the page needs to go on while the server cannot be reached: the
    next deals' dealer, pass and lead, and the deal checks' numbers and sentences.
    """
    context = {
        "game": game,
        "state": state,
        "messages": [*get_flashed_messages(), *([message] if message else [])],
        "upcoming": bs.upcoming(state, UPCOMING_DEALS),
        "checks": _said(bs.deal_checks(state.setup.rules, state.setup.players)),
        **deal_form_context(
            state,
            mode,
            action=url_for("black_spy.record_deal", game_id=game.id),
            default_rest=state.next.dealer if state.next else None,
            totals=state.totals if state.deals else (),
            **form,
        ),
    }
    return page_or_fragment("black_spy/game.html", "black_spy/_game.html", status, **context)


def _after_write(game: Game, message: str, mode: str = POINTS) -> Response:
    """After a change: the fragment for htmx, a 303 to the game page otherwise.

    The deal form stays in the mode the table used: a table that counts cards keeps counting.
    """
    if htmx:
        return render_game(game, game.state(), mode=mode, message=message)
    flash(say(message))
    if mode == CARDS:
        return redirect(url_for("black_spy.show", game_id=game.id, mode=CARDS), code=303)
    return redirect(url_for("black_spy.show", game_id=game.id), code=303)


KIND = kinds.GameKind(
    key=BLACK_SPY,
    name=N_("Black Spy"),
    following=N_("Following Black Spy"),
    blueprint=bp,
    show="black_spy.show",
    reference="reference.black_spy",
    inputs=lambda game: game.deals,
    replay=lambda game: game.state(),
    figures=black_spy_codec.figures,
    to_json=black_spy_codec.to_json,
    parse=black_spy_codec.parse,
    rows=black_spy_codec.rows,
    csv=black_spy_codec.csv_rows,
    bgstats=sharing.black_spy_game,
    live=lambda game: {"state": game.state(), "messages": []},
    preload=lambda games: load_inputs(games, Game.deals),
)
