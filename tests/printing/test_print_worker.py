"""A round printed by a REAL Celery worker through the broker (.ci/run's second pass).

Skipped unless CELERY_BROKER_URL is set and the test database can be reached by another
process (PostgreSQL, or SQLite in a file).

The worker cannot be .ci/run's own: that one reads database ``truco_ci``, while the test
data lives in pytest-django's ``test_truco_ci`` (``test_truco_ci_gw0``, ``_gw1``... under
pytest-xdist: one per test process), and a normal test keeps its rows in an uncommitted
transaction. So this module starts its own worker (``--pool solo``) on the test process's
database (read from the connection's settings) with ``DATABASE_CONN_MAX_AGE=0`` (no
connection left open to block pytest-django from dropping the database at the end), listening
only to a queue of its own, to which the print task is routed while the module runs; the test
commits its data (``transactional_db``). The worker is stopped at the end of the module. The
module's tests are one xdist group, so one test process runs them all with one worker.
"""
from __future__ import annotations

import datetime
import os
import re
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest

BROKER = os.environ.get("CELERY_BROKER_URL")
ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.services,
    pytest.mark.xdist_group("print-worker"),
    pytest.mark.skipif(not BROKER, reason="CELERY_BROKER_URL not set: no real worker to print with"),
]


def database_url(settings_dict: dict) -> str:
    engine = settings_dict["ENGINE"]
    if engine.endswith("postgresql"):
        user = quote(settings_dict.get("USER") or "", safe="")
        password = quote(settings_dict.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = settings_dict.get("HOST") or "localhost"
        port = f":{settings_dict['PORT']}" if settings_dict.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{quote(settings_dict['NAME'], safe='')}"
    if engine.endswith(("sqlite3", "config.sqlite")):
        name = str(settings_dict["NAME"])
        if name == ":memory:" or "mode=memory" in name:
            pytest.skip("the test database is SQLite in memory: another process cannot read it")
        return f"sqlite:///{name}"
    pytest.skip(f"no DATABASE_URL for {engine}")


@pytest.fixture(scope="module")
def print_worker(django_db_setup, django_db_blocker, tmp_path_factory):
    """A Celery worker on the test database and a queue of its own; yields (queue, var dir)."""
    from django.db import connection

    from config.celery import app

    with django_db_blocker.unblock():
        url = database_url(connection.settings_dict)
    queue = f"print-test-{uuid.uuid4().hex[:12]}"
    var_dir = tmp_path_factory.mktemp("print-worker-var")
    log_path = var_dir / "worker.log"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "DATABASE_CONN_MAX_AGE": "0",
        "TRUCO_VAR_DIR": str(var_dir),  # MEDIA_ROOT = <var dir>/media, read back by the test
        "PYTHONUNBUFFERED": "1",
    }
    with open(log_path, "wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo", "-Q", queue,
             "-n", f"{queue}@%h", "-l", "info", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )
    previous = app.conf.task_routes
    app.conf.update(task_routes={"scoring.render_print_job": {"queue": queue}})
    try:
        yield {"queue": queue, "var_dir": var_dir, "process": worker, "log": log_path}
    finally:
        app.conf.update(task_routes=previous)
        worker.terminate()  # warm shutdown: finishes the task in hand
        try:
            worker.wait(timeout=30)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait(timeout=10)


def wait_for_job(job, worker, timeout: float = 180):
    """Poll the job until it is finished; fail early, with the worker's log, if the worker died."""
    seen = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if not seen or seen[-1] != (job.status, job.done):
            seen.append((job.status, job.done))
        if job.is_finished:
            return seen
        if worker["process"].poll() is not None:
            pytest.fail(f"the Celery worker exited ({worker['process'].returncode}):\n{worker['log'].read_text()}")
        time.sleep(0.2)
    pytest.fail(f"print job {job.pk} still {job.status} after {timeout}s; worker log:\n{worker['log'].read_text()}")


def test_a_real_worker_prints_a_round_into_one_pdf(transactional_db, print_worker, settings, pdf_pages, pdf_text):
    from django.contrib.auth import get_user_model

    from printing import jobs as printing
    from printing.models import PrintJob
    from tests.scoring.documents import round_documents, store_round
    from tournaments.models import Round, Tournament

    assert not settings.CELERY_TASK_ALWAYS_EAGER
    settings.MEDIA_ROOT = print_worker["var_dir"] / "media"
    users = get_user_model().objects
    organizer = users.create_user("org-worker", first_name="Olga", last_name="Organizadora")
    referee = users.create_user("arb-worker", first_name="Carla", last_name="Árbitra")
    tournament = Tournament.objects.create(name="Copa do Worker", slug="copa-do-worker",
                                           date=datetime.date(2026, 11, 21), organizer=organizer, best_of=3)
    round_ = Round.objects.create(tournament=tournament, number=1)
    matches = store_round(round_, round_documents(4, seed=4242), referee=referee)

    job = printing.start_print_job(kind="filled", user=organizer, round=round_)
    seen = wait_for_job(job, print_worker)

    assert job.status == PrintJob.Status.DONE, f"{job.error}\n{print_worker['log'].read_text()}"
    assert (job.done, job.total) == (4, 4) and job.percent == 100
    assert job.started_at is not None and job.finished_at >= job.started_at
    assert job.task_id  # queued for real: the id of the message on the broker
    assert seen[0][0] in ("queued", "running") and seen[-1] == ("done", 4)
    assert all(a[1] <= b[1] for a, b in zip(seen, seen[1:]))  # progress only grows
    path = Path(job.file.path)
    assert path.is_file() and path.is_relative_to(print_worker["var_dir"])
    data = job.file.read()
    assert data.startswith(b"%PDF")
    assert pdf_pages(data) == sum(pdf_pages(printing.match_pdf(m, "filled")) for m in matches)
    text = pdf_text(data)
    assert text.count("Página 1 de") == 4
    # the worker's lines in the site's one format, with its role and the task
    worker_lines = print_worker["log"].read_text().splitlines()
    assert any(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d INFO worker\[\d+\] celery\.", line)
               for line in worker_lines), worker_lines[-20:]
    for match in matches:
        assert f"Mesa {match.table}" in text and match.pair_a.name in text and match.pair_b.name in text


def test_a_real_worker_records_a_failure(transactional_db, print_worker, settings):
    from django.contrib.auth import get_user_model

    from printing.models import PrintJob
    from tournaments.models import Tournament

    organizer = get_user_model().objects.create_user("org-worker-2")
    tournament = Tournament.objects.create(name="Copa Vazia", slug="copa-vazia", date=datetime.date(2026, 11, 21),
                                           organizer=organizer)
    # a job whose matches vanished before the worker took it: nothing to print
    job = PrintJob.objects.create(kind="blank", tournament=tournament, total=2, created_by=organizer)
    from printing.tasks import render_print_job

    render_print_job.delay(job.pk)
    wait_for_job(job, print_worker, timeout=120)
    assert job.status == PrintJob.Status.FAILED and "nothing to print" in job.error
