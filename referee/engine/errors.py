"""The one exception of the engine: a report that cannot be read."""
from __future__ import annotations


class ReportError(ValueError):
    """A malformed hand report. ``field`` names where (``events[3].play``), ``message`` says what, in Portuguese."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.field = field
        self.message = message

    def as_dict(self) -> dict:
        return {"field": self.field, "message": self.message}
