"""The table's certificate authority: what it vouches for, what it refuses, when it reissues."""

from __future__ import annotations

import base64
import fcntl
import hashlib
import ipaddress
import plistlib
import shutil
import subprocess
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from companion.serving import addresses, tls

HOST = addresses.hostname()
EXTRA = addresses.extra_names_from_env("table.example.lan, 192.168.7.7")
PRIVATE = {"127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7", "fe80::/10"}

needs_openssl = pytest.mark.skipif(shutil.which("openssl") is None, reason="the openssl command is not installed")


@pytest.fixture
def made(tmp_path: Path) -> tls.Material:
    return tls.ensure(tmp_path / "tls", addresses.wanted_names(EXTRA))


def certificate(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificates(path.read_bytes())[0]


def files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def verify(material: tls.Material, leaf: x509.Certificate, name: x509.DNSName | x509.IPAddress) -> None:
    authority = certificate(material.ca_cert)
    verifier = PolicyBuilder().store(Store([authority])).time(datetime.now(UTC)).build_server_verifier(name)
    verifier.verify(leaf, [])


def openssl_verify(material: tls.Material, leaf: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["openssl", "verify", "-CAfile", str(material.ca_cert), str(leaf)], capture_output=True, text=True, check=False
    )


def subtrees(material: tls.Material) -> tuple[set[str], set[str]]:
    constraints = certificate(material.ca_cert).extensions.get_extension_for_class(x509.NameConstraints).value
    dns = {s.value for s in constraints.permitted_subtrees if isinstance(s, x509.DNSName)}
    networks = {str(s.value) for s in constraints.permitted_subtrees if isinstance(s, x509.IPAddress)}
    return dns, networks


def public_lan_networks() -> set[str]:
    """The machine's own addresses outside the private ranges, which the authority permits one by one."""
    private = [ipaddress.ip_network(net) for net in PRIVATE]
    found = [ipaddress.ip_address(a) for a in [*addresses.lan_addresses(), "192.168.7.7"]]
    return {str(ipaddress.ip_network(a)) for a in found if not any(a in net for net in private)}


def forged(material: tls.Material, name: x509.GeneralName, folder: Path) -> tuple[x509.Certificate, Path]:
    """A certificate someone with a copy of the authority's key signs for a public site."""
    authority = certificate(material.ca_cert)
    authority_key = serialization.load_pem_private_key(material.ca_key.read_bytes(), password=None)
    assert isinstance(authority_key, ec.EllipticCurvePrivateKey)
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.now(UTC)
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "forged")]))
        .issuer_name(authority.subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - timedelta(hours=1))
        .not_valid_after(now + timedelta(days=30))
        .add_extension(x509.SubjectAlternativeName([name]), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(authority_key.public_key()), critical=False)
        .sign(authority_key, hashes.SHA256())
    )
    path = folder / "forged.crt"
    path.write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    return leaf, path


def test_the_server_certificate_chains_to_the_authority_for_each_of_its_names(made: tls.Material) -> None:
    leaf = certificate(made.cert)
    for name in [f"{HOST}.local", HOST, "localhost", "table.example.lan"]:
        verify(made, leaf, x509.DNSName(name))
    for address in ["127.0.0.1", "::1", "192.168.7.7", *addresses.lan_addresses()]:
        verify(made, leaf, x509.IPAddress(ipaddress.ip_address(address)))


@needs_openssl
def test_openssl_verifies_the_server_certificate_against_the_authority(made: tls.Material) -> None:
    result = openssl_verify(made, made.cert)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(": OK")


def test_the_chain_file_is_the_server_certificate_then_the_authority(made: tls.Material) -> None:
    chain = x509.load_pem_x509_certificates(made.cert.read_bytes())
    assert len(chain) == 2
    assert chain[1] == certificate(made.ca_cert)
    assert not chain[0].extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def test_the_server_certificate_names_the_machine_its_addresses_and_the_extra_names(made: tls.Material) -> None:
    expected = [
        "localhost",
        "127.0.0.1",
        "::1",
        HOST,
        f"{HOST}.local",
        *addresses.lan_addresses(),
        "table.example.lan",
        "192.168.7.7",
    ]
    assert list(made.names) == list(dict.fromkeys(expected))
    alternatives = certificate(made.cert).extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert ipaddress.ip_address("::1") in alternatives.get_values_for_type(x509.IPAddress)
    assert "127.0.0.1" not in alternatives.get_values_for_type(x509.DNSName)  # an address is never a dns name
    assert certificate(made.cert).subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == HOST


def test_the_authority_carries_critical_name_constraints_for_this_server_and_private_ranges_only(made: tls.Material) -> None:
    extension = certificate(made.ca_cert).extensions.get_extension_for_class(x509.NameConstraints)
    assert extension.critical
    assert extension.value.excluded_subtrees is None
    dns, networks = subtrees(made)
    assert dns == {"localhost", HOST, f"{HOST}.local", "table.example.lan"}
    assert networks == PRIVATE | public_lan_networks()


def test_a_public_address_named_at_creation_is_permitted_alone(tmp_path: Path) -> None:
    material = tls.ensure(tmp_path / "tls", addresses.wanted_names(["203.0.113.5"]))
    _, networks = subtrees(material)
    assert "203.0.113.5/32" in networks
    assert "203.0.113.5" in material.names
    assert not any(ipaddress.ip_network(net).num_addresses > 1 for net in networks - PRIVATE)


def test_the_authority_is_a_ca_for_servers_one_level_deep(made: tls.Material) -> None:
    authority = certificate(made.ca_cert)
    constraints = authority.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and constraints.value.ca and constraints.value.path_length == 0
    usage = authority.extensions.get_extension_for_class(x509.KeyUsage)
    assert usage.critical and usage.value.key_cert_sign and usage.value.crl_sign
    assert isinstance(authority.public_key(), ec.EllipticCurvePublicKey)
    assert authority.public_key().curve.name == "secp256r1"
    assert authority.subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value == f"Companion table authority ({HOST})"
    assert timedelta(days=3640) < authority.not_valid_after_utc - authority.not_valid_before_utc < timedelta(days=3660)


PUBLIC = [x509.DNSName("example.com"), x509.DNSName("accounts.google.com"), x509.IPAddress(ipaddress.ip_address("8.8.8.8"))]
PUBLIC_IDS = ["example.com", "a real site", "a public address"]


@pytest.mark.parametrize("name", PUBLIC, ids=PUBLIC_IDS)
def test_the_authority_cannot_sign_for_a_public_site(made: tls.Material, tmp_path: Path, name: x509.GeneralName) -> None:
    leaf, _ = forged(made, name, tmp_path)
    with pytest.raises(VerificationError):
        verify(made, leaf, name)


@needs_openssl
@pytest.mark.parametrize("name", PUBLIC, ids=PUBLIC_IDS)
def test_openssl_refuses_a_public_site_signed_by_the_authority(
    made: tls.Material, tmp_path: Path, name: x509.GeneralName
) -> None:
    _, path = forged(made, name, tmp_path)
    result = openssl_verify(made, path)
    assert result.returncode != 0
    assert "permitted subtree violation" in result.stdout + result.stderr


def test_permitted_follows_dns_subtrees_and_ip_networks() -> None:
    constraints = x509.NameConstraints(
        permitted_subtrees=[x509.DNSName("table.lan"), x509.IPAddress(ipaddress.ip_network("192.168.0.0/16"))],
        excluded_subtrees=None,
    )
    assert tls.permitted("table.lan", constraints)
    assert tls.permitted("Games.Table.LAN", constraints)
    assert not tls.permitted("bigtable.lan", constraints)
    assert not tls.permitted("lan", constraints)
    assert tls.permitted("192.168.250.1", constraints)
    assert not tls.permitted("192.169.0.1", constraints)
    assert not tls.permitted("::ffff:c0a8:0101", constraints)  # an ipv6 address is never inside an ipv4 network


def test_the_keys_are_for_the_owner_alone_and_never_in_what_ensure_returns(made: tls.Material) -> None:
    assert made.ca_key.stat().st_mode & 0o777 == 0o600
    assert made.key.stat().st_mode & 0o777 == 0o600
    assert made.cert.stat().st_mode & 0o777 == 0o644
    assert made.folder.stat().st_mode & 0o777 == 0o700
    shown = repr(made)
    for key in (made.ca_key, made.key):
        body = [line for line in key.read_text().splitlines() if not line.startswith("-----")]
        assert body and not any(line in shown for line in body)
    assert "PRIVATE KEY" not in shown


def test_an_open_folder_is_closed_again(made: tls.Material) -> None:
    made.folder.chmod(0o755)
    tls.ensure(made.folder, addresses.wanted_names(EXTRA))
    assert made.folder.stat().st_mode & 0o777 == 0o700


def test_the_server_key_is_pkcs8_as_granian_requires(made: tls.Material) -> None:
    text = made.key.read_text()
    assert text.startswith("-----BEGIN PRIVATE KEY-----\n")
    key = serialization.load_pem_private_key(text.encode(), password=None)
    assert key.public_key() == certificate(made.cert).public_key()
    assert made.ca_key.read_text().startswith("-----BEGIN PRIVATE KEY-----\n")


def test_a_second_start_changes_nothing(made: tls.Material) -> None:
    before = files(made.folder)
    again = tls.ensure(made.folder, addresses.wanted_names(EXTRA))
    assert made.created_authority and made.reissued
    assert not again.reissued and not again.created_authority
    assert files(made.folder) == before
    assert again.ca_fingerprint == made.ca_fingerprint and again.spki_sha256 == made.spki_sha256


def test_another_spelling_of_the_same_names_changes_nothing(made: tls.Material) -> None:
    before = files(made.folder)
    again = tls.ensure(
        made.folder, [*addresses.wanted_names(EXTRA), "[::1]", "0:0:0:0:0:0:0:1", "LocalHost.", " Table.Example.LAN "]
    )
    assert not again.reissued
    assert files(made.folder) == before


def test_a_new_address_reissues_the_certificate_under_the_same_authority(made: tls.Material) -> None:
    authority = made.ca_cert.read_bytes()
    again = tls.ensure(made.folder, [*addresses.wanted_names(EXTRA), "192.168.50.60"])
    assert again.reissued and not again.created_authority
    assert "192.168.50.60" in again.names
    assert again.spki_sha256 != made.spki_sha256  # a new key with every issue
    assert made.ca_cert.read_bytes() == authority
    verify(again, certificate(again.cert), x509.IPAddress(ipaddress.ip_address("192.168.50.60")))


def test_a_name_no_longer_wanted_is_no_reason_to_reissue(made: tls.Material) -> None:
    again = tls.ensure(made.folder, ["localhost", "127.0.0.1"])
    assert not again.reissued
    assert "table.example.lan" in again.names


def test_a_certificate_within_30_days_of_expiry_is_reissued_under_the_same_authority(made: tls.Material) -> None:
    authority = made.ca_cert.read_bytes()
    now = datetime.now(UTC)
    assert not tls.ensure(made.folder, addresses.wanted_names(EXTRA), now=now + timedelta(days=300)).reissued
    later = tls.ensure(made.folder, addresses.wanted_names(EXTRA), now=now + timedelta(days=370))
    assert later.reissued
    assert later.not_after > now + timedelta(days=370 + 390)
    assert made.ca_cert.read_bytes() == authority


def test_a_certificate_made_while_the_clock_ran_ahead_is_reissued(made: tls.Material) -> None:
    earlier = tls.ensure(made.folder, addresses.wanted_names(EXTRA), now=datetime.now(UTC) - timedelta(days=2))
    assert earlier.reissued


def test_a_name_outside_the_constraints_is_left_out_and_never_widens_them(made: tls.Material) -> None:
    authority = made.ca_cert.read_bytes()
    again = tls.ensure(made.folder, [*addresses.wanted_names(EXTRA), "games.example.org", "8.8.4.4"])
    assert again.uncovered == ("games.example.org", "8.8.4.4")
    assert "games.example.org" not in again.names and "8.8.4.4" not in again.names
    assert not again.created_authority
    assert made.ca_cert.read_bytes() == authority


def test_a_server_key_that_does_not_fit_its_certificate_is_replaced(made: tls.Material) -> None:
    # what a crash between writing the new key and the new certificate leaves behind
    stray = ec.generate_private_key(ec.SECP256R1())
    made.key.write_bytes(
        stray.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    again = tls.ensure(made.folder, addresses.wanted_names(EXTRA))
    assert again.reissued
    key = serialization.load_pem_private_key(again.key.read_bytes(), password=None)
    assert key.public_key() == certificate(again.cert).public_key()


def test_a_certificate_from_a_replaced_authority_is_reissued(made: tls.Material, tmp_path: Path) -> None:
    other = tls.ensure(tmp_path / "other", addresses.wanted_names(EXTRA))
    for name in ("server.crt", "server.key"):
        (made.folder / name).write_bytes((other.folder / name).read_bytes())
    again = tls.ensure(made.folder, addresses.wanted_names(EXTRA))
    assert again.reissued
    verify(again, certificate(again.cert), x509.DNSName("localhost"))


def test_servers_starting_at_once_share_one_authority(tmp_path: Path) -> None:
    folder = tmp_path / "tls"
    results: list[tls.Material] = []
    barrier = threading.Barrier(4)

    def start() -> None:
        barrier.wait()
        results.append(tls.ensure(folder, addresses.wanted_names(EXTRA)))

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 4
    assert sum(result.created_authority for result in results) == 1
    assert len({result.ca_fingerprint for result in results}) == 1
    key = serialization.load_pem_private_key((folder / "server.key").read_bytes(), password=None)
    assert key.public_key() == certificate(folder / "server.crt").public_key()
    assert not [path.name for path in folder.iterdir() if path.name.startswith(".") and path.name != ".lock"]


def test_a_start_waits_while_another_holds_the_folder(tmp_path: Path) -> None:
    folder = tmp_path / "tls"
    folder.mkdir()
    with (folder / ".lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        waiting = threading.Thread(target=tls.ensure, args=(folder, ["localhost"]))
        waiting.start()
        waiting.join(0.3)
        assert waiting.is_alive() and not (folder / "ca.key").exists()
        fcntl.flock(held, fcntl.LOCK_UN)
    waiting.join(5)
    assert not waiting.is_alive() and (folder / "ca.key").exists()


def test_a_key_without_its_certificate_is_reported_not_replaced(made: tls.Material) -> None:
    key = made.ca_key.read_bytes()
    made.ca_cert.unlink()
    with pytest.raises(RuntimeError, match="delete it"):
        tls.ensure(made.folder, addresses.wanted_names(EXTRA))
    assert made.ca_key.read_bytes() == key


def test_the_server_certificate_is_short_lived_for_servers_only(made: tls.Material) -> None:
    leaf = certificate(made.cert)
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= timedelta(days=398)
    assert made.not_after == leaf.not_valid_after_utc and made.not_after.tzinfo is not None
    assert leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == x509.ExtendedKeyUsage(
        [ExtendedKeyUsageOID.SERVER_AUTH]
    )
    constraints = leaf.extensions.get_extension_for_class(x509.BasicConstraints)
    assert constraints.critical and not constraints.value.ca
    usage = leaf.extensions.get_extension_for_class(x509.KeyUsage)
    assert usage.critical and usage.value.digital_signature and not usage.value.key_cert_sign


def test_the_spki_hash_is_the_one_chromium_expects(made: tls.Material) -> None:
    spki = (
        certificate(made.cert)
        .public_key()
        .public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    )
    assert made.spki_sha256 == base64.b64encode(hashlib.sha256(spki).digest()).decode()


def test_the_fingerprint_is_the_sha256_of_the_authority_as_browsers_show_it(made: tls.Material) -> None:
    digest = hashlib.sha256(tls.ca_der(made)).hexdigest().upper()
    assert made.ca_fingerprint == ":".join(digest[i : i + 2] for i in range(0, len(digest), 2))


@needs_openssl
def test_the_fingerprint_is_the_sha256_openssl_prints(made: tls.Material) -> None:
    printed = subprocess.run(
        ["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", str(made.ca_cert)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert printed.stdout.strip().split("=", 1)[1] == made.ca_fingerprint


def test_the_authority_downloads_as_pem_and_der(made: tls.Material) -> None:
    assert x509.load_pem_x509_certificate(tls.ca_pem(made)) == certificate(made.ca_cert)
    assert x509.load_der_x509_certificate(tls.ca_der(made)) == certificate(made.ca_cert)


def test_the_iphone_profile_is_a_root_payload_and_the_same_on_every_download(made: tls.Material) -> None:
    profile = plistlib.loads(tls.mobileconfig(made))
    assert profile["PayloadType"] == "Configuration"
    assert profile["PayloadVersion"] == 1
    assert profile["PayloadIdentifier"] == f"companion.{HOST}.trust"
    assert profile["PayloadDisplayName"] == "Companion table certificate"
    (root,) = profile["PayloadContent"]
    assert root["PayloadType"] == "com.apple.security.root"
    assert root["PayloadContent"] == tls.ca_der(made)
    assert root["PayloadCertificateFileName"] == "companion-ca.crt"
    assert root["PayloadUUID"] != profile["PayloadUUID"]
    assert tls.mobileconfig(made) == tls.mobileconfig(made)


def test_another_authority_gets_another_profile(made: tls.Material, tmp_path: Path) -> None:
    other = tls.ensure(tmp_path / "other", addresses.wanted_names(EXTRA))
    assert plistlib.loads(tls.mobileconfig(other))["PayloadUUID"] != plistlib.loads(tls.mobileconfig(made))["PayloadUUID"]


def test_companion_tls_names_are_split_on_commas_and_spaces() -> None:
    assert addresses.extra_names_from_env(" table.lan, 192.168.1.9  games.home ,,") == ["table.lan", "192.168.1.9", "games.home"]
    assert addresses.extra_names_from_env(None) == []
    assert addresses.extra_names_from_env("  ,  ") == []


def test_a_name_that_is_no_host_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="neither a host name nor an IP address"):
        tls.ensure(tmp_path / "tls", ["localhost", "https://table.lan"])


def test_the_lan_addresses_are_reachable_ones(made: tls.Material) -> None:
    for text in addresses.lan_addresses():
        address = ipaddress.ip_address(text)
        assert not (address.is_loopback or address.is_link_local or address.is_unspecified), text
        assert text in addresses.wanted_names()


def test_before_the_first_start_there_is_nothing_to_load(tmp_path: Path, made: tls.Material) -> None:
    assert tls.load(tmp_path / "nothing") is None
    loaded = tls.load(made.folder)
    assert loaded is not None and loaded.ca_fingerprint == made.ca_fingerprint and loaded.names == made.names
