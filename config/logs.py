"""Logs: one line per event on standard output, in one format for every process.

- Every line of every process (gunicorn's own, Django's, Celery's worker and beat) goes through
  :func:`logging_config` (``settings.LOGGING``, gunicorn's ``logconfig_dict``; Celery keeps it:
  ``config.celery``): ``2026-11-21T14:03:07.412-03:00 INFO web[4121] logger [request] message``: the
  time with its UTC offset, the level, the process's role (``web``, ``worker``, ``beat``, else the
  command: :func:`process_name`, or ``TRUCO_PROCESS_NAME``) and its pid. ``DJANGO_LOG_FORMAT=json``
  writes the same as JSON lines (:class:`JSONLineFormatter`).
- :class:`RequestLogMiddleware` (outermost) gives every request an id (the proxy's
  ``X-Request-ID`` when it sends a sane one, else a new one), sends it back in the response's
  ``X-Request-ID``, keeps the request in a context variable while it is served, and writes one
  access line when it ends: method, path, status, duration, user, client address (logger
  ``truco.access``), and why when a service was down (:func:`note`).
- :class:`RequestContextFilter` adds ``%(request)s`` (and ``%(request_id)s``) to every record logged
  meanwhile (by the views, the services, ``django.request``'s error with its traceback...); in a
  Celery task, the task's name and id (``config.celery`` sets :func:`task_context`).
- :class:`OneLineFormatter` folds a traceback into its line (newlines written as ``\\n``),
  so that one event is one line for ``grep`` and log collectors.
- :class:`MailThrottleFilter` on the mail handler: one mail per distinct error per
  ``DJANGO_ERROR_MAIL_MINUTES``, counted in the ``errors`` cache that every process shares.

A path that carries a key (a table link ``/mesa/<token>/``, a referee's invitation
``/convite/<token>/``, a co-organizer's invitation ``/organizar/<token>/``, a player's sign-up
confirmation ``/inscricao/<token>/``, a player's personal data link ``/dados/<token>/``, the link where an
account chooses its password ``/conta/senha/<uid>/<token>/``; by rule: every route of the URLconf
with a ``token`` parameter, :mod:`config.log_keys`) is logged with the key's first four characters
only: whoever reads the logs cannot enter a table's hands, accept an
invitation or read a player's data with them. That holds for **every** record,
whoever logs it (``django.request``'s "Forbidden: /mesa/…/pin/", axes' lines with
``path_info``): :class:`RedactFilter` sits on every handler of ``settings.LOGGING`` and rewrites the
record's message, and the formatters redact the whole line they write (a traceback too).
"""
from __future__ import annotations

import contextvars
import hashlib
import json
import logging
import os
import re
import sys
import time
import traceback
import uuid
from datetime import datetime

access_log = logging.getLogger("truco.access")
_current = contextvars.ContextVar("truco_request", default=None)
_task = contextvars.ContextVar("truco_task", default=None)
#: a request id a client or proxy may choose: short, no spaces nor quotes (it is written in every line)
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")


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
    """``path`` (or any text) with every key in its paths cut to its first four characters: the paths
    of the URLconf's routes with a key in them (``config.log_keys``)."""
    from .log_keys import keyed_path

    return keyed_path().sub(r"\1\2…", path)


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
    """``record.request`` (who and what, or ``-``) and ``record.request_id`` for the formatters."""

    def filter(self, record: logging.LogRecord) -> bool:
        request = getattr(record, "request", None)
        if not isinstance(request, str):
            request = request if request is not None and hasattr(request, "method") else _current.get()
            task = _task.get()
            if request is not None and hasattr(request, "method"):
                record.request = describe(request)
            elif task is not None:
                record.request = f"task={task[0]} id={task[1]}"
            else:
                record.request = "-"
            current = request if request is not None and hasattr(request, "method") else None
            record.request_id = (getattr(current, "request_id", None) if current is not None
                                 else task[1] if task is not None else None) or "-"
        elif not hasattr(record, "request_id"):
            match = re.match(r"id=(\S+)", request)
            record.request_id = match.group(1) if match else "-"
        return True


def task_context(name: str | None, task_id: str | None) -> None:
    """The Celery task being run (its lines carry ``task=<name> id=<id>``), or ``None`` when it ended."""
    _task.set((name, task_id) if name else None)


def note(reason: str) -> bool:
    """Add why to the current request's access line (e.g. "database unreachable: ..."); ``False`` when
    no request is being served."""
    request = _current.get()
    if request is None:
        return False
    request.log_note = reason
    return True


_process_name = None


def process_name() -> str:
    """The process's role in the lines: ``web`` (gunicorn, runserver), ``worker`` and ``beat`` (Celery),
    else the command (``migrate``, ``pytest``...); ``TRUCO_PROCESS_NAME`` chooses it."""
    global _process_name
    if _process_name is None:
        chosen = os.environ.get("TRUCO_PROCESS_NAME", "").strip()
        argv = [os.path.basename(a) for a in sys.argv] or [""]
        program = argv[0]
        if chosen:
            _process_name = chosen
        elif "gunicorn" in program or "runserver" in argv[1:2]:
            _process_name = "web"
        elif "celery" in program or "celery" in os.path.dirname(sys.argv[0] if sys.argv else ""):
            _process_name = next((a for a in argv[1:] if a in ("worker", "beat")), "celery")
        elif program in ("manage.py", "django-admin") and len(argv) > 1:
            _process_name = argv[1]
        else:
            _process_name = program.removesuffix(".py") or "python"
    return _process_name


def _timestamp(created: float) -> str:
    """The time with its UTC offset, to the millisecond: ``2026-11-21T14:03:07.412-03:00``."""
    return datetime.fromtimestamp(created).astimezone().isoformat(timespec="milliseconds")


class OneLineFormatter(logging.Formatter):
    """``<time with offset> <LEVEL> <process>[pid] <logger> [<request>] <message>``, a traceback folded in."""

    default_format = "%(asctime)s %(levelname)s %(process_name)s[%(process)d] %(name)s [%(request)s] %(message)s"

    def __init__(self, fmt: str | None = None, *args, **kwargs) -> None:
        super().__init__(fmt or self.default_format, *args, **kwargs)

    def formatTime(self, record: logging.LogRecord, datefmt: str | None = None) -> str:  # noqa: N802 - logging's name
        return _timestamp(record.created)

    def format(self, record: logging.LogRecord) -> str:
        record.process_name = process_name()
        if not hasattr(record, "request"):
            record.request = "-"
        return redact(super().format(record)).replace("\r", "").replace("\n", "\\n")


class JSONLineFormatter(logging.Formatter):
    """The same fields as :class:`OneLineFormatter`, one JSON object per line (``DJANGO_LOG_FORMAT=json``)."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": _timestamp(record.created),
            "level": record.levelname,
            "process": process_name(),
            "pid": record.process,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "request": getattr(record, "request", "-") if isinstance(getattr(record, "request", None), str) else "-",
            "message": redact(record.getMessage()),
        }
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = redact(record.exc_text)
        return json.dumps(line, ensure_ascii=False)


class MailThrottleFilter(logging.Filter):
    """One mail per distinct error per ``ERROR_MAIL_EVERY_MINUTES`` (a 10 s outage sent 377).

    The same error is the same exception class raised at the same line (or, without an exception, the
    same logger and message template): a path or an id in the message does not make another one. The
    ones sent lately are counted in the ``errors`` cache, which every process shares (Redis, or files in
    ``var/``); if that cache cannot be reached either, each process counts on its own."""

    _local: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        from django.conf import settings

        seconds = int(float(getattr(settings, "ERROR_MAIL_EVERY_MINUTES", 10)) * 60)
        if seconds <= 0:
            return True
        key = "mail:" + hashlib.sha256(self.signature(record).encode("utf-8", "replace")).hexdigest()[:40]
        try:
            from django.core.cache import caches

            return bool(caches["errors"].add(key, 1, timeout=seconds))
        except Exception:  # noqa: BLE001 - the cache is down too: this process's memory, better than 377 mails
            now = time.monotonic()
            if self._local.get(key, 0.0) > now:
                return False
            self._local[key] = now + seconds
            return True

    @staticmethod
    def signature(record: logging.LogRecord) -> str:
        exc = record.exc_info[1] if record.exc_info else None
        if exc is not None:
            frames = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ else []
            where = f"{frames[-1].filename}:{frames[-1].lineno}" if frames else ""
            return f"{record.name}|{type(exc).__module__}.{type(exc).__qualname__}|{where}"
        kind = getattr(record, "error_kind", "") or getattr(record, "status_code", "")
        return f"{record.name}|{record.levelname}|{record.msg}|{kind}"


class RequestLogMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        header = request.META.get("HTTP_X_REQUEST_ID", "")
        request.request_id = header if _REQUEST_ID.fullmatch(header) else uuid.uuid4().hex[:16]
        token = _current.set(request)
        start = time.monotonic()
        status = 500
        try:
            response = self.get_response(request)
            status = response.status_code
            response["X-Request-ID"] = request.request_id
            return response
        finally:
            level = logging.ERROR if status >= 500 else logging.WARNING if status >= 400 else logging.INFO
            why = getattr(request, "log_note", "")
            access_log.log(level, "%d %.0fms%s", status, (time.monotonic() - start) * 1000,
                           f" {why}" if why else "", extra={"request": describe(request)})
            _current.reset(token)


def logging_config(level: str | None = None, fmt: str | None = None) -> dict:
    """The one logging configuration of every process: ``settings.LOGGING`` (Django, Celery) and
    gunicorn's ``logconfig_dict`` (config/gunicorn_conf.py). Everything to standard output, one line
    per event; errors also by mail to ``ADMINS`` (rate-limited); key redaction on every handler."""
    level = level or os.environ.get("DJANGO_LOG_LEVEL", "INFO")
    fmt = (fmt or os.environ.get("DJANGO_LOG_FORMAT", "text")).strip().lower()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {
            "request": {"()": "config.logs.RequestContextFilter"},
            "redact": {"()": "config.logs.RedactFilter"},  # no table link or invitation key in any line
            "require_debug_false": {"()": "django.utils.log.RequireDebugFalse"},
            "mail_throttle": {"()": "config.logs.MailThrottleFilter"},
            "outage": {"()": "config.outage.OutageRecordFilter"},
        },
        "formatters": {
            "line": {"()": "config.logs.JSONLineFormatter" if fmt == "json" else "config.logs.OneLineFormatter"},
        },
        "handlers": {
            "stdout": {
                "class": "logging.StreamHandler", "stream": "ext://sys.stdout",
                "filters": ["redact", "request"], "formatter": "line",
            },
            "mail_admins": {
                "class": "config.log_mail.AdminEmailHandler", "level": "ERROR",
                # the throttle last: a record the others drop does not count
                "filters": ["require_debug_false", "redact", "mail_throttle"],
            },
        },
        "root": {"handlers": ["stdout"], "level": level},
        "loggers": {
            "django": {"handlers": ["stdout"], "level": level, "propagate": False},
            # a request answered 503 because the database is down: its access line says it (config.outage)
            "django.request": {"handlers": ["stdout", "mail_admins"], "level": "WARNING", "propagate": False,
                               "filters": ["outage"]},
            "django.security": {"handlers": ["stdout", "mail_admins"], "level": "WARNING", "propagate": False},
            # the access line (config.logs.RequestLogMiddleware) already says every 4xx
            "django.server": {"handlers": ["stdout"], "level": "WARNING", "propagate": False},
            "truco.access": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
            # one record per request that met a service down: mailed (rate-limited), not written
            "truco.outage": {"handlers": ["mail_admins"], "level": "ERROR", "propagate": False},
            "gunicorn.error": {"handlers": ["stdout"], "level": "INFO", "propagate": False},
            # a web process's pool failing to connect (PostgreSQL down) warned several lines per request: the
            # request's own line says it (config.outage), as without a pool
            "psycopg.pool": {"handlers": ["stdout"], "level": "ERROR", "propagate": False},
            # the request's one line is truco.access (with its id, user, time taken): not gunicorn's too
            "gunicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "celery": {"handlers": ["stdout"], "level": level, "propagate": False},
        },
    }
