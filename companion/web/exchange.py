"""Every game as a file, and a file's games brought in: the home page's export and import."""

from __future__ import annotations

from collections.abc import Iterator

from flask import Blueprint, flash, redirect, render_template, request, stream_with_context, url_for
from werkzeug.wrappers import Response

from ..exchange.reading import ImportRefused, parse_file, read_json
from ..exchange.writing import csv_chunks, every_game, export_chunks
from ..rules import N_, Message, Nn_
from ..service.imports import Imported
from ..service.imports import import_games as store
from ..store.base import db
from .i18n import say

bp = Blueprint("exchange", __name__)


@bp.get("/export.json")
def export_all() -> Response:
    """Download every game as one companion/1 file, made as it is sent."""
    return _streamed(export_chunks(every_game()), "application/json", "companion-games.json")


@bp.get("/export.csv")
def export_all_csv() -> Response:
    """Download every game's deals as one CSV file, made as it is sent."""
    return _streamed(csv_chunks(every_game()), "text/csv", "companion-deals.csv")


def _streamed(chunks: Iterator[str], mimetype: str, filename: str) -> Response:
    # a club's whole history: sent as it is made, a batch of games at a time, never held
    # whole in memory (the server hands each batch to its thread for long answers)
    response = Response(stream_with_context(chunks), mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@bp.post("/import")
def import_games() -> Response | tuple[str, int]:
    """Add the games of an uploaded companion/1 file, all or none."""
    upload = request.files.get("file")
    if upload is None or not upload.filename:
        return _refused(ImportRefused([N_("Choose a companion/1 .json file to import.")]))
    skip_existing = request.form.get("skip_existing") == "yes"
    # the file is read and checked before the database is touched: the writes that follow are short
    try:
        imported = store(parse_file(read_json(upload.read())), skip_existing)
    except ImportRefused as refused:
        db.session.rollback()
        return _refused(refused)
    for message in imported_messages(imported):
        flash(say(message))
    return redirect(url_for("games.index"), code=303)


def imported_messages(imported: Imported) -> list[Message]:
    """What an import tells the table, in the order it matters."""
    said = [Nn_("Imported %(num)s game.", "Imported %(num)s games.", len(imported.games))]
    if imported.skipped:
        said.append(
            Nn_(
                "%(num)s game was already here and was skipped.",
                "%(num)s games were already here and were skipped.",
                imported.skipped,
            )
        )
    if imported.new_ids:
        said.append(
            Nn_(
                "%(num)s game had an id too short or malformed to keep private and was given a new one: its old links do not work here.",
                "%(num)s games had ids too short or malformed to keep private and were given new ones: their old links do not work here.",
                imported.new_ids,
            )
        )
    return said


def _refused(refused: ImportRefused) -> tuple[str, int]:
    # a file refused only for games already here (a backup restored where it came from)
    # can be imported without them
    return render_template(
        "games/import_refused.html", problems=refused.problems, more=refused.more, existing=refused.existing
    ), 422
