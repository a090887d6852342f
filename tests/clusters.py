"""A PostgreSQL server of a test's own, to stop and restart under a table that records, and
a small disk to fill: the outages a club server meets, made on purpose.

The cluster is scripts/with-postgres.sh's, in Python: a folder of its own, a unix socket
in it, no TCP. It is apart from the server the suite's PostgreSQL pass shares, whose tests
would not survive its restart.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path


def _bindir() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda path: int(path.parent.name))
    if not found:
        raise RuntimeError("PostgreSQL is not installed (Debian: apt-get install postgresql)")
    return found[-1]


class Cluster:
    """A throwaway PostgreSQL cluster: ``url`` names its database ``companion``."""

    def __init__(self, folder: Path | None = None) -> None:
        # a short path: a unix socket's path may not be longer than 107 bytes
        self.folder = Path(tempfile.mkdtemp(prefix="companion-pg-")) if folder is None else folder
        self.bin = _bindir()
        self.as_owner: list[str] = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.start()
        self._run("createdb", "-h", str(self.folder), "-U", "postgres", "companion")

    @property
    def data(self) -> Path:
        return self.folder / "data"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@/companion?host={self.folder}"

    def _run(self, program: str, *args: str) -> None:
        subprocess.run([*self.as_owner, str(self.bin / program), *args], check=True, capture_output=True, timeout=60)

    def _ctl(self, *args: str) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w", *args)

    def start(self) -> None:
        # fsync off: the tests stop the server, never the machine; commits stay synchronous, so an
        # immediate stop (a crash) keeps every acknowledged write, as on a real server
        options = f"-k {self.folder} -c listen_addresses= -c fsync=off -c max_connections=100"
        self._ctl("-o", options, "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-m", mode, "stop")

    def restart(self, mode: str = "fast") -> None:
        """What an upgrade or a platform's maintenance does: every connection is ended."""
        self.stop(mode)
        self.start()

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


class SmallDisk:
    """A tmpfs of a few MB mounted at ``path`` (root only), to fill, and to make read-only."""

    def __init__(self, path: Path, megabytes: int = 4) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0700", "tmpfs", str(path)], check=True, capture_output=True
        )
        self._filler = path / f".filler-{uuid.uuid4().hex[:8]}"

    @staticmethod
    def can_mount() -> bool:
        return os.geteuid() == 0 and shutil.which("mount") is not None

    def fill(self) -> None:
        """Take every byte left: the next write that needs room is refused (ENOSPC)."""
        # unbuffered: a buffered file keeps what the disk refused, and fails again as it closes
        with self._filler.open("ab", buffering=0) as filler:
            block = b"\0" * 65536
            try:
                while True:
                    filler.write(block)
            except OSError:
                pass
        # what a 64 KB block could not take, a byte at a time
        with self._filler.open("ab", buffering=0) as filler:
            try:
                while True:
                    filler.write(b"\0" * 512)
            except OSError:
                pass

    def free(self) -> None:
        """Room again, as when the owner deletes an old backup."""
        self._filler.unlink(missing_ok=True)

    def read_only(self, read_only: bool = True) -> None:
        option = "remount,ro" if read_only else "remount,rw"
        subprocess.run(["mount", "-o", option, str(self.path)], check=True, capture_output=True)

    def remove(self) -> None:
        subprocess.run(["umount", "-l", str(self.path)], check=False, capture_output=True)
