"""Where the app finds its templates, static files, migrations and catalogues, and its instance.

From a checkout (or an editable install) they are the repository's top-level folders, as
the design keeps them; a wheel carries copies inside the package, under ``_data``, made
by ``setup.py`` at build time with the catalogues compiled.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
CHECKOUT = PACKAGE.parent
FROM_CHECKOUT = (CHECKOUT / "templates").is_dir() and (CHECKOUT / "pyproject.toml").is_file()
DATA = CHECKOUT if FROM_CHECKOUT else PACKAGE / "_data"

TEMPLATES = DATA / "templates"
STATIC = DATA / "static"
MIGRATIONS = DATA / "migrations"
TRANSLATIONS = DATA / "translations"


def instance_folder() -> Path:
    """COMPANION_INSTANCE, else the checkout's instance/, else a per-user data folder."""
    if os.environ.get("COMPANION_INSTANCE"):
        return Path(os.environ["COMPANION_INSTANCE"])
    if FROM_CHECKOUT:
        return CHECKOUT / "instance"
    from platformdirs import user_data_dir

    return Path(user_data_dir("companion", appauthor=False))


def private_folder(folder: Path) -> Path:
    """``folder``, made if need be, open to its owner alone (0700): it holds the database,
    the secret key and the certificates of the table."""
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    _narrow(folder, 0o700)
    return folder


def private_files(*files: Path) -> None:
    """Leave each of these files that exists readable by its owner alone (0600)."""
    for file in files:
        _narrow(file, 0o600)


def _narrow(path: Path, mode: int) -> None:
    # mkdir's and open's modes pass through the umask, and an older install's files may be
    # wider: narrowed where they are ours to change, never widened
    try:
        if path.stat().st_mode & 0o777 & ~mode:
            os.chmod(path, mode)
    except (FileNotFoundError, PermissionError):
        pass


# below this, `companion serve` warns at start: a night's games take a few MB, a database's
# journal and an export some more, and a disk that fills refuses every entry (a 507)
LOW_DISK_BYTES = 100 * 1024 * 1024


def low_disk(*folders: Path) -> list[tuple[Path, int]]:
    """Each of these folders whose disk has less than LOW_DISK_BYTES free, with the bytes free."""
    import shutil

    low = []
    for folder in folders:
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue  # a folder not there yet: nothing to say of its disk
        if free < LOW_DISK_BYTES:
            low.append((folder, free))
    return low
