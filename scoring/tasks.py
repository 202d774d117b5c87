"""Celery tasks of the scoring app: ``ping`` (a worker round trip), print jobs and their upkeep, the
organizer's mail about a PIN lockout, the súmulas' check.

Tasks are thin: the work is in the services they call (``scoring.print_upkeep``,
``scoring.integrity``). The two tasks a service queues itself live beside
it, so that it needs nothing from here: ``scoring.render_print_job`` (``scoring.printing``) and
``scoring.mail_pin_lockout`` (``scoring.pin_mail``); they are imported here, where the worker
looks for the app's tasks. Without a broker (the embedded default's tests) they run
eagerly, in-process. Tasks are acknowledged late (settings: ``CELERY_TASK_ACKS_LATE``), so
a task whose worker died is delivered again; each is safe to run twice.
"""
import logging

from celery import shared_task

from .integrity import check_all
from .pin_mail import mail_pin_lockout
from .print_upkeep import fail_stalled_jobs, remove_old_files
from .printing import render_print_job

__all__ = ["fail_stalled_print_jobs", "mail_pin_lockout", "ping", "remove_old_print_files",
           "render_print_job", "verify_sumulas"]


@shared_task(name="scoring.ping")
def ping() -> str:
    """Round trip check for a real worker: returns ``"pong"``."""
    return "pong"


@shared_task(name="scoring.fail_stalled_print_jobs", ignore_result=True)
def fail_stalled_print_jobs() -> int:
    """Periodic (Celery beat): stalled print jobs are marked failed with the reason."""
    return fail_stalled_jobs()


@shared_task(name="scoring.remove_old_print_files", ignore_result=True)
def remove_old_print_files() -> int:
    """Periodic (Celery beat): PDFs older than ``PRINT_JOB_KEEP_DAYS`` are deleted."""
    return remove_old_files()


@shared_task(name="scoring.verify_sumulas")
def verify_sumulas() -> dict:
    """Periodic (Celery beat, ``SUMULA_VERIFY_EVERY`` seconds): every signed or received súmula checked
    against its rows, digest and seal; problems are logged as errors and returned by match id."""
    found = check_all()
    for match_id, problems in found.items():
        logging.getLogger("scoring.integrity").error("súmula of match %s altered: %s", match_id, "; ".join(problems))
    return {str(k): v for k, v in found.items()}
