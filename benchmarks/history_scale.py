"""Do the history and statistics pages stay fast as the games pile up?

Fills a fresh SQLite database (or PostgreSQL, with TEST_DATABASE_URL) with finished
Black Spy games of 4–6 players and 20–40 deals, then times the server's handling of
the history page, a player's statistics page and a game page, beside a trivial route
of the same app in the same run, at 1,000 and at 10,000 games. Run by hand:

    .venv/bin/python benchmarks/history_scale.py
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sqlalchemy import select

from companion.kinds.black_spy import rules as bs
from companion.store.base import db
from companion.store.games import Game
from companion.store.players import Player
from tests.databases import Databases
from tests.helpers import make_app

NAMES = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]
DECK = (
    [("black_spies", None)] * bs.BLACK_SPIES
    + [("low_blacks", None)] * bs.LOW_BLACKS
    + [("high", card) for card in bs.HIGH_BLACKS]
    + [("coloured_spies", None)] * bs.COLOURED_SPIES
)


def random_deal(rng: random.Random, players: int) -> bs.CardsEntry:
    counts = [{"black_spies": 0, "low_blacks": 0, "coloured_spies": 0, "high": set()} for _ in range(players)]
    for kind, card in DECK:
        taker = counts[rng.randrange(players)]
        if kind == "high":
            taker["high"].add(card)
        else:
            taker[kind] += 1
    return bs.CardsEntry(
        tuple(bs.Cards(row["black_spies"], row["low_blacks"], frozenset(row["high"]), row["coloured_spies"]) for row in counts)
    )


def finished_game(rng: random.Random) -> tuple[bs.Setup, list[bs.CardsEntry], bs.GameState, int]:
    """A game whose house end value is reached exactly at its last deal."""
    while True:
        players = rng.randint(4, 6)
        deals = [random_deal(rng, players) for _ in range(rng.randint(20, 40))]
        names = tuple(rng.sample(NAMES, players))
        open_rules = bs.STANDARD.with_house_rules(end_value=bs.MAX_END_VALUE)
        totals = bs.replay(bs.Setup(open_rules, names, 0), deals)
        end = max(totals.totals)
        if end < 1 or any(max(deal.totals) >= end for deal in totals.deals[:-1]):
            continue
        setup = bs.Setup(bs.STANDARD.with_house_rules(end_value=end), names, rng.randrange(players))
        state = bs.replay(setup, deals)
        if state.finished:
            return setup, deals, state, end


def fill(app, count: int, rng: random.Random, start: datetime) -> None:
    """Finished games written through the app's own import, its bulk write path: the kept
    figures and the statistics are the ones a table's games get."""
    from companion.kinds.black_spy.codec import BlackSpyInput
    from companion.service.imports import import_games

    items = []
    for index in range(count):
        setup, entries, state, end = finished_game(rng)
        items.append(
            BlackSpyInput(
                id=None,
                created_at=start + timedelta(hours=index),
                preset="standard",
                end_value=end,
                shoot_rule=None,
                first_lead=None,
                setup=setup,
                entries=tuple(entries),
                state=state,
            )
        )
    with app.app_context():
        for chunk in range(0, len(items), 5000):
            import_games(items[chunk : chunk + 5000])


def server_time(client, url: str, repeat: int = 15) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - started)
        assert response.status_code == 200, (url, response.status_code)
    return statistics.median(times)


def measure(app, label: str) -> None:
    client = app.test_client()
    with app.app_context():
        player = db.session.scalar(select(Player.id).where(Player.name == "Ana"))
        game = db.session.scalar(select(Game.id).order_by(Game.created_at.desc()))
    pages = {
        "trivial (/offline)": "/offline",
        "history": "/history",
        "history, one player": f"/history?player={player}&state=finished",
        "player statistics": f"/players/{player}",
        "game page": f"/black-spy/{game}",
    }
    baseline = server_time(client, pages["trivial (/offline)"])
    print(f"\n{label}")
    for name, url in pages.items():
        spent = server_time(client, url)
        print(f"  {name:22} {spent * 1000:8.1f} ms   {spent / baseline:6.1f} x trivial")


def main() -> None:
    rng = random.Random(1982)
    databases = Databases(Path(tempfile.mkdtemp()))
    app = make_app(databases.fresh())
    start = datetime(2020, 1, 1)
    fill(app, 1_000, rng, start)
    measure(app, f"1,000 finished games ({databases.kind})")
    fill(app, 9_000, rng, start + timedelta(hours=1_000))
    measure(app, f"10,000 finished games ({databases.kind})")
    databases.close()


if __name__ == "__main__":
    main()
