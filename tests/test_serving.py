"""`companion serve` as a process: both addresses, what it prints, idle phones, a hard stop."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import ssl
import stat
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.serving import addresses, tls
from tests.databases import Databases
from tests.servers import Server, free_port


@pytest.fixture
def both(tmp_path: Path, sqlite_databases: Databases) -> Iterator[Server]:
    """A server of this test's own, at both addresses: for a test that stops or kills it."""
    running = Server(tmp_path / "instance", free_port(), sqlite_databases.empty(), https_port=free_port()).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory, sqlite_databases: Databases) -> Iterator[Server]:
    """One server at both addresses for the tests that leave it running: each starts games of
    its own, and a start-up costs a second or two."""
    folder = tmp_path_factory.mktemp("shared") / "instance"
    running = Server(folder, free_port(), sqlite_databases.fresh(), https_port=free_port()).start()
    yield running
    running.stop()


def trusting(server: Server) -> ssl.SSLContext:
    """A client that trusts the table's authority, as a phone that installed it does."""
    return ssl.create_default_context(cafile=str(server.folder / "tls" / "ca.crt"))


def get(url: str, context: ssl.SSLContext | None = None, timeout: float = 5) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=timeout, context=context) as response:
        return response.status, response.read().decode()


def test_serve_answers_at_the_plain_and_the_secure_address(shared: Server) -> None:
    status, page = get(f"{shared.url}/")
    assert status == 200 and "<html" in page
    status, page = get(f"https://localhost:{shared.https_port}/", trusting(shared))
    assert status == 200 and "<html" in page
    status, page = get(f"https://127.0.0.1:{shared.https_port}/phone", trusting(shared))
    assert 'data-phone-state="set"' in page


def test_serve_prints_the_secure_address_the_fingerprint_and_a_qr_code(shared: Server) -> None:
    material = tls.load(shared.folder / "tls")
    printed = (shared.folder / "server.log").read_text()
    assert f"https://127.0.0.1:{shared.https_port}/" in printed
    assert material.ca_fingerprint in printed
    assert "█" in printed  # the QR codes, drawn in block characters
    # a phone new to the table is sent to the trust page first, then to the secure address
    assert f"scan to trust its certificate once (http://127.0.0.1:{shared.port}/phone)" in printed
    assert f"scan to open the secure address (https://127.0.0.1:{shared.https_port}/)" in printed
    assert "PRIVATE KEY" not in printed


def test_the_private_keys_are_readable_by_their_owner_alone(shared: Server) -> None:
    for name in ("ca.key", "server.key"):
        mode = stat.S_IMODE((shared.folder / "tls" / name).stat().st_mode)
        assert mode == 0o600, f"{name} has mode {oct(mode)}"
    assert stat.S_IMODE((shared.folder / "tls").stat().st_mode) == 0o700


def test_a_second_start_keeps_the_authority_a_phone_already_trusts(both: Server) -> None:
    before = (both.folder / "tls" / "ca.crt").read_bytes()
    both.stop()
    both.start()
    assert (both.folder / "tls" / "ca.crt").read_bytes() == before
    assert get(f"https://localhost:{both.https_port}/", trusting(both))[0] == 200


def test_150_idle_connections_do_not_lock_out_the_next_phone(shared: Server) -> None:
    idle = []
    try:
        for port in (shared.port, shared.https_port):
            for _ in range(150):
                idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        started = time.monotonic()
        assert get(f"{shared.url}/", timeout=5)[0] == 200
        assert get(f"https://localhost:{shared.https_port}/", trusting(shared), timeout=5)[0] == 200
        assert time.monotonic() - started < 2.0, "a page took more than a second each behind 300 idle connections"
    finally:
        for connection in idle:
            connection.close()


KEPT_OPEN = 1300  # more than granian's default let in (backlog 1024 in all); some 220 tables


def test_a_club_of_phones_each_keeping_its_connection_open_leaves_room_for_the_next(
    tmp_path: Path, sqlite_databases: Databases
) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * KEPT_OPEN)), hard))
    server = Server(tmp_path / "instance", free_port(), sqlite_databases.fresh()).start()
    phones: list[socket.socket] = []
    try:
        # each phone asks once and keeps its connection, as a browser polling a game does
        for _ in range(KEPT_OPEN):
            phone = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            phone.sendall(b"GET /static/icons/icon.svg HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            phones.append(phone)
        for phone in phones:
            assert phone.recv(64).startswith(b"HTTP/1.1 200"), "a phone at the table got no answer"
        assert get(f"{server.url}/", timeout=10)[0] == 200
    finally:
        for phone in phones:
            phone.close()
        server.stop()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_with_https_port_off_there_is_only_the_plain_address(tmp_path: Path, sqlite_databases: Databases) -> None:
    server = Server(tmp_path / "instance", free_port(), sqlite_databases.fresh()).start()
    try:
        assert get(f"{server.url}/")[0] == 200
        printed = (server.folder / "server.log").read_text()
        assert "no secure address (HTTPS_PORT=off)" in printed
        assert not (server.folder / "tls").exists()
    finally:
        server.stop()


def closed_within(port: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            time.sleep(0.1)
        except OSError:
            return True
    return False


def test_a_serve_killed_outright_leaves_no_listener_behind(both: Server) -> None:
    # only the supervising process is killed, not its group: its listeners follow it
    os.kill(both.process.pid, signal.SIGKILL)
    both.process.wait()
    assert closed_within(both.port, 10), "the plain listener outlived the killed companion serve"
    assert closed_within(both.https_port, 10), "the secure listener outlived the killed companion serve"


def test_a_name_that_is_no_name_stops_serve_with_a_clear_message(tmp_path: Path) -> None:
    import subprocess
    import sys

    env = {
        **os.environ,
        "COMPANION_INSTANCE": str(tmp_path),
        "COMPANION_TLS_NAMES": "https://table.lan",
        "HTTPS_PORT": str(free_port()),
    }
    env.pop("DATABASE_URL", None)
    done = subprocess.run(
        [str(Path(sys.executable).with_name("companion")), "serve", "--host", "127.0.0.1", "--port", str(free_port())],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode != 0
    assert "COMPANION_TLS_NAMES: 'https://table.lan' is neither a host name nor an IP address" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_worker_keeps_the_app_it_built_out_of_the_collector_s_walks(tmp_path: Path) -> None:
    # the collector walking the ~140,000 objects of a built app took one deal answer in a few
    # hundred 80-100 ms (benchmarks/tail.py); frozen, they are never walked again
    import subprocess
    import sys

    env = {**os.environ, "COMPANION_INSTANCE": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'c.sqlite3'}"}
    built = "import gc; from companion.serving.asgi import served; served(); print(gc.get_freeze_count())"
    done = subprocess.run([sys.executable, "-c", built], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert int(done.stdout.split()[-1]) > 50_000


STALLED = 100
# a POST's headers and the first bytes of a body it never finishes, as a phone whose Wi-Fi
# stalls mid-upload sends it (or anyone on the network, on purpose)
HALF_AN_UPLOAD = (
    b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    b"Content-Length: 1000\r\n\r\nfile=abcdef"
)


def _stall(port: int, context: ssl.SSLContext | None) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    if context is not None:
        sock = context.wrap_socket(sock, server_hostname="localhost")
    sock.sendall(HALF_AN_UPLOAD)
    return sock


def test_a_hundred_stalled_uploads_on_each_address_leave_every_phone_recording(shared: Server) -> None:
    from tests.servers import Phone

    secure = trusting(shared)
    stalled = [_stall(shared.port, None) for _ in range(STALLED)]
    stalled += [_stall(shared.https_port, secure) for _ in range(STALLED)]
    try:
        for phone in (Phone(shared.url), Phone(f"https://localhost:{shared.https_port}", secure)):
            game = phone.start_game()
            for number in range(1, 4):
                started = time.monotonic()
                status, _, _ = phone.post(f"/black-spy/{game}/deals", phone.deal_form(game, [20, 15, 25, 0], number))
                assert status == 303
                assert time.monotonic() - started < 3.0, "a deal waited behind the stalled uploads"
            deals = json.loads(phone.get(f"/black-spy/{game}/export.json"))["games"][0]["deals"]
            assert len(deals) == 3
        # the stalled ones are answered and let go once they have sent nothing for a while
        for sock in stalled:
            sock.settimeout(30)
            assert sock.recv(64).startswith(b"HTTP/1.1 408"), "a stalled upload was never let go"
    finally:
        for sock in stalled:
            sock.close()


def test_a_chunked_body_too_large_is_refused_whole_and_nothing_of_it_is_stored(shared: Server) -> None:
    import http.client

    from tests.servers import Phone

    phone = Phone(shared.url)
    game = phone.start_game()
    form = phone.deal_form(game, [20, 15, 25, 0], 1)
    body = urllib.parse.urlencode(form).encode() + b"&padding=" + b"x" * (3 * 1024 * 1024)
    cookie = "; ".join(f"{cookie.name}={cookie.value}" for cookie in phone.jar)
    for chunked in (True, False):
        connection = http.client.HTTPConnection("127.0.0.1", shared.port, timeout=30)
        pieces = (body[start : start + 65536] for start in range(0, len(body), 65536))
        headers = {"Content-Type": "application/x-www-form-urlencoded", "Cookie": cookie}
        connection.request(
            "POST", f"/black-spy/{game}/deals", body=pieces if chunked else body, headers=headers, encode_chunked=chunked
        )
        response = connection.getresponse()
        assert response.status == 413, (chunked, response.status)
        assert b"too large" in response.read()
        connection.close()
    assert json.loads(phone.get(f"/black-spy/{game}/export.json"))["games"][0]["deals"] == []


def test_the_console_warns_that_a_name_opened_securely_is_https_only_there_after() -> None:
    """The secure address sends HSTS: the plain address under the same name then fails in that
    browser, so the console says to use the numbers there."""
    from types import SimpleNamespace

    from companion.serving import granian

    material = SimpleNamespace(ca_fingerprint="ab:cd", uncovered=(), reissued=False, names=(), ca_key="k", ca_cert="c")
    printed = granian.banner("0.0.0.0", 8000, 8443, material)  # type: ignore[arg-type]
    name = f"{addresses.hostname()}.local"
    assert f"https://{name}:8443/" in printed
    warning = next(line for line in printed.splitlines() if "https only" in line)
    assert name in warning and "http://" in warning and f"http://{name}" not in warning
    # a server on one address prints no name, and so no warning
    assert "https only" not in granian.banner("192.0.2.9", 8000, 8443, material)  # type: ignore[arg-type]
