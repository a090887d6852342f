"""The slowest answers a table meets, not the typical one: a deal's POST 400 times over.

Starts `companion serve` on loopback (as the table runs it), imports a 6-player Black Spy
game of 30 deals, and records 400 more from one phone, loading the game's page between
deals as a second phone would. Prints the median, p90, p99 and the slowest deal POST, and
how many took over 20 ms: a rare long pause (the collector walking every object a worker
holds, say) shows here and in no median.

Run by hand (half a minute):

    .venv/bin/python benchmarks/tail.py [--deals 400]
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.common import Phone, black_spy, deal_form, import_games
from tests.servers import Server, free_port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=400, help="deals to record (default 400)")
    arguments = parser.parse_args()
    server = Server(Path(tempfile.mkdtemp()), free_port()).start()
    try:
        # an end value no run reaches: 10 points a player a deal
        import_games(server, [black_spy(0, 6, 30, end_value=10_000)])
        phone = Phone(server.port)
        game = re.search(r'href="/black-spy/([A-Za-z0-9]+)"', phone.request("GET", "/").text()).group(1)
        form = deal_form(phone.request("GET", f"/black-spy/{game}").text())
        spent: list[float] = []
        for _ in range(arguments.deals):
            deal = {**form, "mode": "points", **{f"points-{seat}": "10" for seat in range(6)}}
            started = time.perf_counter()
            answer = phone.request("POST", f"/black-spy/{game}/deals", deal, {"HX-Request": "true"})
            spent.append(time.perf_counter() - started)
            assert answer.status == 200, answer.status
            form = deal_form(answer.text())
            phone.request("GET", f"/black-spy/{game}")
        spent.sort()

        def at(share: float) -> float:
            return spent[round(share * (len(spent) - 1))] * 1000

        print(f"{len(spent)} deal POSTs, 30 deals on, a page load between each; ms")
        print(f"  median {at(0.5):.1f}  p90 {at(0.9):.1f}  p99 {at(0.99):.1f}  slowest {spent[-1] * 1000:.1f}")
        print(f"  over 20 ms: {sum(took > 0.020 for took in spent)}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
