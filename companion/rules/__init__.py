"""Pure game logic: no Flask, no SQLAlchemy, no I/O.

Every number from a rulebook lives in this package and nowhere else.
"""


class RulesError(ValueError):
    """A table's input that the rules refuse.

    ``errors`` maps a form field name to a message, so the edge can show each
    message beside the field it is about; ``""`` is the form as a whole.
    """

    def __init__(self, message: str, errors: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.errors = errors if errors is not None else {"": message}


__all__ = ["RulesError"]
