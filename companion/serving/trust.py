"""The full app on this phone: trusting the table's certificate, then the secure address.

A phone on the Wi-Fi opens the plain address first, where the browser withholds what
makes the companion an app (no service worker, no install, no screen kept on). This page
hands it the table's own authority, the steps to trust it once, and the secure address.
It is served over plain http on purpose, and before the passcode: it shows no game.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path

from flask import Blueprint, Flask, abort, current_app, render_template, request
from werkzeug.wrappers import Response

from . import addresses, tls

bp = Blueprint("trust", __name__, url_prefix="/phone")

# where `companion serve` keeps the authority and the server certificate
TLS_FOLDER = "tls"


def _port(value: str | int | None) -> int | None:
    try:
        port = int(value) if value else None
    except ValueError:
        return None
    return port if port and 0 < port < 65536 else None


def secure_port() -> int | None:
    """The port of the https listener `companion serve` started beside this one, if any."""
    return _port(current_app.config.get("SECURE_PORT"))


def authority() -> tls.Material | None:
    """The table's certificate authority, once `companion serve` has made it."""
    return tls.load(Path(current_app.instance_path) / TLS_FOLDER)


def authority_or_404() -> tls.Material:
    material = authority()
    if material is None:
        abort(404)
    return material


def is_loopback(host: str) -> bool:
    """Browsers count these hosts as secure without https: the server's own machine."""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def request_hostname() -> str:
    """The host name the phone used, without its port (``[::1]`` keeps its brackets)."""
    host = request.host
    if host.startswith("["):
        return host[: host.index("]") + 1]
    return host.rsplit(":", 1)[0] if ":" in host else host


def missing_secure_context() -> bool:
    """Whether this page reached the phone without what the full app needs."""
    return not request.is_secure and not is_loopback(request_hostname())


def secure_host(material: tls.Material | None) -> str:
    """The name to open the secure address by: the phone's own, if the certificate names it.

    A name the network made up (``table.lan`` from the router) is not in the certificate,
    and a phone that trusts the authority would still refuse it: offer a LAN address the
    certificate carries instead.
    """
    host = request_hostname()
    if material is None or host.strip("[]").lower() in material.names:
        return host
    lan = [name for name in material.names if addresses.is_lan_address(name)]
    if not lan:
        return host
    return f"[{lan[0]}]" if ":" in lan[0] else lan[0]


def secure_address(material: tls.Material | None = None) -> str | None:
    """This page at the secure listener, or None where this server has none."""
    port = secure_port()
    if port is None:
        return None
    host = secure_host(material)
    netloc = host if port == 443 else f"{host}:{port}"
    return f"https://{netloc}{request.script_root}/phone"


@bp.get("")
def phone() -> str:
    """Show how to get the full app on this phone, or that it is set."""
    # the server's own machine is a secure context over plain http too: it is set
    is_set = not missing_secure_context()
    material = authority() if secure_port() else None
    return render_template(
        "trust/phone.html",
        material=material,
        authority_name=tls.authority_name(material) if material else "",
        secure_address=None if is_set else secure_address(material),
        is_secure=is_set,
        on_this_machine=is_loopback(request_hostname()) and not request.is_secure,
    )


def _download(body: bytes, mimetype: str, filename: str) -> Response:
    response = current_app.response_class(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    response.cache_control.no_cache = True
    return response


@bp.get("/companion.mobileconfig")
def profile() -> Response:
    """Hand an iPhone or iPad the authority as a configuration profile."""
    return _download(tls.mobileconfig(authority_or_404()), "application/x-apple-aspen-config", "companion.mobileconfig")


@bp.get("/companion-ca.crt")
def certificate() -> Response:
    """Hand Android and desktop browsers the authority's certificate."""
    # DER is what Android's "Install a certificate" and Windows open by a tap
    return _download(tls.ca_der(authority_or_404()), "application/x-x509-ca-cert", "companion-ca.crt")


def init_app(app: Flask) -> None:
    # read once at start: `companion serve` names the secure listener's port for its workers
    app.config.setdefault("SECURE_PORT", _port(os.environ.get("COMPANION_SECURE_PORT")))
    app.add_template_global(missing_secure_context)
