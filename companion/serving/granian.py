"""How `companion serve` serves: granian processes for the plain and the secure address.

granian was chosen by measurement against waitress (``benchmarks/servers.py``, figures in
docs/benchmarks.md): it speaks TLS, holds idle connections without tying up a thread, and runs
worker processes. One granian process tree listens per address; this process applies
the migrations, makes the certificates, prints where to go, and supervises both.
"""

from __future__ import annotations

import contextlib
import ctypes
import io
import os
import resource
import signal
import subprocess
import sys
import time
from urllib.parse import urlsplit

import segno

from . import tls
from .addresses import hostname, is_address, lan_addresses
from .asgi import THREADS

# the app as granian builds it in each worker: Flask behind an ASGI front that reads a
# request's body before a thread is given to it (companion/serving/asgi.py)
TARGET = "companion.serving.asgi:served"
# set for the processes this one starts: they end when it does (see companion/serving/asgi.py)
DIE_WITH_PARENT = "COMPANION_DIE_WITH_PARENT"
_PR_SET_PDEATHSIG = 1


def die_with_parent(sig: int = signal.SIGTERM) -> None:
    """Ask Linux to signal this process when the one that started it dies.

    A `companion serve` ended by SIGKILL (or a power cut of its terminal) must not leave
    listeners behind that hold its ports; elsewhere this does nothing.
    """
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, sig, 0, 0, 0)


def addresses(host: str, port: int, scheme: str) -> list[tuple[str, str]]:
    """The addresses to print for one listener, each with who opens it."""
    default = 443 if scheme == "https" else 80

    def netloc(name: str) -> str:
        return name if port == default else f"{name}:{port}"

    if host not in ("0.0.0.0", "::", ""):
        shown = f"[{host}]" if ":" in host else host
        return [("", f"{scheme}://{netloc(shown)}/")]
    found = [("on this machine", f"{scheme}://{netloc('127.0.0.1')}/")]
    for address in lan_addresses():
        shown = f"[{address}]" if ":" in address else address
        found.append(("from a phone on the same network", f"{scheme}://{netloc(shown)}/"))
    if scheme == "https":
        found.append(("by name, where the network resolves .local", f"{scheme}://{netloc(hostname() + '.local')}/"))
    return found


def qr_text(url: str) -> str:
    """A QR code drawn with block characters, for a phone's camera pointed at the console."""
    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def banner(host: str, port: int, secure: int | None, material: tls.Material | None) -> str:
    """What the console says at start: where to go, and how a phone trusts the table."""
    lines = [f"Companion serving on http://{host}:{port}/" + (f" and https://{host}:{secure}/" if secure else "")]
    plain = addresses(host, port, "http")
    for who, url in plain:
        lines.append(f"  {who + ': ' if who else ''}{url}")
    if secure is None or material is None:
        lines.append("  no secure address (HTTPS_PORT=off): phones get no install, offline copy or screen kept on")
        return "\n".join(lines) + "\n"
    lines.append("The full app on a phone (install, offline, screen kept on) is at the secure address:")
    secure_urls = addresses(host, secure, "https")
    for who, url in secure_urls:
        lines.append(f"  {who + ': ' if who else ''}{url}")
    named = [url for _, url in secure_urls if not is_address(urlsplit(url).hostname or "")]
    if named:
        # the secure address sends HSTS: a browser that opened a name there asks that name
        # by https only from then on, and the plain address under the name fails (SSL error)
        lines.append(
            f"  once a phone opens {urlsplit(named[0]).hostname} at the secure address, its browser opens that name"
            f" by https only: at the plain address, use the numbers ({plain[-1][1]})"
        )
    lines.append(f"  a phone trusts this table's certificate once, from {plain[-1][1]}phone")
    lines.append(f"  certificate authority SHA-256 fingerprint: {material.ca_fingerprint}")
    for name in material.uncovered:
        lines.append(
            f"  {name} is not among the names this table's authority may vouch for, so it is left out of the"
            f" certificate. To add it, delete {material.ca_key} and {material.ca_cert}, start again, and trust"
            " the new authority once on every phone."
        )
    if material.reissued:
        lines.append(f"  made a server certificate for: {', '.join(material.names)}")
    lan = [url for who, url in secure_urls if who.startswith("from a phone")] or [secure_urls[-1][1]]
    # a phone new to the table starts at the trust page; one that trusts it, at the secure address
    lines.append(f"A phone new to this table: scan to trust its certificate once ({plain[-1][1]}phone):")
    lines.append(qr_text(f"{plain[-1][1]}phone").rstrip("\n"))
    lines.append(f"A phone that trusts it: scan to open the secure address ({lan[0]}):")
    lines.append(qr_text(lan[0]).rstrip("\n"))
    return "\n".join(lines) + "\n"


# connections waiting to be accepted, and those one worker serves at once (benchmarks/load.py)
BACKLOG = 4096
CONNECTIONS_PER_WORKER = 4096


def open_files_for_connections() -> None:
    """Let the listeners hold as many connections as the system lets this user have.

    Each connection is an open file, and a login's default soft limit (1024) is below what
    the listeners take; the hard limit is the system's word, and the soft one may rise to it.
    """
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else 65536
    if soft != resource.RLIM_INFINITY and soft < wanted:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def granian_command(host: str, port: int, workers: int, material: tls.Material | None) -> list[str]:
    """One granian listener: plain when material is None, TLS with the server certificate otherwise."""
    command = [
        sys.executable,
        "-m",
        "granian",
        "--interface",
        "asgi",
        "--factory",
        "--host",
        host,
        "--port",
        str(port),
        "--workers",
        str(workers),
        # a worker that will not stop when asked (a request stuck on a lock) is killed after
        # this long, so a stopped server frees its port promptly
        "--workers-kill-timeout",
        "3",
        # the table's pages use no websockets
        "--no-ws",
        # every phone at a table keeps its connection open between polls, and a granian
        # worker serves at most `backpressure` connections at once (its default, backlog
        # 1024 / workers, let about 170 tables in): a club's evening needs many more
        "--backlog",
        str(BACKLOG),
        "--backpressure",
        str(CONNECTIONS_PER_WORKER),
        "--log-level",
        "warning",
        "--no-access-log",
    ]
    if material is not None:
        # TLS 1.2 too, for the phones that still sit at card tables (Android before 10, iOS
        # before 12.2); rustls speaks it with forward-secret AEAD suites only (AES-GCM, ChaCha20)
        command += [
            "--ssl-certificate",
            str(material.cert),
            "--ssl-keyfile",
            str(material.key),
            "--ssl-protocol-min",
            "tls1.2",
        ]
    return [*command, TARGET]


def run(
    instance: str, host: str, port: int, secure: int | None, material: tls.Material | None, threads: int = 2, workers: int = 1
) -> int:
    """Serve until interrupted or a listener fails; the exit status of the first to end."""
    env = {**os.environ, "COMPANION_INSTANCE": str(instance), DIE_WITH_PARENT: "1", THREADS: str(threads)}
    if secure is not None:
        env["COMPANION_SECURE_PORT"] = str(secure)
        # links meant for other phones are given at the plain address (companion/web/sharing.py)
        env["COMPANION_PLAIN_PORT"] = str(port)
    else:
        env.pop("COMPANION_SECURE_PORT", None)
        env.pop("COMPANION_PLAIN_PORT", None)
    open_files_for_connections()
    commands = [granian_command(host, port, workers, None)]
    if secure is not None and material is not None:
        commands.append(granian_command(host, secure, workers, material))
    # preexec_fn is unsafe only in a process with threads; this supervisor starts none
    children = [subprocess.Popen(command, env=env, preexec_fn=die_with_parent) for command in commands]  # noqa: PLW1509

    stopping = False

    def stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    status = 0
    try:
        while not stopping:
            ended = [child for child in children if child.poll() is not None]
            if ended:
                status = ended[0].returncode or 1
                print(f"companion: a listener stopped (exit {ended[0].returncode}); stopping the other", file=sys.stderr)
                break
            time.sleep(0.2)
    finally:
        for child in children:
            if child.poll() is None:
                child.terminate()
        deadline = time.monotonic() + 10
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
    return status
