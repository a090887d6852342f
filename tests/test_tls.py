"""The table's certificate authority: what it vouches for, what it refuses, when it reissues."""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import plistlib
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from cryptography.x509.verification import PolicyBuilder, Store, VerificationError

from companion import tls

HOST = tls.hostname()
EXTRA = ["table.example.lan", "192.168.7.7"]


@pytest.fixture
def made(tmp_path: Path) -> tls.Material:
    return tls.ensure(tmp_path / "tls", tls.wanted_names(EXTRA))


def certificate(path: Path) -> x509.Certificate:
    return x509.load_pem_x509_certificates(path.read_bytes())[0]


def verify(material: tls.Material, leaf: x509.Certificate, name: x509.DNSName | x509.IPAddress) -> None:
    authority = certificate(material.ca_cert)
    verifier = PolicyBuilder().store(Store([authority])).time(datetime.now(UTC)).build_server_verifier(name)
    verifier.verify(leaf, [])


def openssl_verify(material: tls.Material, leaf: Path) -> subprocess.CompletedProcess:
    return subprocess.run(["openssl", "verify", "-CAfile", str(material.ca_cert), str(leaf)], capture_output=True, text=True)


def forged(material: tls.Material, name: x509.GeneralName, folder: Path) -> tuple[x509.Certificate, Path]:
    """A certificate someone with a copy of the authority's key signs for a public site."""
    authority = certificate(material.ca_cert)
    authority_key = serialization.load_pem_private_key(material.ca_key.read_bytes(), password=None)
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
    verify(made, leaf, x509.DNSName(f"{HOST}.local"))
    verify(made, leaf, x509.DNSName("localhost"))
    verify(made, leaf, x509.IPAddress(ipaddress.ip_address("127.0.0.1")))
    verify(made, leaf, x509.IPAddress(ipaddress.ip_address("192.168.7.7")))
    result = openssl_verify(made, made.cert)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_server_certificate_names_the_machine_its_addresses_and_the_extra_names(made: tls.Material) -> None:
    for name in ["localhost", "127.0.0.1", "::1", HOST, f"{HOST}.local", *tls.lan_addresses(), *EXTRA]:
        assert name in made.names, name
    alternatives = certificate(made.cert).extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert ipaddress.ip_address("::1") in alternatives.get_values_for_type(x509.IPAddress)


def test_the_authority_carries_critical_name_constraints_for_this_server_and_private_ranges_only(made: tls.Material) -> None:
    extension = certificate(made.ca_cert).extensions.get_extension_for_class(x509.NameConstraints)
    assert extension.critical
    dns = {s.value for s in extension.value.permitted_subtrees if isinstance(s, x509.DNSName)}
    assert dns == {"localhost", HOST, f"{HOST}.local", "table.example.lan"}
    networks = {str(s.value) for s in extension.value.permitted_subtrees if isinstance(s, x509.IPAddress)}
    assert {"127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"} <= networks
    assert not any(ipaddress.ip_network(net).num_addresses > 2**24 and ipaddress.ip_network(net).version == 4 for net in networks)
    assert extension.value.excluded_subtrees is None


@pytest.mark.parametrize(
    "name",
    [x509.DNSName("example.com"), x509.DNSName("accounts.google.com"), x509.IPAddress(ipaddress.ip_address("8.8.8.8"))],
    ids=["example.com", "a real site", "a public address"],
)
def test_the_authority_cannot_sign_for_a_public_site(made: tls.Material, tmp_path: Path, name: x509.GeneralName) -> None:
    leaf, path = forged(made, name, tmp_path)
    with pytest.raises(VerificationError):
        verify(made, leaf, name)
    result = openssl_verify(made, path)
    assert result.returncode != 0
    assert "permitted subtree violation" in result.stdout + result.stderr


def test_the_keys_are_for_the_owner_alone_and_never_in_what_ensure_returns(made: tls.Material) -> None:
    assert made.ca_key.stat().st_mode & 0o777 == 0o600
    assert made.key.stat().st_mode & 0o777 == 0o600
    assert made.folder.stat().st_mode & 0o777 == 0o700
    assert "PRIVATE KEY" not in repr(made)
    assert made.key.read_text().startswith("-----BEGIN PRIVATE KEY-----")  # pkcs8, what granian reads


def test_a_second_start_changes_nothing(made: tls.Material) -> None:
    files = {path.name: path.read_bytes() for path in made.folder.iterdir()}
    again = tls.ensure(made.folder, tls.wanted_names(EXTRA))
    assert not again.reissued and not again.created_authority
    assert {path.name: path.read_bytes() for path in made.folder.iterdir()} == files


def test_a_new_address_reissues_the_certificate_under_the_same_authority(made: tls.Material) -> None:
    authority = made.ca_cert.read_bytes()
    again = tls.ensure(made.folder, [*tls.wanted_names(EXTRA), "10.1.2.3"])
    assert again.reissued
    assert "10.1.2.3" in again.names
    assert made.ca_cert.read_bytes() == authority
    verify(again, certificate(again.cert), x509.IPAddress(ipaddress.ip_address("10.1.2.3")))


def test_a_certificate_within_30_days_of_expiry_is_reissued_under_the_same_authority(made: tls.Material) -> None:
    authority = made.ca_cert.read_bytes()
    assert not tls.ensure(made.folder, tls.wanted_names(EXTRA), now=datetime.now(UTC) + timedelta(days=300)).reissued
    later = tls.ensure(made.folder, tls.wanted_names(EXTRA), now=datetime.now(UTC) + timedelta(days=370))
    assert later.reissued
    assert made.ca_cert.read_bytes() == authority


def test_a_name_outside_the_constraints_is_left_out_and_never_widens_them(made: tls.Material) -> None:
    authority = made.ca_cert.read_bytes()
    again = tls.ensure(made.folder, [*tls.wanted_names(EXTRA), "games.example.org"])
    assert again.uncovered == ("games.example.org",)
    assert "games.example.org" not in again.names
    assert made.ca_cert.read_bytes() == authority


def test_the_server_certificate_is_short_lived_for_servers_only(made: tls.Material) -> None:
    leaf = certificate(made.cert)
    assert leaf.not_valid_after_utc - leaf.not_valid_before_utc <= timedelta(days=398)
    assert leaf.extensions.get_extension_for_class(x509.ExtendedKeyUsage).value == x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH])
    assert not leaf.extensions.get_extension_for_class(x509.BasicConstraints).value.ca


def test_the_spki_hash_is_the_one_chromium_expects(made: tls.Material) -> None:
    spki = certificate(made.cert).public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    assert made.spki_sha256 == base64.b64encode(hashlib.sha256(spki).digest()).decode()


def test_the_fingerprint_is_the_sha256_openssl_prints(made: tls.Material) -> None:
    printed = subprocess.run(["openssl", "x509", "-noout", "-fingerprint", "-sha256", "-in", str(made.ca_cert)], capture_output=True, text=True, check=True)
    assert printed.stdout.strip().split("=", 1)[1] == made.ca_fingerprint


def test_the_iphone_profile_is_a_root_payload_and_the_same_on_every_download(made: tls.Material) -> None:
    profile = plistlib.loads(tls.mobileconfig(made))
    assert profile["PayloadType"] == "Configuration"
    (root,) = profile["PayloadContent"]
    assert root["PayloadType"] == "com.apple.security.root"
    assert root["PayloadContent"] == tls.ca_der(made)
    assert tls.mobileconfig(made) == tls.mobileconfig(made)


def test_companion_tls_names_are_split_on_commas_and_spaces() -> None:
    assert tls.extra_names_from_env(" table.lan, 192.168.1.9  games.home ,") == ["table.lan", "192.168.1.9", "games.home"]
    assert tls.extra_names_from_env(None) == []


def test_before_the_first_start_there_is_nothing_to_load(tmp_path: Path) -> None:
    assert tls.load(tmp_path / "tls") is None


assert shutil.which("openssl"), "the tests check the certificates with OpenSSL too"
