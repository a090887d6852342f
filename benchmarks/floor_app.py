"""The smallest app that records something the way the companion must: the floor under a deal's POST.

A Flask view behind Flask-WTF's CSRF check that inserts one row through Flask-SQLAlchemy's
session into SQLite (WAL, as the companion runs it), commits, and renders a fragment of six
names and numbers with Jinja, compressed by Flask-Compress like every companion page. No
rules, no game to read, no kept figures: what is left is the price of the stack itself.
benchmarks/write_floor.py serves it with granian beside the companion and times it.

``/tap`` is the same write as a phone's page makes it: the companion's css and htmx, a form
of six numbers posted by htmx to ``/tap/record``, whose answer (the six numbers and the
form again) takes the form's place. benchmarks/tap.py taps it beside the companion's entries:
the least any htmx tap that writes can cost on this stack and this machine.
"""

from __future__ import annotations

import os

from flask import Flask, render_template_string, request
from flask_compress import Compress
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect, generate_csrf
from sqlalchemy import event
from sqlalchemy.orm import Mapped, mapped_column

db = SQLAlchemy()


class Row(db.Model):  # type: ignore[name-defined]
    __tablename__ = "floor_rows"  # beside the companion's tables when they share a database
    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str]
    number: Mapped[int]
    points: Mapped[str]


FRAGMENT = """<div id="game"><p>Deal {{ number }} recorded.</p><table>
{% for name, points in scores %}<tr><th>{{ name }}</th><td>{{ points }}</td></tr>{% endfor %}
</table><form method="post"><input type="hidden" name="csrf_token" value="{{ csrf_token() }}">
<input name="number" value="{{ number + 1 }}"><button>Record</button></form></div>"""

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]

# the tap's form: six labelled numbers, posted by htmx, its answer in its place
TAP_FRAGMENT = """<div id="game">{% if scores %}<p>Deal {{ number }} recorded.</p><table>
{% for name, points in scores %}<tr><th>{{ name }}</th><td>{{ points }}</td></tr>{% endfor %}
</table>{% endif %}<form hx-post="/tap/record" hx-target="#game" hx-swap="outerHTML">
<input type="hidden" name="csrf_token" value="{{ csrf_token() }}"><input type="hidden" name="number" value="{{ number + 1 }}">
{% for name in names %}<label>{{ name }} <input name="points-{{ loop.index0 }}" inputmode="numeric"></label>{% endfor %}
<button>Record</button></form></div>"""
# htmx with the companion's settings that bear on a tap (templates/base.html): no settle
# delay, no eval, no scripts from an answer
TAP_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"defaultSettleDelay":0}'>
<link rel="stylesheet" href="/static/app.css"><script src="/static/htmx.min.js"></script>
<title>Floor</title></head><body><main>{{ fragment|safe }}</main></body></html>"""


def _wal(connection, _record) -> None:
    # WAL, and SQLite's own synchronous=FULL as companion/store/sqlite.py leaves it: a commit
    # is on the disk when it returns, as a recorded deal must be (NORMAL, which this floor
    # once used, skips that sync and made the floor ~0.4 ms lower than any write the
    # companion may make)
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.close()


def create_app() -> Flask:
    app = Flask(__name__, static_folder=os.environ["FLOOR_STATIC"], static_url_path="/static")
    app.config.update(
        SECRET_KEY="floor",
        SQLALCHEMY_DATABASE_URI=os.environ["FLOOR_DATABASE_URL"],
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_BR_LEVEL=5,
    )
    db.init_app(app)
    CSRFProtect(app)
    Compress(app)
    with app.app_context():
        if db.engine.dialect.name == "sqlite":
            event.listen(db.engine, "connect", _wal)
        db.create_all()

    @app.get("/")
    def form() -> str:
        return f'<input name="csrf_token" value="{generate_csrf()}">'

    @app.post("/record")
    def record() -> str:
        number = int(request.form["number"])
        points = [int(request.form[f"points-{seat}"]) for seat in range(6)]
        db.session.add(Row(game="floor", number=number, points=",".join(map(str, points))))
        db.session.commit()
        return render_template_string(FRAGMENT, number=number, scores=list(zip(NAMES, points, strict=True)))

    @app.get("/tap")
    def tap_page() -> str:
        return render_template_string(TAP_PAGE, fragment=render_template_string(TAP_FRAGMENT, number=0, scores=(), names=NAMES))

    @app.post("/tap/record")
    def tap_record() -> str:
        number = int(request.form["number"])
        points = [int(request.form[f"points-{seat}"]) for seat in range(6)]
        db.session.add(Row(game="tap", number=number, points=",".join(map(str, points))))
        db.session.commit()
        return render_template_string(TAP_FRAGMENT, number=number, scores=list(zip(NAMES, points, strict=True)), names=NAMES)

    return app


app = create_app() if "FLOOR_DATABASE_URL" in os.environ else None
