"""The companion as a wheel: built from the repository, installed outside it, serving pages."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.servers import free_port

REPOSITORY = Path(__file__).resolve().parent.parent
LANGUAGES = ("en", "es", "it", "te", "az")
NOT_SHIPPED = shutil.ignore_patterns(
    ".git",
    ".venv",
    "node_modules",
    "instance",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.mo",
    ".pytest_cache",
    ".hypothesis",
)


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the sources as a fresh clone has them: no compiled catalogue, no build left over."""
    sources = tmp_path_factory.mktemp("sources") / "companion"
    shutil.copytree(REPOSITORY, sources, ignore=NOT_SHIPPED)
    return sources


def build_wheel(source: Path, dist: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "-w", str(dist), str(source)],
        check=True,
        capture_output=True,
        timeout=180,
    )
    (built,) = dist.glob("companion-*.whl")
    return built


@pytest.fixture(scope="module")
def wheel(sources: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from the sources, as `pip install .` builds one."""
    return build_wheel(sources, tmp_path_factory.mktemp("dist"))


def test_the_wheel_carries_templates_static_files_migrations_and_compiled_catalogues(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "companion/_data/templates/base.html" in names
    assert "companion/_data/templates/trust/phone.html" in names
    assert "companion/_data/static/css/app.css" in names
    assert any(re.fullmatch(r"companion/_data/static/vendor/htmx-[\d.]+\.min\.js", name) for name in names)
    assert "companion/_data/migrations/env.py" in names
    assert any(name.startswith("companion/_data/migrations/versions/") and name.endswith(".py") for name in names)
    for language in LANGUAGES:
        assert f"companion/_data/translations/{language}/LC_MESSAGES/messages.mo" in names, language


def test_a_wheel_built_from_the_sdist_carries_the_same_files(sources: Path, wheel: Path, tmp_path: Path) -> None:
    build = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    made = subprocess.run(
        [sys.executable, "-c", build, str(tmp_path)],
        cwd=sources,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    )
    sdist = tmp_path / made.stdout.split()[-1]
    from_sdist = build_wheel(sdist, tmp_path / "dist")
    assert set(zipfile.ZipFile(from_sdist).namelist()) == set(zipfile.ZipFile(wheel).namelist())


@pytest.fixture
def installed(wheel: Path, tmp_path: Path) -> Iterator[Path]:
    """A fresh virtualenv outside the checkout with the wheel in it; dependencies lent by this one."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    python = venv / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(wheel)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # a plain path line: this venv's .pth files (the editable install among them) are not read from it
    (site / "lent-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    yield venv


def clean_env(home: Path) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("COMPANION_", "XDG_")) and key not in ("PYTHONPATH", "DATABASE_URL")
    }
    return {**env, "HOME": str(home), "HTTPS_PORT": "off"}


def test_a_wheel_installed_outside_the_checkout_serves_pages(installed: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = clean_env(home)
    where = subprocess.run(
        [
            str(installed / "bin" / "python"),
            "-c",
            "import companion, companion.paths as p; print(companion.__file__); print(p.TEMPLATES)",
        ],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert all(path.startswith(str(installed)) for path in where), where

    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    server = subprocess.Popen(
        [str(installed / "bin" / "companion"), "serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        home_page = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and home_page is None:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                home_page = urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5).read().decode()
            except OSError:
                time.sleep(0.3)
        assert home_page and "Games · Companion" in home_page
        css = re.search(r'<link rel="stylesheet" href="([^"]+)"', home_page).group(1)
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}{css}", timeout=5).status == 200
        spanish = urllib.request.Request(f"http://127.0.0.1:{port}/new", headers={"Accept-Language": "es"})
        assert "Espía negro" in urllib.request.urlopen(spanish, timeout=5).read().decode()
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=20)
        log.close()
    data = home / ".local" / "share" / "companion"
    assert (data / "companion.sqlite3").is_file(), "the per-user data folder holds the database"
    assert (
        not (REPOSITORY / "instance" / "companion.sqlite3").exists()
        or (data / "companion.sqlite3").stat().st_ino != (REPOSITORY / "instance" / "companion.sqlite3").stat().st_ino
    )
