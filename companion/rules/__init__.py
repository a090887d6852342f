"""Pure game logic: no Flask, no SQLAlchemy, no I/O.

Every number from a rulebook lives in this package and nowhere else.

The rules speak English, but every sentence they say to a table is a ``Message``: the
English text, plus the template and parameters it was made from, so that the edge can
say it again in the table's language. ``N_`` and ``Nn_`` make them; they are also the
keywords the message extractor looks for (see ``babel.cfg``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape
from typing import Any, ClassVar, TypeVar


class Message(str):
    """An English sentence that remembers its gettext template and parameters.

    It is a ``str``, so code and tests that only need English can treat it as one.

    >>> message = Nn_("%(num)s point", "%(num)s points", 2)
    >>> message, message.template, message.count
    ('2 points', '%(num)s point', 2)
    >>> str(N_("%(name)s deals.", name="Ana"))
    'Ana deals.'
    """

    template: str
    plural: str | None
    # the number a plural form depends on: it shadows str.count on purpose, as gettext names it
    count: int | None  # type: ignore[assignment]
    params: Mapping[str, Any]
    # how the edge says a message in the reader's language (companion.i18n sets it);
    # until then, English
    speaker: ClassVar[Callable[[Message], str] | None] = None

    def __new__(cls, template: str, plural: str | None = None, count: int | None = None, **params: Any) -> Message:
        if plural is not None:
            params.setdefault("num", count)
        english = plural if plural is not None and count != 1 else template
        shown = {key: _english_list(value) if isinstance(value, list | tuple) else value for key, value in params.items()}
        self = super().__new__(cls, english % shown if params else english)
        self.template, self.plural, self.count, self.params = template, plural, count, params
        return self

    def __html__(self) -> str:
        """The message said and escaped, for HTML that asks (markupsafe's escape does).

        A template that puts a message into a translated sentence gets it in the
        reader's language, not the English it is as a str.

        >>> N_("<%(name)s>", name="&").__html__()
        '&lt;&amp;&gt;'
        """
        speaker = type(self).speaker  # read from the class: a plain function, not a method
        said = speaker(self) if speaker is not None else str(self)
        return escape(str(said), quote=True)

    def __reduce__(self) -> tuple[Any, ...]:
        # pickled (e.g. by hypothesis) it keeps its template and parameters
        return (_rebuild, (self.template, self.plural, self.count, dict(self.params)))


class Either(tuple[Any, ...]):
    """A choice of words, said with "or" where a list would say "and"."""


def _english_list(items: list[Any] | tuple[Any, ...]) -> str:
    """A list as English says it; the edge joins it as the reader's language does.

    >>> _english_list(["A", "B", "C"]), _english_list(Either(["red", "green"]))
    ('A, B, and C', 'red or green')
    """
    # as CLDR writes English lists, so English reads the same before and after the edge
    words = [str(item) for item in items]
    joint = "or" if isinstance(items, Either) else "and"
    if len(words) > 2:
        return f"{', '.join(words[:-1])}, {joint} {words[-1]}"
    return f" {joint} ".join(words)


def _rebuild(template: str, plural: str | None, count: int | None, params: dict[str, Any]) -> Message:
    return Message(template, plural, count, **params)


def N_(template: str, /, **params: Any) -> Message:
    """A sentence for the table; ``%(name)s`` placeholders are filled from ``params``."""
    return Message(template, **params)


def Nn_(singular: str, plural: str, count: int, /, **params: Any) -> Message:
    """A sentence that depends on a number, ``%(num)s`` in the text: "1 point", "2 points"."""
    return Message(singular, plural, count, **params)


class RulesError(ValueError):
    """A table's input that the rules refuse.

    ``errors`` maps a form field name to a message, so the edge can show each
    message beside the field it is about; ``""`` is the form as a whole.
    """

    def __init__(self, message: str, errors: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = dict(errors) if errors is not None else {"": message}

    @classmethod
    def about(cls, field: str, message: str) -> RulesError:
        """Refuse one field, with the same message for the form as a whole."""
        return cls(message, {field: message})

    @classmethod
    def of(cls, errors: Mapping[str, str]) -> RulesError:
        """Refuse several fields at once; the first message speaks for the form."""
        return cls(next(iter(errors.values())), errors)


T = TypeVar("T")


class Faults:
    """Every box at fault in a form, gathered as its parts are read, and refused together: a
    part that cannot be read (an end value that is no number) does not hide the others'.

    >>> faults = Faults()
    >>> faults.read(lambda: int("7")), faults.read(lambda: _refuse("a", "no")), faults.errors
    (7, None, {'a': 'no'})
    """

    def __init__(self) -> None:
        self.errors: dict[str, str] = {}

    def read(self, part: Callable[[], T]) -> T | None:
        """The part read, or None with its refusal kept."""
        try:
            return part()
        except RulesError as error:
            self.errors |= error.errors
            return None

    def check(self) -> None:
        """Refuse every fault gathered, if any."""
        if self.errors:
            raise RulesError.of(self.errors)


def _refuse(field: str, message: str) -> Any:
    raise RulesError.about(field, message)


__all__ = ["N_", "Either", "Faults", "Message", "Nn_", "RulesError"]


class Unanswered(Exception):
    """Every player's share of an input is in and adds up, but the table must answer a
    question first (a Black Spy deal that allows a shoot nobody has said yes or no to):
    ``seats`` are the players it is asked of, ``question`` what every phone is told."""

    def __init__(self, seats: tuple[int, ...], question: str) -> None:
        super().__init__(question)
        self.seats = seats
        self.question = question
