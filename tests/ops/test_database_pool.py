"""Bounded connections (config/database.py): a web process on PostgreSQL takes its connections from
psycopg's pool (Django's ``OPTIONS["pool"]``), sized from the environment, and its statements stop after
``DATABASE_STATEMENT_TIMEOUT``; Celery's processes get a longer limit, commands none. Before, each web
thread kept its own connection (5 workers x 4 threads = 20 a host, 27 held by two idle hosts) and a
statement could run for 19 minutes.

The settings are read in a new process, as each server reads them; on PostgreSQL (CI's services pass) a
real connection shows the timeout, a statement past it is cancelled, and six threads share at most two
connections.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from config.database import configure_postgresql

ROOT = Path(__file__).resolve().parents[2]
PG_URL = "postgres://truco_app:secret@db.example:5432/truco"


def settings_in(process: str, **environ: str) -> dict:
    """``DATABASES["default"]`` as a new ``process`` (web, worker, migrate...) reads it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env.update(DATABASE_URL=PG_URL, TRUCO_PROCESS_NAME=process, DJANGO_SETTINGS_MODULE="config.settings", **environ)
    code = ("import json; from django.conf import settings; d = settings.DATABASES['default']; "
            "print(json.dumps({k: d[k] for k in ('CONN_MAX_AGE', 'OPTIONS', 'CONN_HEALTH_CHECKS')}))")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_a_web_process_pools_its_connections_with_a_statement_timeout():
    web = settings_in("web")
    assert web["OPTIONS"]["pool"] == {"min_size": 1, "max_size": 4, "timeout": 2.0, "max_idle": 300.0,
                                      "reconnect_timeout": 0}
    assert web["CONN_MAX_AGE"] == 0  # Django refuses persistent connections with a pool
    assert web["CONN_HEALTH_CHECKS"] is True  # with a pool: each connection checked before it is lent
    assert web["OPTIONS"]["options"] == "-c statement_timeout=30000"
    assert web["OPTIONS"]["connect_timeout"] == 5


def test_sizes_and_timeouts_come_from_the_environment():
    web = settings_in("web", WEB_THREADS="8", DATABASE_POOL_MIN_SIZE="2", DATABASE_POOL_TIMEOUT="3",
                      DATABASE_STATEMENT_TIMEOUT="12.5")
    assert web["OPTIONS"]["pool"]["max_size"] == 8 and web["OPTIONS"]["pool"]["min_size"] == 2
    assert web["OPTIONS"]["pool"]["timeout"] == 3.0
    assert web["OPTIONS"]["options"] == "-c statement_timeout=12500"
    assert settings_in("web", DATABASE_POOL_MAX_SIZE="6")["OPTIONS"]["pool"]["max_size"] == 6
    # PgBouncer in front: no pool of our own, no server-side cursors, the timeout set on the role instead
    bouncer = settings_in("web", DATABASE_POOL="false", DATABASE_STATEMENT_TIMEOUT="0")
    assert "pool" not in bouncer["OPTIONS"] and "options" not in bouncer["OPTIONS"]
    assert bouncer["CONN_MAX_AGE"] == 60


def test_celery_gets_a_longer_limit_and_commands_none():
    worker = settings_in("worker")
    assert "pool" not in worker["OPTIONS"] and worker["CONN_MAX_AGE"] == 60  # one task at a time a process
    assert worker["OPTIONS"]["options"] == "-c statement_timeout=300000"
    assert settings_in("beat", DATABASE_TASK_STATEMENT_TIMEOUT="900")["OPTIONS"]["options"] == \
        "-c statement_timeout=900000"
    for command in ("migrate", "backup", "restore"):
        assert "options" not in settings_in(command)["OPTIONS"]


def test_options_of_the_url_are_kept():
    database = {"ENGINE": "django.db.backends.postgresql", "OPTIONS": {"options": "-c search_path=truco"},
                "CONN_MAX_AGE": 60}
    configure_postgresql(database, "web", {"DATABASE_SERVER_SIDE_CURSORS": "false"})
    assert database["OPTIONS"]["options"] == "-c search_path=truco -c statement_timeout=30000"
    assert database["DISABLE_SERVER_SIDE_CURSORS"] is True


REAL = """
import json, threading, time
from django.db import connection, connections, OperationalError
with connection.cursor() as cursor:
    cursor.execute("SHOW statement_timeout")
    shown = cursor.fetchone()[0]
pooled = connection.pool is not None
cancelled = None
try:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_sleep(3)")
except OperationalError as error:
    cancelled = type(error.__cause__).__name__
connection.close()
pids = []
def one():
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid(), pg_sleep(0.3)")
        pids.append(cursor.fetchone()[0])
    connections["default"].close()
threads = [threading.Thread(target=one) for _ in range(6)]
[t.start() for t in threads]; [t.join() for t in threads]
print(json.dumps({"shown": shown, "pooled": pooled, "cancelled": cancelled, "pids": len(set(pids)),
                  "answered": len(pids)}))
"""


@pytest.mark.django_db
def test_a_real_web_connection_has_the_timeout_and_the_pool_bounds_it():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL (CI's services pass)")
    params = connection.settings_dict
    auth = quote(params.get("USER") or "postgres", safe="")
    if params.get("PASSWORD"):
        auth += ":" + quote(params["PASSWORD"], safe="")
    url = f"postgres://{auth}@{params.get('HOST') or '127.0.0.1'}:{params.get('PORT') or 5432}/{params['NAME']}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env.update(DATABASE_URL=url, TRUCO_PROCESS_NAME="web", DJANGO_SETTINGS_MODULE="config.settings",
               DATABASE_STATEMENT_TIMEOUT="1", DATABASE_POOL_MAX_SIZE="2", DJANGO_LOG_LEVEL="ERROR")
    code = "import django; django.setup()\n" + REAL
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["shown"] == "1s" and seen["pooled"]
    assert seen["cancelled"] == "QueryCanceled"  # the statement stopped at the limit, the process goes on
    assert seen["answered"] == 6 and seen["pids"] <= 2  # six threads, at most two connections


OUTAGE = """
import json, socket, sys, threading, time, django
django.setup()
from django.db import OperationalError, connection
host, port, listen = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])

def forward():  # PostgreSQL "back": a loopback port that relays to the real server
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen))
    server.listen(8)
    while True:
        client, _ = server.accept()
        upstream = socket.create_connection((host, port))
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=lambda a=a, b=b: [b.sendall(d) for d in iter(lambda: a.recv(65536), b"")],
                             daemon=True).start()

answers = []
for attempt in range(4):
    if attempt == 2:
        threading.Thread(target=forward, daemon=True).start()
        time.sleep(0.2)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        answers.append("ok")
    except OperationalError as error:
        answers.append(type(error.__cause__).__name__)
    connection.close()
print(json.dumps(answers))
"""


@pytest.mark.django_db
def test_the_pool_answers_an_outage_and_reconnects_at_the_first_request_after_it():
    """PostgreSQL down: a web request gets its OperationalError (hence a 503) after the pool's timeout, and
    the pool's own warnings stay out of the log (the request's line says it). PostgreSQL back: the very
    next request connects (psycopg_pool's default retried in the background with a growing pause: the
    site came back 7.5 s after a 6 s outage, up to a minute after a long one)."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL (CI's services pass)")
    import socket

    params = connection.settings_dict
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        listen = probe.getsockname()[1]
    auth = quote(params.get("USER") or "postgres", safe="")
    if params.get("PASSWORD"):
        auth += ":" + quote(params["PASSWORD"], safe="")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    env.update(DATABASE_URL=f"postgres://{auth}@127.0.0.1:{listen}/{params['NAME']}", TRUCO_PROCESS_NAME="web",
               DJANGO_SETTINGS_MODULE="config.settings", DATABASE_POOL_TIMEOUT="1")
    done = subprocess.run([sys.executable, "-c", OUTAGE, params.get("HOST") or "127.0.0.1", str(params.get("PORT") or 5432),
                           str(listen)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == ["PoolTimeout", "PoolTimeout", "ok", "ok"]
    assert "psycopg.pool" not in done.stdout + done.stderr
