"""Logs: one line per event on standard output, each with the request and the user.

- :class:`RequestLogMiddleware` (outermost) gives every request an id (the proxy's
  ``X-Request-ID`` when it sends one), keeps the request in a context variable while it is
  served, and writes one access line when it ends: method, path, status, duration, user,
  client address (logger ``truco.access``).
- :class:`RequestContextFilter` adds ``%(request)s`` to every record logged meanwhile
  (by the views, the services, ``django.request``'s error with its traceback...).
- :class:`OneLineFormatter` folds a traceback into its line (newlines written as ``\\n``),
  so that one event is one line for ``grep`` and log collectors.

A path that carries a key (a table link ``/mesa/<token>/``, a referee's invitation
``/convite/<token>/``) is logged with the key's first four characters only: whoever reads the logs
cannot enter a table's hands or accept an invitation with them. That holds for **every** record,
whoever logs it (issue 21 §8: ``django.request``'s "Forbidden: /mesa/…/pin/", axes' lines with
``path_info``): :class:`RedactFilter` sits on every handler of ``settings.LOGGING`` and rewrites the
record's message, and :class:`OneLineFormatter` redacts the whole line it writes (a traceback too).
"""
from __future__ import annotations

import contextvars
import logging
import re
import time
import uuid

access_log = logging.getLogger("truco.access")
_KEYED_PATH = re.compile(r"(/(?:mesa|convite)/)([A-Za-z0-9_-]{4})[A-Za-z0-9_-]{4,}(?![A-Za-z0-9_-])")
_current = contextvars.ContextVar("truco_request", default=None)


def _client(request) -> str:
    try:
        from .auth import client_ip

        return client_ip(request) or "-"
    except Exception:  # noqa: BLE001 - a log line never fails the request
        return request.META.get("REMOTE_ADDR", "-")


def _user(request) -> str:
    user = getattr(request, "user", None)  # set by AuthenticationMiddleware, if it ran
    if user is None:
        return "-"
    try:
        return user.get_username() if user.is_authenticated else "anonymous"
    except Exception:  # noqa: BLE001 - e.g. the database is down: the line still goes out
        return "?"


def describe(request) -> str:
    """``id=… user=… ip=… GET /path`` for a log line."""
    return (f"id={getattr(request, 'request_id', '-')} user={_user(request)} ip={_client(request)} "
            f"{request.method} {redact(request.get_full_path())}")


def redact(path: str) -> str:
    """``path`` with the key of a table link or an invitation cut to its first four characters."""
    return _KEYED_PATH.sub(r"\1\2…", path)


class RedactFilter(logging.Filter):
    """Every record's message with the keys in its paths cut (:func:`redact`), whoever logged it."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a malformed record is logging's to report, as it would be
            return True
        redacted = redact(message)
        if redacted != message:
            record.msg, record.args = redacted, None
        request = getattr(record, "request", None)
        if isinstance(request, str):
            record.request = redact(request)
        return True


class RequestContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request") or not isinstance(record.request, str):
            request = getattr(record, "request", None) or _current.get()
            record.request = describe(request) if request is not None and hasattr(request, "method") else "-"
        return True


class OneLineFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record)).replace("\r", "").replace("\n", "\\n")


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.META.get("HTTP_X_REQUEST_ID", "")
        request.request_id = header[:36] if header.isprintable() and header else uuid.uuid4().hex[:12]
        token = _current.set(request)
        start = time.monotonic()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            return response
        finally:
            level = logging.ERROR if status >= 500 else logging.WARNING if status >= 400 else logging.INFO
            access_log.log(level, "%d %.0fms", status, (time.monotonic() - start) * 1000,
                           extra={"request": describe(request)})
            _current.reset(token)
