"""A real `companion serve` process on loopback: phones racing, and a crash mid-stream."""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.databases import Databases
from tests.servers import Phone, Server, free_port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Server]:
    """One server for the races: each test starts games of its own, and a start-up costs a
    second or two of CPU."""
    running = Server(tmp_path_factory.mktemp("stress") / "instance", free_port(), databases.fresh()).start()
    yield running
    running.stop()


@pytest.fixture
def own_server(tmp_path: Path, databases: Databases) -> Iterator[Server]:
    """A server this test alone uses, and kills."""
    running = Server(tmp_path / "instance", free_port(), databases.fresh()).start()
    yield running
    running.stop()


def deals_in(phone: Phone, game: str) -> list[int]:
    page = phone.get(f"/black-spy/{game}/export.json")
    return [deal["number"] for deal in json.loads(page)["games"][0]["derived"]["deals"]]


def _at_once(sends: list[tuple[Phone, dict[str, str]]], address: str) -> list[tuple[int, str, str]]:
    """Post each phone's form to the address at the same instant; the answers in the same order."""
    return _each_at_once([(phone, address, form) for phone, form in sends])


def _each_at_once(sends: list[tuple[Phone, str, dict[str, str]]]) -> list[tuple[int, str, str]]:
    """Post each phone's form to its own address at the same instant; the answers in order."""
    barrier = threading.Barrier(len(sends))
    results: list[tuple[int, str, str]] = [None] * len(sends)  # type: ignore[list-item]

    def send(index: int, phone: Phone, address: str, form: dict[str, str]) -> None:
        barrier.wait()
        results[index] = phone.post(address, form)

    threads = [threading.Thread(target=send, args=(index, *sent)) for index, sent in enumerate(sends)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_two_phones_recording_the_same_deal_at_once_store_it_once_and_tell_the_other(server: Server) -> None:
    ana, ben = Phone(server.url), Phone(server.url)
    game = ana.start_game()
    for number in range(1, 6):
        forms = [ana.deal_form(game, [20, 15, 25, 0], number), ben.deal_form(game, [10, 10, 10, 30], number)]
        results = _at_once([(ana, forms[0]), (ben, forms[1])], f"/black-spy/{game}/deals")
        statuses = sorted(result[0] for result in results)
        assert statuses == [303, 409], results
        refused = next(result for result in results if result[0] == 409)
        assert f"Deal {number} was just recorded from another phone" in refused[2]
    assert deals_in(ana, game) == [1, 2, 3, 4, 5]


def test_an_edit_sent_from_a_page_that_is_out_of_date_is_refused(server: Server) -> None:
    ana, ben = Phone(server.url), Phone(server.url)
    game = ana.start_game()
    status, _, _ = ana.post(f"/black-spy/{game}/deals", ana.deal_form(game, [20, 15, 25, 0], 1))
    assert status == 303
    pages = [phone.get(f"/black-spy/{game}/deals/1/edit") for phone in (ana, ben)]
    forms = []
    for page, points in zip(pages, ([0, 15, 25, 20], [60, 0, 0, 0]), strict=True):
        form = {name: value for name, value in re.findall(r'name="(csrf_token|version|number)" value="([^"]*)"', page)}
        form.update({"mode": "points", "shoot": "none", **{f"points-{seat}": str(value) for seat, value in enumerate(points)}})
        forms.append(form)
    assert ana.post(f"/black-spy/{game}/deals/1/edit", forms[0])[0] == 303
    status, _, body = ben.post(f"/black-spy/{game}/deals/1/edit", forms[1])
    assert status == 409
    assert "Another phone changed this game since you opened this page" in body
    exported = json.loads(ana.get(f"/black-spy/{game}/export.json"))
    assert exported["games"][0]["deals"][0]["raw"] == {"Ana": 0, "Ben": 15, "Cy": 25, "Dee": 20}


def test_a_server_killed_mid_stream_keeps_every_deal_it_confirmed(own_server: Server) -> None:
    server = own_server
    phone = Phone(server.url)
    game = phone.start_game(end_value="10000")
    confirmed: list[int] = []
    stop = threading.Event()

    def stream() -> None:
        number = 1
        while not stop.is_set():
            try:
                form = phone.deal_form(game, [20, 15, 25, 0], number)
                status, _, _ = phone.post(f"/black-spy/{game}/deals", form)
            except (OSError, AttributeError):
                return  # the server is gone
            if status == 303:
                confirmed.append(number)
                number += 1

    writer = threading.Thread(target=stream)
    writer.start()
    # a writer that gave up (a post timed out on a busy machine) confirms no more: stop waiting
    while len(confirmed) < 15 and writer.is_alive():
        writer.join(0.05)
    server.kill()
    stop.set()
    writer.join(timeout=30)
    assert len(confirmed) >= 15
    server.start()
    stored = deals_in(Phone(server.url), game)
    assert stored[: len(confirmed)] == confirmed
    assert stored == list(range(1, len(stored) + 1))
    url = make_url(server.database_url)
    if url.get_backend_name() == "sqlite":
        server.stop()
        with sqlite3.connect(url.database) as connection:
            assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
            assert connection.execute("PRAGMA journal_mode").fetchone() == ("wal",)


def test_six_players_sending_their_shares_at_the_same_moment_store_one_deal_each_time(server: Server) -> None:
    scorer = Phone(server.url)
    names = ["Ana", "Ben", "Cy", "Dee", "Eve", "Fay"]
    form = {"csrf_token": scorer.token("/new"), "first_dealer": "0", **{f"player-{row}": name for row, name in enumerate(names)}}
    status, location, _ = scorer.post("/black-spy/new", form)
    assert status == 303
    game = location.rsplit("/", 1)[1]
    phones_page = scorer.get(f"/black-spy/{game}/phones")
    links = dict(re.findall(r'<a data-seat="(\d)" href="https?://[^/"]+(/seat/[^"]+)"', phones_page))
    phones = [Phone(server.url) for _ in names]
    for number, points in enumerate(([10] * 6, [5, 15, 5, 15, 5, 15], [20, 0, 20, 0, 20, 0]), start=1):
        sends = []
        for seat, phone in enumerate(phones):
            page = phone.get(links[str(seat)])
            fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page.split("data-seat-entry", 1)[1]))
            assert fields["number"] == str(number)
            sends.append((phone, {**fields, "points": str(points[seat])}))
        # each to its own seat's address, at the same instant
        results = _each_at_once([(phone, links[str(seat)], fields) for seat, (phone, fields) in enumerate(sends)])
        assert [result[0] for result in results] == [303] * 6, results
        assert deals_in(scorer, game) == list(range(1, number + 1))
        # a phone that sends its share again (a double tap, a replay) changes nothing
        assert sends[0][0].post(links["0"], sends[0][1])[0] in (303, 409)
        assert deals_in(scorer, game) == list(range(1, number + 1))
    raw = [deal["raw"]["Fay"] for deal in json.loads(scorer.get(f"/black-spy/{game}/export.json"))["games"][0]["deals"]]
    assert raw == [10, 15, 0]
