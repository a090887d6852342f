"""Build step of the wheel: the top-level folders the app reads, copied into the package.

The repository keeps templates/, static/, migrations/ and translations/ at the top (see
the design); a wheel has only the package, so they travel as companion/_data, with each
catalogue compiled to the .mo file the app reads. Everything else is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
FOLDERS = ("templates", "static", "migrations", "translations")


class BuildWithData(build_py):
    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # an editable install reads the checkout's own folders
        data = Path(self.build_lib) / "companion" / "_data"
        for folder in FOLDERS:
            shutil.copytree(
                HERE / folder, data / folder, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        compile_catalogues(data / "translations")


def compile_catalogues(folder: Path) -> None:
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in folder.glob("*/LC_MESSAGES/messages.po"):
        with po.open("rb") as source:
            catalogue = read_po(source, locale=po.parent.parent.name)
        with po.with_suffix(".mo").open("wb") as target:
            write_mo(target, catalogue)


setup(cmdclass={"build_py": BuildWithData})
