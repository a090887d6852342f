"""What a kind's pages answer with, the same for every kind: a file to download, the way
to a rematch already made, an edit of an input another phone undid, and the entries another
phone recorded meanwhile."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from flask import Response, flash, redirect, url_for
from werkzeug.wrappers import Response as Answer

from .. import registry
from ..exchange.writing import export_file
from ..rules import N_, Message
from ..service import Outcome, Written
from ..store.games import Game
from .i18n import say

G = TypeVar("G", bound=Game)


def run_said(numbers: Sequence[int]) -> list[int] | str:
    """Entries another phone recorded while this one was behind, as a sentence names them:
    each by number ("4 and 5", "4, 5 and 6", in the reader's language), or a run of more as
    its ends ("4–17"), which a phone's line holds."""
    return list(numbers) if len(numbers) <= 3 else f"{numbers[0]}\u2013{numbers[-1]}"


def json_download(games: Sequence[Game], filename: str) -> Response:
    """These games as a companion/1 file to download."""
    response = Response(json.dumps(export_file(games), indent=2, ensure_ascii=False) + "\n", mimetype="application/json")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_download(columns: Sequence[str], rows: Iterable[Sequence[Any]], filename: str) -> Response:
    """Rows under these columns as a CSV file to download."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(columns)
    writer.writerows(rows)
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


REMATCH_REFUSED = N_("Another phone changed this game just now; no rematch was started.")


def to_rematch(game: Game) -> Answer:
    """A second tap on Rematch, or another phone's: the rematch already made, once."""
    flash(say(N_("The rematch is already on: here it is.")))
    return redirect(url_for(registry.of(game).show, game_id=game.rematch_id), code=303)


def rematch_refused(written: Written[G], show: Callable[[G, Message], Answer]) -> Answer:
    """A rematch that was not started: the one another tap or phone made (``TAKEN``), or
    else the game ``show``n with the news that none was started."""
    if written.outcome is Outcome.TAKEN:
        flash(say(N_("The rematch is already on: here it is.")))
        return redirect(url_for(registry.of(written.game).show, game_id=written.game.id), code=303)
    return show(written.game, REMATCH_REFUSED)


def edit_gone(game: Game, gone: Message, show: str, form: Mapping[str, str]) -> Answer:
    """An edit of an input another phone undid meanwhile: the game page (at its own address:
    a page left at the edit's would be a 404 when reloaded), why (``gone``), and the points
    this phone typed in its boxes (points-0, points-1, ...), to enter again where they belong."""
    flash(say(gone))
    typed = [f"{name} {text}" for name, text in typed_points(game.player_names, form) if text]
    if typed:
        flash(say(N_("You had typed %(typed)s.", typed=typed)))
    return redirect(url_for(show, game_id=game.id), code=303)


def typed_points(players: Sequence[str], form: Mapping[str, str]) -> list[tuple[str, str]]:
    """Each player and what their points box (points-0, points-1, ...) held, as said back to
    a phone whose numbers found no form to stay in: trimmed, and cut short."""
    return [(name, (form.get(f"points-{seat}") or "").strip()[:12]) for seat, name in enumerate(players)]
