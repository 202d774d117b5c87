"""The one exception of the engine, a report that cannot be read, and how input is echoed safely."""
from __future__ import annotations


MAX_FIELD = 120  # characters of an error's field (a path such as events[3].play, or an unknown key)
MAX_MESSAGE = 400  # characters of an error's message


class ReportError(ValueError):
    """A malformed hand report. ``field`` names where (``events[3].play``), ``message`` says what, in Portuguese."""

    def __init__(self, field: str, message: str) -> None:
        # A message may echo what was sent (an unknown key, a card's text): never more than a bounded prefix.
        if len(field) > MAX_FIELD:
            field = field[:MAX_FIELD] + "…"
        if len(message) > MAX_MESSAGE:
            message = message[:MAX_MESSAGE] + "…"
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


#: How much of a long text a message echoes: a report's words, not the report's size.
ECHO_CHARS = 60


def echo(text: str) -> str:
    """``text`` for a message: printable (see :func:`printable`), cut to ``ECHO_CHARS`` with "…" when longer."""
    if len(text) > ECHO_CHARS:
        text = text[:ECHO_CHARS] + "…"
    return printable(text)
