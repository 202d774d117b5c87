"""A print job survives its whole worker process being killed (``kill -9``) in the middle (.ci/run's
second pass): the task, acknowledged only when done, is delivered again to the next worker, which
takes the job over; the PDF is produced once and the job is done.

Like ``test_print_worker.py``, it starts its own workers on the test database and a queue of
its own. The workers use a short visibility timeout and heartbeat so that the redelivery
happens within seconds (production: ``CELERY_VISIBILITY_TIMEOUT``, 2 minutes). The stall sweep
runs meanwhile (as Celery beat and the job's page would) with ``PRINT_JOB_STALL_SECONDS`` set
*shorter* than the redelivery, as first deployed (300 s against 600 s): the job must not be
failed before its task comes back (it was, at 5 min 24 s)."""
from __future__ import annotations

import datetime
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.printing.test_print_worker import BROKER, ROOT, database_url

pytestmark = [
    pytest.mark.services,
    pytest.mark.skipif(not BROKER or not BROKER.startswith("redis"),
                       reason="needs CELERY_BROKER_URL on Redis: a real worker to kill"),
]

MATCHES = 12  # enough for the kill to land mid-job: >= 2 s of rendering; progress every 0.5 s, polled every 0.1 s


def start_worker(env: dict, queue: str, name: str, log: Path) -> subprocess.Popen:
    with open(log, "ab") as handle:
        return subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-Q", queue,
             "-n", f"{name}@%h", "-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
        )


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def test_a_job_whose_worker_is_killed_is_finished_by_the_next_worker_once(
    transactional_db, tmp_path, settings, pdf_pages
):
    from django.contrib.auth import get_user_model
    from django.db import connection

    from config.celery import app
    from printing import upkeep as print_upkeep, jobs as printing
    from printing.models import PrintJob
    from tests.scoring.documents import make_document, store_round
    from tournaments.models import Round, Tournament

    organizer = get_user_model().objects.create_user("org-morte", password="x")
    tournament = Tournament.objects.create(name="Copa do Processo Perdido", slug="copa-processo-perdido",
                                           date=datetime.date(2026, 11, 21), organizer=organizer, best_of=3)
    round_ = Round.objects.create(tournament=tournament, number=1)
    documents = [make_document(100 + n, match_id=n + 1, table=n + 1, best_of=3, style="typical", corrections=0)
                 for n in range(MATCHES)]
    store_round(round_, documents)

    queue = f"print-lost-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "DATABASE_CONN_MAX_AGE": "0",
        "TRUCO_VAR_DIR": str(tmp_path),
        "PYTHONUNBUFFERED": "1",
        "CELERY_VISIBILITY_TIMEOUT": "6",
        "CELERY_RESTORE_INTERVAL": "1",
        "PRINT_JOB_HEARTBEAT_SECONDS": "3",
        "PRINT_JOB_STALL_SECONDS": "3",  # shorter than the redelivery, as first deployed
    }
    # this process sweeps stalled jobs with the workers' figures
    settings.BROKER_VISIBILITY_TIMEOUT, settings.BROKER_RESTORE_INTERVAL = 6, 1
    settings.PRINT_JOB_HEARTBEAT_SECONDS, settings.PRINT_JOB_STALL_SECONDS = 3, 3
    previous = app.conf.task_routes
    app.conf.update(task_routes={"scoring.render_print_job": {"queue": queue}})
    # two workers up from the start, as in production: the one that takes the task is killed whole
    logs = {name: tmp_path / f"{name}.log" for name in ("one", "two")}
    workers = {name: start_worker(env, queue, f"{queue}-{name}", path) for name, path in logs.items()}

    def all_logs() -> str:
        return "\n".join(f"--- {name}\n{path.read_text()[-4000:]}" for name, path in logs.items() if path.exists())

    try:
        job = printing.start_print_job(kind="filled", user=organizer, round=round_)
        deadline = time.monotonic() + 180
        busy = None  # the worker that took the task first (a long job is delivered again after 6 s)
        while time.monotonic() < deadline:  # wait until it is in the middle
            busy = busy or next((name for name, path in logs.items() if "received" in path.read_text()), None)
            job.refresh_from_db()
            if job.status == "running" and 0 < job.done < job.total:
                break
            assert all(w.poll() is None for w in workers.values()), all_logs()
            assert not job.is_finished, f"finished before it could be killed: {job.status}"
            time.sleep(0.1)
        else:
            pytest.fail(f"no worker got going:\n{all_logs()}")
        assert busy, all_logs()
        [other] = [name for name in logs if name != busy]
        workers[busy].kill()  # kill -9 of the whole worker process, in the middle of the job
        workers[busy].wait(timeout=10)
        killed_at = job.done
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            print_upkeep.fail_stalled_jobs()  # Celery beat's sweep (every minute in production)
            job.refresh_from_db()
            if job.is_finished:
                break
            assert workers[other].poll() is None, all_logs()
            time.sleep(0.25)
        else:
            pytest.fail(f"job still {job.status} ({job.done}/{job.total}) after the kill:\n{all_logs()}")
    finally:
        app.conf.update(task_routes=previous)
        for worker in workers.values():
            stop(worker)
    assert job.status == PrintJob.Status.DONE, f"{job.error}\n{all_logs()}"
    assert "received" in logs[other].read_text()  # the other worker took the task over
    assert 0 < killed_at < MATCHES
    assert job.attempts == 2  # taken once more, by the second worker only
    pdfs = list((tmp_path / "media").rglob("*.pdf"))
    assert [p.name for p in pdfs] == [Path(job.file.name).name]  # one PDF, no half-done leftovers
    assert pdf_pages(pdfs[0].read_bytes()) >= MATCHES
