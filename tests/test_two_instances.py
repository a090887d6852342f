"""Two instances behind one address, as a club outgrows one machine: Caddy's load balancer in
front (deploy/Caddyfile.instances), one database and one SECRET_KEY behind, and the
passcode's tries counted in one Redis. A phone signs in, records, undoes, follows and is
paused after too many wrong tries the same whichever instance answers; an instance stopped
mid-game loses nothing."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.databases import Databases
from tests.servers import CHECKOUT, Phone, Server, free_port

CADDY = shutil.which("caddy")
REDIS = shutil.which("redis-server")
pytestmark = pytest.mark.skipif(
    CADDY is None or REDIS is None,
    reason="Debian's caddy and redis-server packages are not installed (scripts/system-packages.sh installs them)",
)
PASSCODE = "seven spies"


def listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
    except OSError:
        return False
    return True


def wait_for(port: int, process: subprocess.Popen, what: str, log: Path) -> None:
    deadline = time.monotonic() + 30
    while not listening(port):
        if process.poll() is not None or time.monotonic() > deadline:
            pytest.fail(f"{what} did not start: {log.read_text()}")
        time.sleep(0.1)


@dataclass
class Club:
    address: str
    instances: list[Server]
    redis_port: int


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory, databases: Databases) -> Iterator[Club]:
    """One club for the module's tests (five processes take some seconds to start): each plays
    games of its own, and one that stops an instance starts it again."""
    tmp_path = tmp_path_factory.mktemp("club")
    processes: list[subprocess.Popen] = []
    instances: list[Server] = []
    try:
        redis_port = free_port()
        redis_log = tmp_path / "redis.log"
        with redis_log.open("wb") as log:
            processes.append(
                subprocess.Popen(
                    [REDIS, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        wait_for(redis_port, processes[-1], "redis-server", redis_log)
        shared = {
            "SECRET_KEY": "one key for every instance of the club",
            "RATELIMIT_STORAGE_URI": f"redis://127.0.0.1:{redis_port}/0",
            "COMPANION_PASSCODE": PASSCODE,
            "COMPANION_PROXY": "1",
            # the site's name alone: the proxy's health checks, which name each instance's
            # own address, are answered all the same
            "COMPANION_HOSTS": "localhost",
        }
        database = databases.fresh()
        # one after the other: the first brings the database up to date, the next finds it so
        for name in ("a", "b"):
            instances.append(Server(tmp_path / name, free_port(), database, extra_env=shared).start())
        port = free_port()
        caddy_log = tmp_path / "caddy.log"
        env = {
            "COMPANION_SITE": f"http://localhost:{port}",
            "COMPANION_UPSTREAMS": " ".join(f"127.0.0.1:{instance.port}" for instance in instances),
            "CADDY_ADMIN": "off",
            "HOME": str(tmp_path),
            "XDG_DATA_HOME": str(tmp_path / "caddy-data"),
            "XDG_CONFIG_HOME": str(tmp_path / "caddy-config"),
            "PATH": "/usr/bin:/bin",
        }
        config = CHECKOUT / "deploy" / "Caddyfile.instances"
        with caddy_log.open("wb") as log:
            processes.append(
                subprocess.Popen(
                    [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        wait_for(port, processes[-1], "caddy", caddy_log)
        yield Club(f"http://localhost:{port}", instances, redis_port)
    finally:
        for process in reversed(processes):
            process.terminate()
            process.wait(timeout=10)
        for instance in instances:
            instance.stop()


def signed_in(address: str) -> Phone:
    phone = Phone(address)
    status, location, _ = phone.post("/passcode", {"csrf_token": phone.token("/passcode"), "passcode": PASSCODE, "next": "/"})
    assert (status, location) == (303, "/"), status
    return phone


def at(phone: Phone, instance: Server) -> Phone:
    """The same phone (its cookies) asking one instance directly, past the proxy."""
    return Phone(f"http://localhost:{instance.port}", jar=phone.jar)


def deals(phone: Phone, game: str) -> list[int]:
    return [deal["number"] for deal in json.loads(phone.get(f"/black-spy/{game}/export.json"))["games"][0]["derived"]["deals"]]


def test_a_phone_plays_the_same_whichever_instance_answers(club: Club) -> None:
    phone = signed_in(club.address)
    game = phone.start_game()
    # round robin: each request goes to the other instance than the one before
    for number, points in enumerate(([20, 15, 25, 0], [10, 30, 0, 20], [5, 5, 45, 5]), start=1):
        status, _, body = phone.post(f"/black-spy/{game}/deals", phone.deal_form(game, points, number))
        assert status == 303, body
    status, _, _ = phone.post(f"/black-spy/{game}/undo", {"csrf_token": phone.token(f"/black-spy/{game}"), "number": "3"})
    assert status == 303
    assert deals(phone, game) == [1, 2]
    # the follow link, read without the passcode, from both instances alike
    follow = re.search(r'<p class="link"><a href="[^"]*(/watch/[^"]+)"', phone.get(f"/black-spy/{game}")).group(1)
    for instance in club.instances:
        page = Phone(f"http://localhost:{instance.port}").get(follow)
        assert "Ana" in page and "Deal 3" in page
        # the phone's session, signed with the shared key, is good at each instance
        assert 'id="points-0"' in at(phone, instance).get(f"/black-spy/{game}")


def test_wrong_passcode_tries_are_counted_once_for_the_whole_club(club: Club) -> None:
    guest = Phone(club.address)
    token = guest.token("/passcode")
    statuses = [guest.post("/passcode", {"csrf_token": token, "passcode": "wrong", "next": "/"})[0] for _ in range(6)]
    # five wrong tries a minute from one network, wherever they landed; the sixth is paused
    assert statuses == [401] * 5 + [429]
    for instance in club.instances:
        assert at(guest, instance).post("/passcode", {"csrf_token": token, "passcode": PASSCODE, "next": "/"})[0] == 429
    # the pause is the whole club's, this loopback's included: lifted for the module's other tests
    import redis

    redis.Redis(port=club.redis_port).flushall()


def test_an_instance_stopped_mid_game_loses_nothing(club: Club) -> None:
    phone = signed_in(club.address)
    game = phone.start_game()
    for number in (1, 2):
        assert phone.post(f"/black-spy/{game}/deals", phone.deal_form(game, [20, 15, 25, 0], number))[0] == 303
    club.instances[0].stop()
    # the proxy sends every request to the instance still there, the deal too
    for number in (3, 4, 5):
        status, _, body = phone.post(f"/black-spy/{game}/deals", phone.deal_form(game, [20, 15, 25, 0], number))
        assert status == 303, body
    assert deals(phone, game) == [1, 2, 3, 4, 5]
    club.instances[0].start()
    assert deals(at(phone, club.instances[0]), game) == [1, 2, 3, 4, 5]
