"""Whole numbers in urls, bounded by what a database integer holds.

A number past that (``/players/99999999999999999999``) is no row of ours: it is a
404 or the parameter's default, never a database error.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from werkzeug.routing import IntegerConverter

# PostgreSQL's integer; SQLite's is wider, and no id of ours comes near either
LARGEST = 2**31 - 1


class DatabaseInteger(IntegerConverter):
    """``<int:...>`` in every route, with a largest value unless the route names one."""

    def __init__(self, url_map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", LARGEST)
        super().__init__(url_map, *args, **kwargs)


def database_int(text: str) -> int:
    """A query parameter's whole number (``request.args.get("page", type=database_int)``).

    >>> database_int("12"), database_int("-3")
    (12, -3)
    >>> database_int("99999999999999999999")
    Traceback (most recent call last):
    ...
    ValueError: 99999999999999999999 is out of range
    """
    number = int(text)
    if not -LARGEST <= number <= LARGEST:
        raise ValueError(f"{text} is out of range")
    return number


def init_app(app: Flask) -> None:
    # before any blueprint adds its routes: a rule's converters are made when it is added
    app.url_map.converters["int"] = DatabaseInteger
