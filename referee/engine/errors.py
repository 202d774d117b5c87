"""The one exception of the engine, a report that cannot be read, and how input is echoed safely."""
from __future__ import annotations


class ReportError(ValueError):
    """A malformed hand report. ``field`` names where (``events[3].play``), ``message`` says what, in Portuguese."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message

    def as_dict(self) -> dict:
        return {"field": self.field, "message": self.message}


def printable(value: object) -> object:
    """``value`` with every string that UTF-8 cannot encode (a lone surrogate, ``"\\ud800"``) escaped.

    What a report echoes (its ``id``, an unknown key, a false call's words) must be writable as
    UTF-8 JSON: the escaped form shows the referee what was sent (``\\ud800``), never a crash.
    """
    kind = type(value)
    if kind is str:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return value.encode("utf-8", "backslashreplace").decode("utf-8")
        return value
    if kind is list:
        return [printable(item) for item in value]
    if kind is dict:
        return {printable(key): printable(item) for key, item in value.items()}
    return value
