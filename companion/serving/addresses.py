"""The names and addresses this machine answers to on the local network: what the secure
address's certificate names (companion/serving/tls.py), what the server prints for a phone
to open, and which hosts it serves (companion/serving/security.py)."""

from __future__ import annotations

import ipaddress
import re
import socket
from collections.abc import Iterable
from contextlib import suppress

PRIVATE_NETWORKS = tuple(
    ipaddress.ip_network(network)
    for network in (
        "127.0.0.0/8",
        "::1/128",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "100.64.0.0/10",  # carrier-grade nat, which tailscale uses
        "fc00::/7",
        "fe80::/10",
    )
)
UNIQUE_LOCAL = ipaddress.ip_network("fc00::/7")

# letters, digits and inner hyphens, as verifiers parse a certificate's dns names
LABEL = r"(?!-)[a-z0-9-]{1,63}(?<!-)"
DNS_NAME = re.compile(rf"(\*\.)?{LABEL}(\.{LABEL})*")

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def hostname() -> str:
    """This machine's name, as certificates write names: lower case, non-ascii as an a-label."""
    name = socket.gethostname().split(".")[0].lower()
    try:
        return name.encode("idna").decode("ascii") or "localhost"
    except UnicodeError:
        return name or "localhost"


def host_names() -> list[str]:
    """This machine's dns names, its name and <name>.local."""
    # a machine named like "my_box" gets no dns names of its own, only its addresses
    host = hostname()
    return [host, f"{host}.local"] if DNS_NAME.fullmatch(host) and host != "localhost" else []


def lan_addresses() -> list[str]:
    """This machine's non-loopback IPv4 and global or unique-local IPv6 addresses a phone can reach."""
    found: set[str] = set()
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(info[4][0]))
    except OSError:
        pass
    # the address of the interface holding the default route; a udp connect sends nothing
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            found.add(probe.getsockname()[0])
        except OSError:
            pass
    usable: list[Address] = []
    for text in found:
        try:
            address = ipaddress.ip_address(text)
        except ValueError:
            continue
        if address.is_loopback or address.is_link_local or address.is_unspecified or address.is_multicast:
            continue
        if address.version == 6 and not (address.is_global or address in UNIQUE_LOCAL):
            continue
        usable.append(address)
    return [str(address) for address in sorted(usable, key=lambda address: (address.version, address))]


def is_lan_address(name: str) -> bool:
    """An IPv4 address other than loopback: what a phone on the network opens a server by."""
    address = address_of(name)
    return address is not None and address.version == 4 and not address.is_loopback


def extra_names_from_env(value: str | None) -> list[str]:
    """COMPANION_TLS_NAMES: names and addresses separated by commas and/or whitespace; empty ones dropped."""
    return [name for name in (value or "").replace(",", " ").split() if name]


def is_address(name: str) -> bool:
    """Whether a host is an address (a number), not a name."""
    return address_of(name) is not None


def address_of(name: str) -> Address | None:
    """The address a host is, or None for a name."""
    try:
        return ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None


def normal(name: str) -> str:
    """The one spelling of a name or address, so the same name never looks new."""
    text = name.strip()
    address = address_of(text)
    if address is not None:
        # a certificate holds no zone, so fe80::1%eth0 is written as fe80::1
        return str(address).split("%")[0]
    text = text.lower().rstrip(".")
    with suppress(UnicodeError):
        text = text.encode("idna").decode("ascii")
    if not DNS_NAME.fullmatch(text) or len(text) > 253:
        raise ValueError(f"{name!r} is neither a host name nor an IP address")
    return text


def unique(names: Iterable[str]) -> list[str]:
    """Each name once, in its one spelling, in the order given; a blank one dropped."""
    unique: list[str] = []
    for given in names:
        if given.strip():
            name = normal(given)
            if name not in unique:
                unique.append(name)
    return unique


def wanted_names(extra: Iterable[str] = ()) -> list[str]:
    """localhost, 127.0.0.1, ::1, the hostname, <hostname>.local, every LAN address, plus extra."""
    return unique(["localhost", "127.0.0.1", "::1", *host_names(), *lan_addresses(), *extra])
