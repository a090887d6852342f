"""The table's own certificate authority, for the secure address on the local network.

A phone trusts the authority once; the server certificate it signs is reissued as the
machine's addresses change, under the same authority. The authority carries critical
X.509 Name Constraints: it may vouch only for this server's own names and for loopback
and private addresses, so a copied key can never impersonate a site on the internet. The
names and addresses it covers are found by companion/serving/addresses.py.
"""

from __future__ import annotations

import base64
import fcntl
import ipaddress
import os
import plistlib
import tempfile
import uuid
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from .addresses import PRIVATE_NETWORKS, Network, address_of, host_names, hostname, unique

AUTHORITY_YEARS = 10
# apple refuses tls server certificates valid for more than 398 days
SERVER_DAYS = 397
RENEW_BEFORE = timedelta(days=30)
BACKDATE = timedelta(hours=1)  # a phone whose clock runs a little behind still accepts it


@dataclass(frozen=True)
class Material:
    """Where the authority and the server certificate are, and what a phone checks."""

    folder: Path
    ca_cert: Path
    ca_key: Path
    cert: Path  # the server certificate followed by the authority's: the chain
    key: Path
    names: tuple[str, ...]
    ca_fingerprint: str
    spki_sha256: str
    created_authority: bool
    reissued: bool
    uncovered: tuple[str, ...]
    not_after: datetime


def authority_name(material: Material) -> str:
    """The authority's name as a phone's settings show it."""
    authority = x509.load_pem_x509_certificate(material.ca_cert.read_bytes())
    names = authority.subject.get_attributes_for_oid(NameOID.COMMON_NAME)
    return str(names[0].value) if names else "Companion"


def permitted(name: str, constraints: x509.NameConstraints) -> bool:
    """Whether the authority's name constraints let it vouch for this name."""
    address = address_of(name)
    for subtree in constraints.permitted_subtrees or ():
        if address is not None and isinstance(subtree, x509.IPAddress):
            network = subtree.value
            if isinstance(network, (ipaddress.IPv4Network, ipaddress.IPv6Network)) and address in network:
                return True
        if address is None and isinstance(subtree, x509.DNSName):
            base = subtree.value.lower()
            if name.lower() == base or name.lower().endswith("." + base):
                return True
    return False


def _constraints(names: Iterable[str]) -> x509.NameConstraints:
    dns = ["localhost", *host_names()]
    networks: list[Network] = list(PRIVATE_NETWORKS)
    for name in names:
        address = address_of(name)
        if address is None:
            # a wildcard's subtree is the name under it, which permits the wildcard too
            base = name.removeprefix("*.")
            if base not in dns:
                dns.append(base)
        elif not any(address in network for network in networks):
            networks.append(ipaddress.ip_network(address))
    return x509.NameConstraints(
        permitted_subtrees=[*(x509.DNSName(name) for name in dns), *(x509.IPAddress(net) for net in networks)],
        excluded_subtrees=None,
    )


def _write(path: Path, data: bytes, mode: int, exclusive: bool = False) -> None:
    """Write whole or not at all, never readable by others even for a moment."""
    # mkstemp opens with O_EXCL and mode 0600, so a key is private from its first byte
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(descriptor, mode)
        with os.fdopen(descriptor, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        if exclusive:
            # a hard link fails when the name exists, so a file made by someone else is never replaced
            os.link(temporary, path)
            os.unlink(temporary)
        else:
            os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """One ensure at a time per folder, across processes: two servers starting at once share one authority."""
    descriptor = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        yield
    finally:
        os.close(descriptor)  # closing releases the lock


def _pem_key(key: ec.EllipticCurvePrivateKey) -> bytes:
    # pkcs8: the one format granian reads
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())


def _key_usage(certificates: bool) -> x509.KeyUsage:
    return x509.KeyUsage(
        digital_signature=True,
        content_commitment=False,
        key_encipherment=False,
        data_encipherment=False,
        key_agreement=False,
        key_cert_sign=certificates,
        crl_sign=certificates,
        encipher_only=False,
        decipher_only=False,
    )


def _make_authority(folder: Path, names: Iterable[str], now: datetime) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name(
        [
            x509.NameAttribute(NameOID.COMMON_NAME, f"Companion table authority ({hostname()})"),
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, "Companion"),
        ]
    )
    certificate = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + timedelta(days=365 * AUTHORITY_YEARS))
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(_key_usage(certificates=True), critical=True)
        .add_extension(_constraints(names), critical=True)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .sign(key, hashes.SHA256())
    )
    # the certificate first: the key's arrival is what makes the authority exist, so a crash
    # in between leaves no key and the next start simply makes the authority again
    _write(folder / "ca.crt", certificate.public_bytes(serialization.Encoding.PEM), 0o644)
    _write(folder / "ca.key", _pem_key(key), 0o600, exclusive=True)


def _issue(
    folder: Path, names: list[str], authority: x509.Certificate, authority_key: ec.EllipticCurvePrivateKey, now: datetime
) -> None:
    key = ec.generate_private_key(ec.SECP256R1())
    common = next((name for name in names if address_of(name) is None and name != "localhost"), "localhost")
    alternatives: list[x509.GeneralName] = []
    for name in names:
        address = address_of(name)
        alternatives.append(x509.IPAddress(address) if address is not None else x509.DNSName(name))
    certificate = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)]))
        .issuer_name(authority.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - BACKDATE)
        .not_valid_after(now + timedelta(days=SERVER_DAYS))
        .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(_key_usage(certificates=False), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(authority_key.public_key()), critical=False)
        .sign(authority_key, hashes.SHA256())
    )
    # a crash between these two leaves a key that does not fit the certificate; ensure notices and reissues
    _write(folder / "server.key", _pem_key(key), 0o600)
    chain = certificate.public_bytes(serialization.Encoding.PEM) + authority.public_bytes(serialization.Encoding.PEM)
    _write(folder / "server.crt", chain, 0o644)


def _certificate_names(certificate: x509.Certificate) -> list[str]:
    try:
        alternatives = certificate.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    except x509.ExtensionNotFound:
        return []
    return [str(name.value).lower() for name in alternatives if isinstance(name, (x509.DNSName, x509.IPAddress))]


def _signed_by(certificate: x509.Certificate, authority: x509.Certificate) -> bool:
    try:
        certificate.verify_directly_issued_by(authority)
    except Exception:  # a bad signature, another key type: in every case not this authority's
        return False
    return True


def _fits(certificate: x509.Certificate, key_path: Path) -> bool:
    """Whether the key file holds the private half of the certificate's key."""
    try:
        key = serialization.load_pem_private_key(key_path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError):
        return False
    return key.public_key() == certificate.public_key()


def _needs_issue(folder: Path, covered: list[str], authority: x509.Certificate, now: datetime) -> bool:
    if not ((folder / "server.crt").is_file() and (folder / "server.key").is_file()):
        return True
    try:
        current = x509.load_pem_x509_certificate((folder / "server.crt").read_bytes())
    except ValueError:
        return True
    return (
        not set(covered) <= set(_certificate_names(current))
        or current.not_valid_after_utc - now < RENEW_BEFORE
        or current.not_valid_before_utc > now  # made while the clock ran ahead
        or not _signed_by(current, authority)
        or not _fits(current, folder / "server.key")
    )


def _material(folder: Path, created: bool, reissued: bool, uncovered: tuple[str, ...]) -> Material:
    authority = x509.load_pem_x509_certificate((folder / "ca.crt").read_bytes())
    server = x509.load_pem_x509_certificate((folder / "server.crt").read_bytes())
    spki = server.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    digest = hashes.Hash(hashes.SHA256())
    digest.update(spki)
    return Material(
        folder=folder,
        ca_cert=folder / "ca.crt",
        ca_key=folder / "ca.key",
        cert=folder / "server.crt",
        key=folder / "server.key",
        names=tuple(_certificate_names(server)),
        ca_fingerprint=authority.fingerprint(hashes.SHA256()).hex(":").upper(),
        spki_sha256=base64.b64encode(digest.finalize()).decode(),
        created_authority=created,
        reissued=reissued,
        uncovered=uncovered,
        not_after=server.not_valid_after_utc,
    )


def load(folder: Path) -> Material | None:
    """The authority and certificate `companion serve` made, or None before its first run."""
    if not all((folder / name).is_file() for name in ("ca.crt", "server.crt", "server.key")):
        return None
    try:
        return _material(folder, created=False, reissued=False, uncovered=())
    except (OSError, ValueError):
        return None


def ensure(folder: Path, names: Iterable[str], now: datetime | None = None) -> Material:
    """Make the authority once and a server certificate for names; reissue it only when needed."""
    now = (now or datetime.now(UTC)).astimezone(UTC)
    names = unique(names)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(folder, 0o700)  # mkdir's mode passes through the umask, and the folder may be older
    with _locked(folder):
        created = False
        if not (folder / "ca.key").exists():
            _make_authority(folder, names, now)
            created = True
        if not (folder / "ca.crt").is_file():
            raise RuntimeError(f"{folder / 'ca.key'} has no certificate beside it: delete it to make a new authority")
        authority = x509.load_pem_x509_certificate((folder / "ca.crt").read_bytes())
        authority_key = serialization.load_pem_private_key((folder / "ca.key").read_bytes(), password=None)
        if not isinstance(authority_key, ec.EllipticCurvePrivateKey) or authority_key.public_key() != authority.public_key():
            raise RuntimeError(f"{folder / 'ca.key'} does not belong to {folder / 'ca.crt'}: delete both to make a new authority")
        constraints = authority.extensions.get_extension_for_class(x509.NameConstraints).value
        covered = [name for name in names if permitted(name, constraints)]
        uncovered = tuple(name for name in names if name not in covered)
        reissue = _needs_issue(folder, covered, authority, now)
        if reissue:
            _issue(folder, covered, authority, authority_key, now)
        return _material(folder, created, reissue, uncovered)


def ca_pem(material: Material) -> bytes:
    """The authority's certificate as PEM, for a download or a trust store."""
    return material.ca_cert.read_bytes()


def ca_der(material: Material) -> bytes:
    """The authority's certificate as DER, the form Android and the iPhone profile take."""
    return x509.load_pem_x509_certificate(ca_pem(material)).public_bytes(serialization.Encoding.DER)


def mobileconfig(material: Material, label: str = "Companion") -> bytes:
    """An Apple configuration profile (plist, unsigned) installing the CA as a trusted root on iPhone/iPad."""
    # the same authority gives the same profile, so a second download replaces the first
    profile_uuid = uuid.uuid5(uuid.NAMESPACE_URL, f"companion:{material.ca_fingerprint}")
    payload_uuid = uuid.uuid5(profile_uuid, "root")
    host = hostname()
    profile = {
        "PayloadType": "Configuration",
        "PayloadVersion": 1,
        "PayloadIdentifier": f"companion.{host}.trust",
        "PayloadUUID": str(profile_uuid).upper(),
        "PayloadDisplayName": f"{label} table certificate",
        "PayloadDescription": (
            f"Lets this device open the companion on {host} at its secure address. "
            "It can vouch only for that server on your local network."
        ),
        "PayloadRemovalDisallowed": False,
        "PayloadContent": [
            {
                "PayloadType": "com.apple.security.root",
                "PayloadVersion": 1,
                "PayloadIdentifier": f"companion.{host}.trust.root",
                "PayloadUUID": str(payload_uuid).upper(),
                "PayloadDisplayName": f"Companion table authority ({host})",
                "PayloadCertificateFileName": "companion-ca.crt",
                "PayloadContent": ca_der(material),
            }
        ],
    }
    return plistlib.dumps(profile, fmt=plistlib.FMT_XML, sort_keys=True)
