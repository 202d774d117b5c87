"""The errors every app's service layer raises, and that its pages and API turn into answers.

``ServiceError`` is refused input (400): ``field`` names what, ``message`` says why, citing
the article when a rule refuses it. ``Forbidden`` (403): this user may not do it.
``Conflict`` (409): the current state does not allow it now (a locked súmula, a drawn bracket).
``Unavailable`` (503, with ``Retry-After``): a service it needs (the print queue's broker) cannot be
reached now; nothing was done, try again later.
"""
from __future__ import annotations


class ServiceError(Exception):
    """Refused input or action; ``field`` names what, ``message`` says why."""

    status = 400

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(f"{field}: {message}" if field else message)
        self.message = message
        self.field = field

    def as_dict(self) -> dict:
        return {"field": self.field, "message": self.message}


class Forbidden(ServiceError):
    """The user (or the signer) may not do this."""

    status = 403


class Conflict(ServiceError):
    """The current state does not allow it now."""

    status = 409


class Unavailable(ServiceError):
    """A service it needs cannot be reached now: nothing was done, try again in ``retry_after`` seconds."""

    status = 503
    retry_after = 30
