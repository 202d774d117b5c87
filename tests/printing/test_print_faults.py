"""Print jobs that fail well: the stall limit agrees with the broker's redelivery, a
full disk is recorded on the job (its partial PDF removed, nothing raised), and with the broker
down the print request answers 503 with the reason and leaves no job queued without a task.

The whole worker killed with ``kill -9`` and its job taken over by the next worker, with the stall
sweep running, is ``test_print_worker_lost.py`` (CI's services pass); the broker down for real
(a closed port) is ``tests/ops/test_outage.py``."""
from __future__ import annotations

import errno
import html
import os

import pytest
from django.core.checks import run_checks
from django.urls import reverse
from kombu.exceptions import OperationalError as BrokerError

from printing import stalls as print_stalls, upkeep as print_upkeep, jobs as printing
from printing.models import PrintJob
from printing.tasks import render_print_job

pytestmark = pytest.mark.django_db


@pytest.fixture
def eager_tasks(eager_celery):
    yield  # tests/conftest.py: eager_celery


@pytest.fixture
def not_eager():
    """Tasks are sent to a broker (the services pass's settings), whatever the pass."""
    from config.celery import app

    saved = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = saved


@pytest.fixture
def broker_down(monkeypatch, not_eager):
    """A broker configured (not eager) that refuses every publish, as kombu says it when Redis is down."""
    sent = []

    def refuse(*args, **kwargs):
        sent.append(args)
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(render_print_job, "delay", refuse)
    return sent


def new_job(printed_round) -> PrintJob:
    job = PrintJob.objects.create(kind="blank", tournament=printed_round["tournament"], round=printed_round["round"],
                                  total=3, created_by=printed_round["organizer"])
    job.matches.set(printed_round["matches"])
    return job


# -- the stall limit and the redelivery ---------------------------------------------------------

def test_the_stall_limit_outlasts_a_dead_workers_redelivery_with_the_issues_figures(settings):
    """The reported figures: visibility timeout 600 s, stall limit 300 s: the job was failed at 5 min,
    its task came back at 10 min and found it failed. The stall limit used now waits for it."""
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    settings.BROKER_VISIBILITY_TIMEOUT, settings.BROKER_RESTORE_INTERVAL = 600, 10
    settings.PRINT_JOB_HEARTBEAT_SECONDS, settings.PRINT_JOB_STALL_SECONDS = 30, 300
    assert print_stalls.redelivery_seconds() == 610
    assert print_stalls.stall_seconds() == 610 + 2 * 30
    assert "11 minutes" in print_stalls.stalled_reason() or "11 minutos" in print_stalls.stalled_reason()
    warnings = [m for m in run_checks() if m.id == "scoring.W003"]
    assert len(warnings) == 1 and "670 s is used" in warnings[0].msg


def test_the_defaults_agree_and_a_dead_workers_job_resumes_within_about_two_minutes(settings):
    from config import settings as defaults

    if os.environ.get("CELERY_VISIBILITY_TIMEOUT") or os.environ.get("PRINT_JOB_STALL_SECONDS"):
        pytest.skip("the environment overrides the defaults")
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    assert defaults.BROKER_VISIBILITY_TIMEOUT == 120
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == settings.BROKER_VISIBILITY_TIMEOUT \
        or not settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("visibility_timeout")
    assert print_stalls.minimum_stall_seconds() <= settings.PRINT_JOB_STALL_SECONDS == print_stalls.stall_seconds()
    assert not [m for m in run_checks() if m.id == "scoring.W003"]


def test_a_job_is_not_failed_as_stalled_before_its_task_can_come_back(printed_round, settings):
    import datetime

    from django.utils import timezone

    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/0"
    settings.BROKER_VISIBILITY_TIMEOUT, settings.BROKER_RESTORE_INTERVAL = 600, 10
    settings.PRINT_JOB_HEARTBEAT_SECONDS, settings.PRINT_JOB_STALL_SECONDS = 30, 300
    job = new_job(printed_round)
    PrintJob.objects.filter(pk=job.pk).update(status="running", attempts=1, done=2,
                                              updated_at=timezone.now() - datetime.timedelta(seconds=324))
    assert print_upkeep.fail_stalled_jobs() == 0  # 5 min 24 s: the old limit failed it here
    job.refresh_from_db()
    assert job.status == "running"
    PrintJob.objects.filter(pk=job.pk).update(updated_at=timezone.now() - datetime.timedelta(seconds=671))
    assert print_upkeep.fail_stalled_jobs() == 1


# -- a full disk --------------------------------------------------------------------------------

@pytest.fixture
def full_disk(monkeypatch):
    """The storage's writes hit a full disk: half of the first chunk is written, then ENOSPC."""
    from django.core.files.storage import filesystem

    real_fdopen = filesystem.os.fdopen
    written = []

    class FullFile:
        def __init__(self, handle):
            self.handle = handle

        def write(self, chunk):
            self.handle.write(chunk[: len(chunk) // 2])
            self.handle.flush()
            written.append(len(chunk) // 2)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def __getattr__(self, name):
            return getattr(self.handle, name)

    monkeypatch.setattr(filesystem.os, "fdopen", lambda *a, **k: FullFile(real_fdopen(*a, **k)))
    return written


def test_a_full_disk_fails_the_job_with_a_clear_message_and_leaves_no_partial_pdf(
        printed_round, media_root, eager_tasks, full_disk, caplog):
    job = new_job(printed_round)
    assert render_print_job.delay(job.pk).get() == "failed"  # nothing raised out of the task
    assert full_disk, "the PDF was being written when the disk filled"
    job.refresh_from_db()
    assert job.status == PrintJob.Status.FAILED and job.finished_at is not None
    assert job.error == printing.failure_message(OSError(errno.ENOSPC, "No space left on device"))
    assert "disk is full" in job.error or "disco" in job.error
    assert not job.file
    assert not [p for p in media_root.rglob("*") if p.is_file()], "a truncated PDF was left behind"
    failed = [r for r in caplog.records if r.name == "printing.jobs" and r.levelname == "ERROR"]
    assert failed and all(r.exc_info is None for r in failed)  # one line, not a traceback


def test_the_job_page_shows_the_disk_message_with_its_retry_button(
        client, printed_round, media_root, eager_tasks, monkeypatch):
    from django.core.files.storage import filesystem

    job = new_job(printed_round)

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(filesystem.os, "fdopen", full)
    assert printing.run_print_job(job.pk).status == "failed"
    client.force_login(printed_round["organizer"])
    page = html.unescape(client.get(reverse("printing:job", kwargs={"pk": job.pk})).content.decode())
    job.refresh_from_db()
    assert job.error.split(":")[0] in page and "de-novo" in page  # the reason, and the retry button


# -- the broker down ----------------------------------------------------------------------------

@pytest.mark.django_db(transaction=True)  # the task is sent once the job is committed
def test_with_the_broker_down_the_round_print_answers_503_with_the_reason(client, printed_round, broker_down):
    client.force_login(printed_round["organizer"])
    url = reverse("printing:round", kwargs={"pk": printed_round["round"].pk})
    response = client.post(url, {"kind": "blank"})
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    assert response["Content-Type"].startswith("text/html")
    assert printing.broker_unreachable_reason() in response.content.decode()
    assert len(broker_down) == 1
    [job] = PrintJob.objects.filter(round=printed_round["round"])
    # failed at once with the reason, never "queued" without a task for 30 minutes
    assert job.status == PrintJob.Status.FAILED and job.error == printing.broker_unreachable_reason()
    assert job.task_id == "" and job.finished_at is not None


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_a_retry_answers_503_and_the_job_stays_failed(client, printed_round, broker_down):
    job = new_job(printed_round)
    PrintJob.objects.filter(pk=job.pk).update(status="failed", error="no progress")
    client.force_login(printed_round["organizer"])
    response = client.post(reverse("printing:job-retry", kwargs={"pk": job.pk}))
    assert response.status_code == 503 and response["Retry-After"].isdigit()
    job.refresh_from_db()
    assert job.status == "failed" and job.error == printing.broker_unreachable_reason()


def test_a_job_whose_task_was_never_sent_is_sent_again_by_the_sweep(printed_round, monkeypatch, not_eager):
    import datetime

    from django.utils import timezone

    class Sent:
        id = "the-task-id"

    sent = []
    monkeypatch.setattr(render_print_job, "delay", lambda pk: sent.append(pk) or Sent())
    job = new_job(printed_round)  # queued, no task id: its process stopped before the send
    print_upkeep.fail_stalled_jobs()
    assert sent == []  # too young: its own process may be sending it now
    PrintJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - datetime.timedelta(seconds=61))
    print_upkeep.fail_stalled_jobs()
    job.refresh_from_db()
    assert sent == [job.pk] and job.task_id == "the-task-id" and job.status == "queued"
