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

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = r'''
import sys, threading
import django
django.setup()
from django.core.management import call_command
from django.db import connection, connections, transaction
from django.db.models import F
from scoring.models import PrintJob

call_command("migrate", "scoring", verbosity=0)
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
    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        assert options["transaction_mode"] == "IMMEDIATE"
        assert "journal_mode=WAL" in options["init_command"]
