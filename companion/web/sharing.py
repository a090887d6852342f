"""Links that leave the companion: a QR code for the read-only link, and BG Stats."""

from __future__ import annotations

import io
import ipaddress
import json
import os
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import SplitResult, quote, urlsplit

import segno
from flask import Flask, current_app, url_for
from markupsafe import Markup

from .. import registry
from ..rules import N_, Message
from ..serving import addresses
from ..store.games import Game

BG_STATS = "https://app.bgstatsapp.com/createPlay.html"


@lru_cache(maxsize=1024)
def qr_svg(text: str) -> Markup:
    """A QR code as inline svg, drawn by the server (once per link: it never changes)."""
    return Markup(segno.make(text, error="m").svg_inline(scale=4, dark="#000", light="#fff"))


@lru_cache(maxsize=1024)
def qr_svg_file(text: str) -> bytes:
    """A QR code as an svg file of its own, for an <img> that loads only when it is shown."""
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=4, dark="#000", light="#fff", xmldecl=False)
    return out.getvalue()


@dataclass(frozen=True)
class FollowLink:
    url: str
    note: Message | None  # why the link is not the address this page was opened at, or why it fails
    # False when no other phone can open it: its QR code would only lead a friend's phone astray
    reachable: bool = True


def follow_link(watch_id: str) -> FollowLink:
    """A game's read-only link, as another phone at the table can open it.

    It is made from the address this page was opened at, but a server's own device opens it
    as 127.0.0.1 or localhost, which names each phone itself: there, when the server listens
    on the network (``companion serve``'s default, 0.0.0.0), the link names this machine's
    address on it instead, and says so; when it listens on loopback alone, no other phone
    can follow, and the panel says that.
    """
    return shared_link(url_for("watch.show", watch_id=watch_id, _external=True))


def shared_link(url: str) -> FollowLink:
    """A link of this server (``url``, as this page was opened) as another phone at the table
    can open it: see :func:`follow_link`."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port
    except ValueError:
        return FollowLink(url, None)  # a Host header that names no address (``[::::]``): the link as asked
    plain = _plain_twin(parts)
    if plain is not None:
        return plain
    if not _names_this_device(host):
        return FollowLink(url, None)
    listens = current_app.config.get("LISTENS_ON")
    if listens is None:
        return FollowLink(url, None)  # not served by `companion serve`: what it listens on is unknown
    network = _network_address() if listens in ("0.0.0.0", "::", "") else None
    if network is None:
        return FollowLink(
            url,
            N_("No other phone can open this link: it leads each phone to itself, and this server listens on this device alone."),
            reachable=False,
        )
    netloc = network if port is None else f"{network}:{port}"
    note = N_(
        "The link uses this machine's address on the network, %(address)s, which the other phones can reach: the address this page is open at would lead each phone to itself.",
        address=network,
    )
    return FollowLink(parts._replace(netloc=netloc).geturl(), note)


def _plain_twin(parts: SplitResult) -> FollowLink | None:
    """The plain address's twin of a link given at `companion serve`'s secure address.

    A phone opens the secure address only once it trusts the table's certificate; a
    friend's phone that never did would be shown a certificate error. The link is given at
    the plain address instead, by the machine's number on the network, not by a name: a
    phone that opened a name at the secure address asks that name by https only (HSTS).
    """
    plain, secure = current_app.config.get("PLAIN_PORT"), current_app.config.get("SECURE_PORT")
    host = parts.hostname or ""
    if parts.scheme != "https" or not plain or parts.port is None or str(parts.port) != str(secure):
        return None
    if _names_this_device(host):
        return None  # the server's own device: its link is made as for the plain address
    address = host if addresses.is_address(host) else _network_address()
    if address is None:
        return None
    shown = f"[{address}]" if ":" in address else address
    return FollowLink(
        parts._replace(scheme="http", netloc=f"{shown}:{plain}").geturl(),
        N_("The link uses the plain address, which a phone opens without trusting this table's certificate first."),
    )


def _names_this_device(host: str) -> bool:
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


# how long an address found is used: a laptop moved to another Wi-Fi names its new one soon after
NETWORK_ADDRESS_SECONDS = 30.0
# when the address was last looked up, and what was found
_found: dict[str, tuple[float, str | None]] = {}


def _network_address() -> str | None:
    """This machine's first IPv4 address on its network (phones scan an IPv4 QR code best),
    looked up again once it is some seconds old."""
    now = time.monotonic()
    found = _found.get("address")
    if found is None or now - found[0] > NETWORK_ADDRESS_SECONDS:
        reachable = [address for address in addresses.lan_addresses() if ":" not in address]
        found = _found["address"] = (now, reachable[0] if reachable else None)
    return found[1]


def bgstats_play(game: Game, state: Any) -> dict[str, Any]:
    """A finished game as BG Stats' documented create-play json: the game as its kind
    names it there, each player's total, the winners and who started."""
    kind = registry.of(game)
    started = game.created_at
    minutes = max(1, round((game.updated_at - started).total_seconds() / 60))
    described = kind.bgstats(game, state)
    return {
        "sourceName": "Companion",
        "sourceUrl": url_for(kind.show, game_id=game.id, _external=True),
        "playDate": started.strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": minutes,
        "game": {"sourceGameId": kind.key, **described},
        "players": [
            {
                "name": name,
                "score": state.totals[seat],
                "winner": seat in state.winners,
                "startPlayer": seat == game.first_seat,
            }
            for seat, name in enumerate(state.setup.players)
        ],
    }


def bgstats_link(game: Game, state: Any) -> str:
    return f"{BG_STATS}?data={quote(json.dumps(bgstats_play(game, state), separators=(',', ':')))}"


def init_app(app: Flask) -> None:
    # the plain listener's port, beside the secure one, when `companion serve` started both
    app.config.setdefault("PLAIN_PORT", os.environ.get("COMPANION_PLAIN_PORT"))
    app.add_template_global(qr_svg)
    app.add_template_global(follow_link)
    app.add_template_global(shared_link)
    app.add_template_global(bgstats_link)
