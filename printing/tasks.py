"""Celery tasks of printing: the print jobs' upkeep (the work is ``printing.upkeep``) and the job's own
rendering, queued by ``printing.jobs`` beside which it lives (imported here, where the worker looks for
the app's tasks). Their names are still ``scoring.*``, as before printing was an app of its own: a job
queued by a process of the older version is taken by a newer worker. Acknowledged late (settings:
``CELERY_TASK_ACKS_LATE``); each is safe to run twice."""
from celery import shared_task

from .jobs import render_print_job
from .upkeep import fail_stalled_jobs, remove_old_files

__all__ = ["fail_stalled_print_jobs", "remove_old_print_files", "render_print_job"]


@shared_task(name="scoring.fail_stalled_print_jobs", ignore_result=True)
def fail_stalled_print_jobs() -> int:
    """Periodic (Celery beat): stalled print jobs are marked failed with the reason."""
    return fail_stalled_jobs()


@shared_task(name="scoring.remove_old_print_files", ignore_result=True)
def remove_old_print_files() -> int:
    """Periodic (Celery beat): PDFs older than ``PRINT_JOB_KEEP_DAYS`` are deleted."""
    return remove_old_files()
