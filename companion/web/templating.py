"""The app's Jinja environment: Flask's, with an import that does not cost a page a third
of a millisecond.

Each ``{% from "x.html" import m %}`` asks whether the importing page has globals the
imported template lacks (``ctx.globals_keys - template.globals.keys()``), and a template's
globals are a ``ChainMap``, whose keys are looked up one by one in Python: some 60 globals
(url_for, the words, the kinds' numbers) took ~30 µs an import, and a deal's answer makes a
dozen. Their keys given as a set, the same question is one set difference.
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import MutableMapping
from typing import Any

from flask.templating import Environment as FlaskEnvironment


class Globals(ChainMap[str, Any]):
    """A template's globals, as Jinja keeps them (its own, then the environment's)."""

    def keys(self) -> set[str]:  # type: ignore[override]  # a set is what the one caller subtracts
        # made anew each time, so globals the app adds after a template is loaded count
        return set().union(*self.maps)


class Environment(FlaskEnvironment):
    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return Globals({} if d is None else d, self.globals)
