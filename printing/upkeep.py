"""Upkeep of print jobs: stalled jobs marked failed, retries, old PDFs removed.

- :func:`fail_stalled_jobs` (Celery beat, every minute; ``printing.stalls.fail_if_stalled`` does
  it for one job when its page polls it): a running job with no progress for the stall limit
  (``printing.stalls.stall_seconds``) is marked failed with the reason (its worker stopped),
  and so is a queued job that no worker took within ``PRINT_JOB_QUEUE_TIMEOUT_SECONDS``. A queued
  job whose task was never sent (the process stopped between the job's commit and the send) is
  sent again.
- :func:`retry_job`: the organizer queues a failed job again from its page (a double tap
  queues it once).
- :func:`remove_old_files` (Celery beat, hourly): the PDFs of jobs finished more than
  ``PRINT_JOB_KEEP_DAYS`` days ago are deleted from the storage; the jobs stay listed.
- A deleted job (the admin) takes its PDF with it.

The PDFs live in Django's default storage (the local disk, or S3-compatible), never on a
path of one machine.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.files.storage import default_storage
from django.db import transaction
from django.db.models.signals import post_delete
from django.dispatch import receiver
from django.utils import timezone

from config.errors import Unavailable

from .jobs import queue_job
from .models import PrintJob
from .stalls import never_taken_reason, stall_seconds, stalled_reason

log = logging.getLogger(__name__)


def fail_stalled_jobs(now=None) -> int:
    """Mark failed every stalled running job and every queued job nobody took; returns how many."""
    now = now or timezone.now()
    stalled = PrintJob.objects.filter(
        status=PrintJob.Status.RUNNING, updated_at__lt=now - timedelta(seconds=stall_seconds())
    ).update(status=PrintJob.Status.FAILED, error=stalled_reason(), finished_at=now, updated_at=now)
    never_taken = PrintJob.objects.filter(
        status=PrintJob.Status.QUEUED,
        created_at__lt=now - timedelta(seconds=settings.PRINT_JOB_QUEUE_TIMEOUT_SECONDS),
    ).update(status=PrintJob.Status.FAILED, error=never_taken_reason(), finished_at=now, updated_at=now)
    if stalled or never_taken:
        log.warning("print jobs marked failed: %d stalled, %d never taken", stalled, never_taken)
    resend_unsent(now)
    return stalled + never_taken


def resend_unsent(now=None) -> int:
    """Send again the task of every queued job that has no task id a minute after it was made (its
    process stopped between the commit and the send); returns how many were sent."""
    now = now or timezone.now()
    unsent = PrintJob.objects.filter(status=PrintJob.Status.QUEUED, task_id="",
                                     created_at__lt=now - timedelta(seconds=60)).values_list("pk", flat=True)
    sent = sum(1 for pk in unsent if queue_job(pk))
    if sent:
        log.warning("print jobs sent again (never sent): %d", sent)
    return sent


def retry_job(job: PrintJob) -> bool:
    """Queue a failed job again (its progress reset); ``False`` if it is not failed (any more:
    a second tap changes nothing). The caller checks the permission (``printing.can_see_job``).
    Raises ``config.errors.Unavailable`` when the broker cannot be reached (the job is failed again,
    with that reason)."""
    outcome: dict[str, str] = {}
    with transaction.atomic():
        old_file = job.file.name if job.file else ""
        changed = PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.FAILED).update(
            status=PrintJob.Status.QUEUED, done=0, error="", file="", task_id="", started_at=None,
            finished_at=None, created_at=timezone.now(), updated_at=timezone.now(),
        )
        if changed:
            if old_file:
                transaction.on_commit(lambda: _delete_file(old_file))
            transaction.on_commit(lambda: outcome.update(error=queue_job(job.pk)))
    job.refresh_from_db()
    if outcome.get("error"):
        raise Unavailable(outcome["error"])
    return bool(changed)


def _delete_file(name: str) -> None:
    try:
        default_storage.delete(name)
    except Exception:  # noqa: BLE001 - a file already gone, a store that blinked: logged, retried next hour
        log.exception("could not delete print file %s", name)


def remove_old_files(now=None) -> int:
    """Delete the PDFs of jobs finished more than ``PRINT_JOB_KEEP_DAYS`` ago; returns how many."""
    now = now or timezone.now()
    old = PrintJob.objects.filter(
        finished_at__lt=now - timedelta(days=settings.PRINT_JOB_KEEP_DAYS)
    ).exclude(file="").values_list("pk", "file")
    removed = 0
    for pk, name in old:
        _delete_file(name)
        removed += PrintJob.objects.filter(pk=pk, file=name).update(file="")
    if removed:
        log.info("removed %d old print PDF(s)", removed)
    return removed


@receiver(post_delete, sender=PrintJob, dispatch_uid="printing.print_job_file_deleted")
def _job_deleted(sender, instance: PrintJob, **kwargs) -> None:
    if instance.file:
        name = instance.file.name
        transaction.on_commit(lambda: _delete_file(name))
