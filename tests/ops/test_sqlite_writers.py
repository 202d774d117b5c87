"""The embedded default (SQLite in a file) holds concurrent writers: threads writing through
the services' lock-then-write pattern (``atomic`` + ``select_for_update`` then a write) wait
for each other instead of failing with ``database is locked`` (WAL + IMMEDIATE transactions).

Run in a subprocess on a fresh SQLite file: the test database of the suite is in memory,
where SQLite's locking is another one."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# the embedded default's own database: its processes drop DATABASE_URL, so CI's services pass skips them
pytestmark = pytest.mark.embedded_only

#: the start of each writers' script: Django, and the one table they write to (and those it refers to),
#: made from the model (the migrations would take seconds)
PRINT_JOB_TABLE = r'''
import django
django.setup()
from django.db import connection, connections, transaction
from printing.models import PrintJob

made = set()
def make_table(model):
    if model in made: return
    made.add(model)
    for field in model._meta.concrete_fields:
        if field.remote_field: make_table(field.remote_field.model)
    with connection.schema_editor() as editor:
        editor.create_model(model)
make_table(PrintJob)
'''

SCRIPT = PRINT_JOB_TABLE + r'''
import sys, threading
journal = connection.cursor().execute("PRAGMA journal_mode").fetchone()[0]
job = PrintJob.objects.create(kind="blank", total=0)
THREADS, WRITES = 6, 15
errors = []
start = threading.Barrier(THREADS)

def writer():
    try:
        start.wait()
        for _ in range(WRITES):
            with transaction.atomic():
                row = PrintJob.objects.select_for_update().get(pk=job.pk)   # lock (read) ...
                PrintJob.objects.filter(pk=row.pk).update(total=row.total + 1)  # ... then write
    except Exception as error:
        errors.append(repr(error))
    finally:
        connections.close_all()

threads = [threading.Thread(target=writer) for _ in range(THREADS)]
for t in threads: t.start()
for t in threads: t.join()
job.refresh_from_db()
print(journal, job.total, THREADS * WRITES, len(errors), errors[:1])
'''


def test_concurrent_writers_on_the_embedded_sqlite_wait_instead_of_failing(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(TRUCO_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings", DATABASE_CONN_MAX_AGE="0")
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    journal, total, expected, errors, first = result.stdout.split(maxsplit=4)
    assert journal == "wal"
    assert errors == "0", first  # no "database is locked"
    assert total == expected  # no lost update: each read-then-write saw the previous one


def test_the_embedded_default_uses_immediate_transactions_and_wal(settings):
    options = settings.DATABASES["default"].get("OPTIONS", {})
    if settings.DATABASES["default"]["ENGINE"].endswith(("sqlite3", "config.sqlite")):
        assert options["transaction_mode"] == "IMMEDIATE"
        assert "journal_mode=WAL" in options["init_command"]


# The tail of the embedded default at 20 tables flat out (p99 5.2 s, max 12.8 s) came from
# SQLite's busy handler: a writer that had waited a while retried every 100 ms while newcomers retried
# after 1 ms and overtook it. config/sqlite gives each writer its turn on a lock file, every waiter
# trying at the same pace, and moves WAL checkpoints off the requests' COMMIT.

TURNS = PRINT_JOB_TABLE + r'''
import json, sys, threading, time
settings = {"autocheckpoint": connection.cursor().execute("PRAGMA wal_autocheckpoint").fetchone()[0],
            "engine": connection.settings_dict["ENGINE"]}
job = PrintJob.objects.create(kind="blank", total=0)
THREADS, WRITES, HOLD = 8, 12, 0.004
waits, errors = [], []
start = threading.Barrier(THREADS)

def writer():
    try:
        start.wait()
        for _ in range(WRITES):
            asked = time.perf_counter()
            with transaction.atomic():
                waits.append(time.perf_counter() - asked)
                row = PrintJob.objects.select_for_update().get(pk=job.pk)
                time.sleep(HOLD)  # a request's work inside its turn
                PrintJob.objects.filter(pk=row.pk).update(total=row.total + 1)
    except Exception as error:
        errors.append(repr(error))
    finally:
        connections.close_all()

threads = [threading.Thread(target=writer) for _ in range(THREADS)]
for t in threads: t.start()
for t in threads: t.join()
job.refresh_from_db()
waits.sort()
print(json.dumps({**settings, "total": job.total, "expected": THREADS * WRITES, "errors": errors[:1],
                  "max_wait": waits[-1], "fair_share": THREADS * HOLD}))
'''


def test_writers_on_the_embedded_sqlite_take_turns_without_starving_and_checkpoint_off_the_commit(tmp_path):
    import json

    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(TRUCO_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings", DATABASE_CONN_MAX_AGE="0")
    result = subprocess.run([sys.executable, "-c", TURNS], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    found = json.loads(result.stdout.strip().splitlines()[-1])
    assert found["engine"] == "config.sqlite"
    assert found["autocheckpoint"] == 0  # no checkpoint inside a request's COMMIT
    assert found["errors"] == [] and found["total"] == found["expected"]
    # With SQLite's backoff a writer could wait behind every other one many times over (a 100 ms sleep
    # per try while others took the lock); taking turns, no wait comes near that. The bound is loose
    # (a shared machine): 8 writers holding ~4 ms each, at most a second.
    assert found["max_wait"] < 1.0, found
    assert (tmp_path / "db.sqlite3-writers").exists()


def test_the_backend_gives_the_turn_back_on_commit_rollback_and_close(tmp_path):
    code = r'''
import django
django.setup()
from django.core.management import call_command
from django.db import connection, transaction
call_command("migrate", "contenttypes", verbosity=0)
states = []
with transaction.atomic():
    states.append(connection.holding_turn)
states.append(connection.holding_turn)
try:
    with transaction.atomic():
        states.append(connection.holding_turn)
        raise ValueError
except ValueError:
    pass
states.append(connection.holding_turn)
transaction.set_autocommit(False)
states.append(connection.holding_turn)
connection.close()
states.append(connection.holding_turn)
print(states)
'''
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "CELERY_BROKER_URL")}
    env.update(TRUCO_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="config.settings")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.strip().splitlines()[-1] == "[True, False, True, False, True, False]"


def test_the_readme_says_how_many_tables_the_embedded_default_is_for():
    readme = (ROOT / "README.md").read_text()
    assert "The embedded default is meant for up to 40" in readme
    assert "benchmarks/table_load.py --sqlite" in readme
