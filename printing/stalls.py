"""When a print job counts as stalled, and why it failed (the words the organizer reads on its page).

- :func:`stall_seconds`: the stall limit agrees with the broker's redelivery. A task whose worker
  died comes back :func:`redelivery_seconds` after it was taken (Redis's visibility timeout plus the
  restore interval); the next worker takes the job over once it shows no progress for
  ``PRINT_JOB_HEARTBEAT_SECONDS`` (a redelivered task that finds it still fresh checks back one
  heartbeat later). So a job is failed as stalled only after redelivery + 2 heartbeats without
  progress, whatever ``PRINT_JOB_STALL_SECONDS`` says (system check ``scoring.W003`` tells the
  operator when it says less).
- :func:`fail_if_stalled`: one job, when its page polls it (the sweep of every job is
  ``printing.upkeep.fail_stalled_jobs``).

Below ``printing.jobs`` (whose task reads the limit) and ``printing.upkeep``.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.translation import ngettext

from .models import PrintJob


def _minutes(seconds: int) -> int:
    return max(1, round(seconds / 60))


def redelivery_seconds() -> int:
    """How long after it was taken a task whose worker died is delivered again: Redis's visibility
    timeout plus the interval at which live workers look for such tasks; 0 for a broker that does not
    hold unacknowledged tasks back (RabbitMQ gives them back at once; the embedded default's filesystem
    broker and the eager mode never do)."""
    url = settings.CELERY_BROKER_URL or ""
    if not url.startswith(("redis://", "rediss://", "sentinel://", "redis+socket://")):
        return 0
    return settings.BROKER_VISIBILITY_TIMEOUT + settings.BROKER_RESTORE_INTERVAL


def minimum_stall_seconds() -> int:
    """The shortest stall limit that lets a dead worker's task come back and take its job over."""
    return redelivery_seconds() + 2 * settings.PRINT_JOB_HEARTBEAT_SECONDS


def stall_seconds() -> int:
    """A running job with no progress for this long is failed: ``PRINT_JOB_STALL_SECONDS``, never less
    than :func:`minimum_stall_seconds`."""
    return max(settings.PRINT_JOB_STALL_SECONDS, minimum_stall_seconds())


def stalled_reason() -> str:
    minutes = _minutes(stall_seconds())
    return ngettext(
        "No progress for %(minutes)d minute: the worker printing it stopped (restarted or lost). Try again.",
        "No progress for %(minutes)d minutes: the worker printing it stopped (restarted or lost). Try again.",
        minutes,
    ) % {"minutes": minutes}


def never_taken_reason() -> str:
    minutes = _minutes(settings.PRINT_JOB_QUEUE_TIMEOUT_SECONDS)
    return ngettext(
        "No worker took it within %(minutes)d minute: check that the print worker is running, then try again.",
        "No worker took it within %(minutes)d minutes: check that the print worker is running, then try again.",
        minutes,
    ) % {"minutes": minutes}


def fail_if_stalled(job: PrintJob, now=None) -> bool:
    """:func:`fail_stalled_jobs` for one job (when its page asks); updates ``job``."""
    if job.is_finished or settings.CELERY_TASK_ALWAYS_EAGER:
        return False
    now = now or timezone.now()
    if job.status == PrintJob.Status.RUNNING:
        limit, reason, field = stall_seconds(), stalled_reason(), "updated_at"
    else:
        limit, reason, field = settings.PRINT_JOB_QUEUE_TIMEOUT_SECONDS, never_taken_reason(), "created_at"
    changed = PrintJob.objects.filter(
        pk=job.pk, status=job.status, **{f"{field}__lt": now - timedelta(seconds=limit)}
    ).update(status=PrintJob.Status.FAILED, error=reason, finished_at=now, updated_at=now)
    if changed:
        job.refresh_from_db()
    return bool(changed)
