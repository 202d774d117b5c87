"""PostgreSQL's connection settings by kind of process: the bounded pool of a web process and each
process's statement timeout, from the environment (README "One site for many clubs").

- **web** (gunicorn, runserver): psycopg's pool through Django's ``OPTIONS["pool"]``, one per process,
  at most ``DATABASE_POOL_MAX_SIZE`` connections (default ``WEB_THREADS``, 4: one per thread, so
  5 workers x 4 threads hold at most 20) and ``DATABASE_POOL_MIN_SIZE`` kept open when idle (1: an idle
  host holds ~5, not 20); a request that finds every connection busy waits ``DATABASE_POOL_TIMEOUT``
  seconds, then answers 503 like any unreachable database. A pooled connection is checked before use
  (one PostgreSQL ended in a restart is replaced). Django requires ``CONN_MAX_AGE = 0`` with a pool.
  Statements stop after ``DATABASE_STATEMENT_TIMEOUT`` seconds (30): a pathological plan costs one
  request, never a connection held for minutes.
- **worker** and **beat** (Celery): one connection per process (prefork: one task at a time), kept
  (``DATABASE_CONN_MAX_AGE``); statements stop after ``DATABASE_TASK_STATEMENT_TIMEOUT`` (300 s:
  rendering a round's PDFs, the periodic súmula check).
- anything else (``migrate``, ``backup``, ``restore``, a shell, the tests): no pool, no timeout.

``DATABASE_POOL=false`` turns the pool off (PgBouncer in front: README), ``true`` turns it on for any
process; ``0`` as a timeout means none.
"""
from __future__ import annotations

from collections.abc import Mapping

WEB = "web"
TASKS = ("worker", "beat")
FALSE = {"0", "false", "no", "off"}
TRUE = {"1", "true", "yes", "on"}


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    return float(environ.get(name, "").strip() or default)


def statement_timeout(process: str, environ: Mapping[str, str]) -> float:
    """Seconds a statement of this process may run (0: no limit)."""
    if process == WEB:
        return _seconds(environ, "DATABASE_STATEMENT_TIMEOUT", 30)
    if process in TASKS:
        return _seconds(environ, "DATABASE_TASK_STATEMENT_TIMEOUT", 300)
    return 0


def pooled(process: str, environ: Mapping[str, str]) -> bool:
    chosen = environ.get("DATABASE_POOL", "").strip().lower()
    if chosen in FALSE:
        return False
    return chosen in TRUE or process == WEB


def pool_options(environ: Mapping[str, str]) -> dict:
    threads = int(environ.get("WEB_THREADS", "").strip() or 4)
    max_size = int(environ.get("DATABASE_POOL_MAX_SIZE", "").strip() or threads)
    return {
        "min_size": min(int(environ.get("DATABASE_POOL_MIN_SIZE", "").strip() or 1), max_size),
        "max_size": max_size,
        "timeout": _seconds(environ, "DATABASE_POOL_TIMEOUT", 2),
        "max_idle": _seconds(environ, "DATABASE_POOL_MAX_IDLE", 300),
        # a failed connection is not retried in the background with a growing pause (psycopg_pool's default:
        # for up to 5 minutes, so a site came back up to a minute after PostgreSQL did): the next request
        # that needs one tries again at once
        "reconnect_timeout": 0,
    }


def configure_postgresql(database: dict, process: str, environ: Mapping[str, str]) -> dict:
    """``database`` (Django's ``DATABASES["default"]`` for PostgreSQL) with this process's pool and
    statement timeout."""
    options = database.setdefault("OPTIONS", {})
    timeout = statement_timeout(process, environ)
    if timeout > 0:
        libpq = options.get("options", "")
        options["options"] = f"{libpq} -c statement_timeout={int(timeout * 1000)}".strip()
    if pooled(process, environ):
        options["pool"] = pool_options(environ)
        database["CONN_MAX_AGE"] = 0  # Django refuses persistent connections with a pool
        # kept: with a pool, Django has it check a connection before lending it (ConnectionPool.check_connection),
        # so one that PostgreSQL ended (a restart, a failover) is replaced, not a request's false 503
    if environ.get("DATABASE_SERVER_SIDE_CURSORS", "").strip().lower() in FALSE:
        database["DISABLE_SERVER_SIDE_CURSORS"] = True  # PgBouncer in transaction mode
    return database
