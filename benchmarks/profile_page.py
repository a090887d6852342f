"""Where a game page's time goes, in this one process: the figures benchmarks/pages.py times.

Builds the app on a fresh SQLite database in a temporary folder, imports a 6-player Black
Spy game of 30 deals, a Spy game of 100 turns and a score pad of 60 rounds, and for one of
them (``black-spy``, ``spy`` or ``scorepad``) prints the median CPU time of its page beside
the css file's: made (the first phone to ask for this version of the game) and kept (every
phone after it, companion/web/freshness.py). Then, for the made page, how much of it is
the template, and cProfile's time by package, file and function. ``deal-post`` does the
same for a deal posted with htmx into the 30-deal game, with the fragment it returns. Run
by hand:

    .venv/bin/python benchmarks/profile_page.py black-spy
    .venv/bin/python benchmarks/profile_page.py deal-post
"""

from __future__ import annotations

import cProfile
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import black_spy, deal_form, scorepad_game, spy_game

REPEAT = 40


def cpu_ms(action: Callable[[], object], repeat: int = REPEAT) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        action()
        times.append(time.process_time() - started)
    return statistics.median(times) * 1000


def a_deal(client, path: str) -> Callable[[], object]:
    """Post the next deal as the page's htmx does, with the form's fields from the last answer."""
    fields = deal_form(client.get(path).get_data(as_text=True))

    def post() -> object:
        data = {**fields, "mode": "points", **{f"points-{seat}": "10" for seat in range(6)}}
        answer = client.post(f"{path}/deals", data=data, headers={"HX-Request": "true"})
        assert answer.status_code == 200, answer.status_code
        fields.update(deal_form(answer.get_data(as_text=True)))
        return answer

    return post


def main() -> None:
    which = sys.argv[1] if len(sys.argv) > 1 else "black-spy"
    folder = tempfile.mkdtemp()
    os.environ["COMPANION_INSTANCE"] = folder
    import flask.templating
    from flask_migrate import upgrade

    from companion import create_app
    from companion.exchange.reading import parse_file
    from companion.service.imports import import_games
    from companion.store.base import db
    from companion.store.games import Game

    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/profile.sqlite3", "SECRET_KEY": "profile"})
    with app.app_context():
        upgrade()
        games = [black_spy(0, 6, 30, end_value=10_000), spy_game(100), scorepad_game(60)]
        import_games(parse_file({"format": "companion/1", "games": games}))
        ids = {game.kind: game.id for game in db.session.query(Game)}
    client = app.test_client()
    path = f"/{which}/{ids[which]}" if which != "deal-post" else f"/black-spy/{ids['black-spy']}"
    assert client.get(path).status_code == 200
    pages = app.extensions["companion.pages"]

    def made() -> object:
        pages.clear()  # as if no phone had asked for this version yet
        return client.get(path)

    kept = cpu_ms(lambda: client.get(path)) if which != "deal-post" else None
    action = made if which != "deal-post" else a_deal(client, path)

    spent = {"template": 0.0}
    render = flask.templating._render

    def timed_render(*args):
        started = time.process_time()
        try:
            return render(*args)
        finally:
            spent["template"] += time.process_time() - started

    flask.templating._render = timed_render
    page = cpu_ms(action)
    template = spent["template"] / REPEAT * 1000
    css = cpu_ms(lambda: client.get("/static/css/app.css"))
    print(
        f"{which} page {page:.2f} ms of CPU, the css file {css:.2f} ms ({page / css:.1f}x); the template about {template:.2f} ms"
    )
    if kept is not None:
        print(f"{which} page kept for another phone {kept:.2f} ms of CPU ({kept / css:.1f}x the css file)")

    profile = cProfile.Profile(time.process_time)
    profile.enable()
    for _ in range(REPEAT):
        action()
    profile.disable()
    by_place: Counter[str] = Counter()
    for (file, _line, _name), (_calls, _primitive, own, _total, _callers) in pstats.Stats(profile).stats.items():  # type: ignore[attr-defined]
        place = (
            file.split("site-packages/")[-1].split("/")[0] if "site-packages" in file else file.replace(str(Path.cwd()) + "/", "")
        )
        by_place[place] += own
    total = sum(by_place.values())
    print("own time by package or file, under the profiler (which inflates small calls):")
    for place, own in by_place.most_common(15):
        print(f"  {100 * own / total:5.1f}%  {place}")
    print("and by function, with its calls per page:")
    stats = pstats.Stats(profile).stats.items()  # type: ignore[attr-defined]
    for (file, line, name), (calls, _primitive, own, _total, _callers) in sorted(stats, key=lambda item: -item[1][2])[:25]:
        where = file.split("site-packages/")[-1] if "site-packages" in file else file.replace(str(Path.cwd()) + "/", "")
        print(f"  {100 * own / total:5.1f}%  {calls // REPEAT:>6}  {name}  {where}:{line}")


if __name__ == "__main__":
    main()
