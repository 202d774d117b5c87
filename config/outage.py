"""Honest answers while a service is down: the database unreachable is a 503 with
``Retry-After``, never a 500 page, and costs one short log line, not a traceback.

- :func:`database_down` tells a lost database (connection refused or dropped, server shutting
  down, SQLite's file unreadable or locked past its timeout) from other database errors, which
  are bugs and keep their traceback. It reads the driver's exception (psycopg's ``sqlstate``:
  none, class 08 "connection exception", 57P01-03 "shutdown"), not Django's wrapper only.
- :func:`unavailable_response`: the API (``/api/``) answers JSON in its one error shape
  (``config.api.error_body``); pages get a short HTML page. Both 503 with ``Retry-After``. The
  request is marked (``config.logs.note``) so that its access line says why,
  and one record goes to logger ``truco.outage``, which only mails (rate-limited:
  ``config.logs.MailThrottleFilter``): the access line is the request's one line.
- Where it is called: the API's exception handler (``config.api_errors``) for errors inside a
  view, the 500 handler (``config.error_views.server_error``) for the rest (a session or user
  read by a middleware). ``OutageRecordFilter`` on ``django.request`` drops Django's own
  "Service Unavailable" record with its traceback for these requests.
- :func:`readiness`: ``/readyz``, the database and the broker reachable or not.
"""
from __future__ import annotations

import logging
import sqlite3

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

log = logging.getLogger("truco.outage")

#: psycopg's sqlstates of a lost server: connection exceptions and shutdowns
_LOST_STATES = ("08", "57P01", "57P02", "57P03")
_SQLITE_LOST = ("unable to open database file", "disk i/o error", "database is locked")


def _chain(exc: BaseException):
    seen = set()
    while exc is not None and id(exc) not in seen and len(seen) < 8:
        seen.add(id(exc))
        yield exc
        exc = exc.__cause__ or exc.__context__


def _psycopg_lost(exc: BaseException) -> bool:
    try:
        import psycopg
    except ImportError:  # pragma: no cover - SQLite-only installs
        return False
    if isinstance(exc, psycopg.InterfaceError):
        return True
    if isinstance(exc, psycopg.OperationalError):
        state = getattr(exc, "sqlstate", None)
        return state is None or state.startswith(_LOST_STATES)
    return False


def database_down(exc: BaseException | None) -> str:
    """A one-line reason when ``exc`` (or what caused it) says the database cannot be reached; else ""."""
    from django.db import Error as DatabaseError

    if exc is None or not any(isinstance(e, DatabaseError) for e in _chain(exc)):
        return ""
    for error in _chain(exc):
        if _psycopg_lost(error) or (isinstance(error, sqlite3.OperationalError)
                                    and str(error).lower().startswith(_SQLITE_LOST)):
            first_line = (str(error).strip().splitlines() or [""])[0]
            return f"{type(error).__name__}: {first_line}"[:200]
    return ""


def retry_after() -> int:
    return settings.RETRY_AFTER_SECONDS


def database_message() -> str:
    return _("The service is briefly unavailable: its database cannot be reached. Try again in a few seconds.")


def unavailable_response(request, reason: str):
    """The 503 for a request that met the database down (API: JSON; pages: a short HTML page)."""
    from config.api import error_body

    mark(request, reason)
    message = database_message()
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("", message), status=503)
    else:
        title = _("Briefly unavailable")
        again = _("Try again")
        link = f'<p><a href="{escape(request.get_full_path())}">{again}</a></p>' if request.method == "GET" else ""
        response = HttpResponse(
            f'<!doctype html><html lang="{escape(get_language() or "pt-br")}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><title>{title}</title></head>'
            f"<body><h1>{title}</h1><p>{escape(message)}</p>{link}</body></html>",
            status=503, content_type="text/html; charset=utf-8")
    response["Retry-After"] = str(retry_after())
    response["Cache-Control"] = "no-store"
    return response


def report(kind: str, detail: str) -> bool:
    """Say ``kind: detail`` on the current request's access line, and tell the admins (logger
    ``truco.outage``: mail only, one per ``kind`` per N minutes). ``False`` when no request is being
    served (a worker: log it yourself)."""
    from config.logs import note

    reason = f"{kind}: {detail}"
    log.error("%s", reason, extra={"error_kind": kind})
    return note(reason)


def mark(request, reason: str) -> None:
    report("database unreachable", reason)


class OutageRecordFilter(logging.Filter):
    """Drops ``django.request``'s record (with its ~5 KB traceback) of a request answered 503 because a
    service is down: the request's access line already says it, in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if database_down(exc):
            return False
        return not getattr(getattr(record, "request", None), "log_note", "")


# -- readiness --------------------------------------------------------------------------------

def check_database() -> str:
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")  # raw: a probe of the server itself, through no table of ours
            cursor.fetchone()
    except Exception as error:  # noqa: BLE001 - any failure means not ready
        connection.close_if_unusable_or_obsolete()
        return f"unreachable ({database_down(error) or type(error).__name__})"
    return "ok"


def check_broker() -> str:
    url = settings.CELERY_BROKER_URL
    if not url:
        return "not used"  # eager: tasks run in the web process
    if url.startswith("filesystem://"):
        from pathlib import Path

        folder = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("data_folder_in", "")
        return "ok" if folder and Path(folder).is_dir() else "unreachable (no broker folder)"
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=settings.CELERY_BROKER_CONNECTION_TIMEOUT)
            connection.default_channel  # noqa: B018 - Redis is asked (PING) when the channel opens
    except Exception as error:  # noqa: BLE001 - any failure means not ready
        return f"unreachable ({type(error).__name__})"
    return "ok"


def readiness() -> tuple[bool, dict]:
    checks = {"database": check_database(), "broker": check_broker()}
    ready = all(value in ("ok", "not used") for value in checks.values())
    return ready, {"status": "ready" if ready else "unavailable", **checks}
