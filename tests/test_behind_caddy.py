"""The companion behind Caddy with `tls internal`, as deploy/Caddyfile sets it up on a LAN."""

from __future__ import annotations

import re
import shutil
import socket
import ssl
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.databases import Databases
from tests.servers import Server, free_port

CADDY = shutil.which("caddy")
pytestmark = pytest.mark.skipif(
    CADDY is None, reason="Debian's caddy package is not installed (scripts/system-packages.sh installs it)"
)


def serves_its_certificate(port: int, root: Path) -> bool:
    """Caddy listens, and writes its root, before it has issued the site's certificate: until
    then a handshake ends in an internal error. A busy machine widens that gap."""
    try:
        context = ssl.create_default_context(cafile=str(root))
        with socket.create_connection(("127.0.0.1", port), timeout=2) as raw:
            context.wrap_socket(raw, server_hostname="localhost").close()
        return True
    except OSError:  # no root yet, no listener yet, or no certificate yet (ssl.SSLError)
        return False


@pytest.fixture
def behind_caddy(tmp_path: Path, sqlite_databases: Databases) -> Iterator[tuple[Server, str, Path]]:
    app = Server(
        tmp_path / "instance",
        free_port(),
        sqlite_databases.fresh(),
        extra_env={"COMPANION_PROXY": "1", "COMPANION_HOSTS": "localhost"},
    ).start()
    port = free_port()
    storage = tmp_path / "caddy"
    config = tmp_path / "Caddyfile"
    config.write_text(
        "{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n"
        f"\tstorage file_system {storage}\n}}\n"
        f"https://localhost:{port} {{\n\ttls internal\n\treverse_proxy 127.0.0.1:{app.port}\n}}\n"
    )
    log = (tmp_path / "caddy.log").open("wb")
    caddy = subprocess.Popen(
        [CADDY, "run", "--config", str(config), "--adapter", "caddyfile"],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    root = storage / "pki" / "authorities" / "local" / "root.crt"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert caddy.poll() is None, (tmp_path / "caddy.log").read_text()
            if serves_its_certificate(port, root):
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"caddy served no certificate in 30 s: {(tmp_path / 'caddy.log').read_text()}")
        yield app, f"https://localhost:{port}", root
    finally:
        caddy.terminate()
        caddy.wait(timeout=10)
        log.close()
        app.stop()


def test_behind_caddy_the_follow_link_and_the_cookie_are_https(behind_caddy: tuple[Server, str, Path]) -> None:
    _, base, root = behind_caddy
    context = ssl.create_default_context(cafile=str(root))
    opener = urllib.request.build_opener(urllib.request.HTTPSHandler(context=context), urllib.request.HTTPCookieProcessor())
    page = opener.open(f"{base}/new", timeout=10)
    assert "Secure" in page.headers["Set-Cookie"]
    assert page.headers["Strict-Transport-Security"].startswith("max-age=")
    html = page.read().decode()
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    form = {"csrf_token": token, "first_dealer": "0", "player-0": "Ana", "player-1": "Ben", "player-2": "Cy"}
    # over https Flask-WTF wants the Referer a browser sends with the form (same origin)
    request = urllib.request.Request(
        f"{base}/black-spy/new", urllib.parse.urlencode(form).encode(), headers={"Referer": f"{base}/new"}
    )
    game = opener.open(request, timeout=10)
    follow = re.search(r'<p class="link"><a href="([^"]+)"', game.read().decode()).group(1)
    assert follow.startswith(f"{base}/watch/")
    phone = opener.open(f"{base}/phone", timeout=10).read().decode()
    assert 'data-phone-state="set"' in phone


def test_the_app_itself_refuses_a_host_it_was_not_given(behind_caddy: tuple[Server, str, Path]) -> None:
    app, _, _ = behind_caddy
    request = urllib.request.Request(f"{app.url}/", headers={"Host": "evil.example"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=5)
    assert refused.value.code == 400
