"""Print jobs that outlive their worker: taken over once, stalled ones failed with the reason,
retried from their page, old PDFs removed, a deleted job's PDF deleted."""
from __future__ import annotations

import datetime

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from django.utils import timezone

from printing import upkeep as print_upkeep, jobs as printing
from printing.models import PrintJob


@pytest.fixture(autouse=True)
def eager_tasks(eager_celery):
    """The retried job runs in-process, even when a broker is configured (.ci/run's second
    pass); a real worker, killed in the middle, is in test_print_worker_lost.py."""
    yield  # tests/conftest.py: eager_celery


def new_job(printed_round, sheets: int = 1, **fields) -> PrintJob:
    """A blank-súmula job of the round's first ``sheets`` matches: one unless a test needs more (a sheet costs
    WeasyPrint ~0.5 s, and these tests are about the job, not its pages: test_print_jobs.py reads those)."""
    matches = printed_round["matches"][:sheets]
    job = PrintJob.objects.create(kind="blank", tournament=printed_round["tournament"], round=printed_round["round"],
                                  total=len(matches), created_by=printed_round["organizer"], **fields)
    job.matches.set(matches)
    return job


def age(job: PrintJob, seconds: float, field: str = "updated_at") -> None:
    PrintJob.objects.filter(pk=job.pk).update(**{field: timezone.now() - datetime.timedelta(seconds=seconds)})


def test_a_job_whose_worker_died_is_taken_over_once_and_its_pdf_made_once(printed_round, media_root, settings):
    job = new_job(printed_round, sheets=2, status="running", attempts=1, done=1)
    age(job, settings.PRINT_JOB_HEARTBEAT_SECONDS + 5)  # the first worker's last sign of life
    done = printing.run_print_job(job.pk)  # the task, delivered again to the next worker
    assert (done.status, done.claim, done.attempts) == ("done", printing.CLAIMED, 2)
    files = list((media_root / "sumulas" / "impressao").rglob("*.pdf"))
    assert len(files) == 1
    again = printing.run_print_job(job.pk)  # and delivered once more: nothing is redone
    assert again.claim == printing.FINISHED and again.attempts == 2
    assert len(list((media_root / "sumulas" / "impressao").rglob("*.pdf"))) == 1


def test_an_attempt_that_lost_its_job_stores_no_pdf(printed_round, media_root, monkeypatch):
    job = new_job(printed_round)
    real_render = printing.pdf.render_many

    def render_then_lose_the_job(*args, **kwargs):
        data = real_render(*args, **kwargs)
        PrintJob.objects.filter(pk=job.pk).update(attempts=5)  # another worker took it meanwhile
        return data

    monkeypatch.setattr(printing.pdf, "render_many", render_then_lose_the_job)
    result = printing.run_print_job(job.pk)
    assert result.claim == printing.BUSY and result.status == "running"
    assert not (media_root / "sumulas").exists()


def test_a_running_job_without_progress_is_failed_with_its_reason(printed_round, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    stalled = new_job(printed_round, status="running", attempts=1)
    age(stalled, settings.PRINT_JOB_STALL_SECONDS + 1)
    moving = new_job(printed_round, status="running", attempts=1)
    never_taken = new_job(printed_round)
    age(never_taken, settings.PRINT_JOB_QUEUE_TIMEOUT_SECONDS + 1, "created_at")
    assert print_upkeep.fail_stalled_jobs() == 2
    stalled.refresh_from_db(), moving.refresh_from_db(), never_taken.refresh_from_db()
    assert stalled.status == "failed" and "Sem progresso há 5 minutos" in stalled.error
    assert never_taken.status == "failed" and "Nenhum processo de impressão" in never_taken.error
    assert moving.status == "running"


def test_the_job_page_shows_a_stalled_job_failed_with_a_retry_button(client, printed_round, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = False
    job = new_job(printed_round, status="running", attempts=1)
    age(job, settings.PRINT_JOB_STALL_SECONDS + 1)
    client.force_login(printed_round["organizer"])
    status = client.get(reverse("printing:job-status", kwargs={"pk": job.pk})).json()
    assert status["status"] == "failed" and "Sem progresso" in status["error"]
    page = client.get(reverse("printing:job", kwargs={"pk": job.pk})).content.decode()
    assert reverse("printing:job-retry", kwargs={"pk": job.pk}) in page and "Tentar de novo" in page


def test_the_organizer_retries_a_failed_job_once_and_it_prints(client, printed_round, media_root,
                                                               django_capture_on_commit_callbacks):
    job = new_job(printed_round, status="failed", error="Sem progresso", attempts=1)
    url = reverse("printing:job-retry", kwargs={"pk": job.pk})
    client.force_login(printed_round["outsider"])
    assert client.post(url).status_code == 403
    client.force_login(printed_round["organizer"])
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url)
        second = client.post(url)  # a double tap
    assert first.status_code == second.status_code == 302
    job.refresh_from_db()
    assert (job.status, job.error, job.attempts) == ("done", "", 2)  # run once more, not twice
    assert job.file and default_storage.exists(job.file.name)


def test_old_pdfs_are_removed_and_the_job_stays_listed(printed_round, media_root, settings):
    job = new_job(printed_round)
    job = printing.run_print_job(job.pk)
    name = job.file.name
    assert default_storage.exists(name)
    assert print_upkeep.remove_old_files() == 0
    PrintJob.objects.filter(pk=job.pk).update(
        finished_at=timezone.now() - datetime.timedelta(days=settings.PRINT_JOB_KEEP_DAYS + 1))
    assert print_upkeep.remove_old_files() == 1
    job.refresh_from_db()
    assert job.status == "done" and not job.file and not default_storage.exists(name)


def test_deleting_a_job_deletes_its_pdf(printed_round, media_root, django_capture_on_commit_callbacks):
    job = printing.run_print_job(new_job(printed_round).pk)
    name = job.file.name
    with django_capture_on_commit_callbacks(execute=True):
        job.delete()
    assert not default_storage.exists(name)


def test_the_task_is_acknowledged_late_and_redelivered_when_its_worker_is_lost():
    from config.celery import app
    from printing.tasks import render_print_job

    assert render_print_job.acks_late and render_print_job.reject_on_worker_lost
    assert app.conf.task_acks_late and app.conf.worker_prefetch_multiplier == 1
    assert {"scoring.fail_stalled_print_jobs", "scoring.remove_old_print_files"} <= {
        entry["task"] for entry in app.conf.beat_schedule.values()}


@pytest.mark.django_db
def test_operators_find_every_model_they_need_in_the_admin(admin_client):
    from django.contrib import admin

    from scoring.models import Game, HandEntry, PenaltyEntry
    from tournaments.models import AuditEntry, BracketNode, Bye, CheckIn, GroupMember, Result, Stage, TableAssignment

    for model in (PrintJob, CheckIn, TableAssignment, Result, Stage, BracketNode, GroupMember, Bye, AuditEntry,
                  Game, HandEntry, PenaltyEntry):
        assert admin.site.is_registered(model), model
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert admin_client.get(url).status_code == 200, url
    # append-only and derived rows are read-only; print jobs may be deleted
    request = type("R", (), {"user": admin_client.session and None})
    assert not admin.site._registry[AuditEntry].has_change_permission(request)
    assert not admin.site._registry[AuditEntry].has_delete_permission(request)
