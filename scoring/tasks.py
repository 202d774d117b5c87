"""Celery tasks of the scoring app: ``ping`` (a worker round trip), print jobs and their upkeep, the
organizer's mail about a PIN lockout.

Tasks are thin: the work is in the services they call (``scoring.printing``,
``scoring.print_upkeep``). Without a broker (the embedded default's tests) they run
eagerly, in-process. Tasks are acknowledged late (settings: ``CELERY_TASK_ACKS_LATE``), so
a task whose worker died is delivered again; each is safe to run twice.
"""
from celery import shared_task
from django.conf import settings


@shared_task(name="scoring.ping")
def ping() -> str:
    """Round trip check for a real worker: returns ``"pong"``."""
    return "pong"


@shared_task(name="scoring.render_print_job", ignore_result=True, bind=True, acks_late=True,
             reject_on_worker_lost=True, max_retries=None)
def render_print_job(self, job_id: int) -> str | None:
    """Render a print job's súmulas into one PDF (``scoring.printing.run_print_job``).

    Failures are recorded on the job (status ``failed`` and the error), not raised: the
    organizer reads them on the job's page. Returns the job's final status. Delivered
    again while another worker still makes progress on the job, it checks back later
    (until that one finishes, or the job shows no progress and this one takes it over).
    """
    from .print_upkeep import stall_seconds
    from .printing import BUSY, run_print_job

    job = run_print_job(job_id)
    if job is None:
        return None
    if getattr(job, "claim", None) == BUSY and not self.request.is_eager:
        retries_left = stall_seconds() // max(1, settings.PRINT_JOB_HEARTBEAT_SECONDS) + 2
        if self.request.retries < retries_left:
            raise self.retry(countdown=settings.PRINT_JOB_HEARTBEAT_SECONDS)
    return job.status


@shared_task(name="scoring.fail_stalled_print_jobs", ignore_result=True)
def fail_stalled_print_jobs() -> int:
    """Periodic (Celery beat): stalled print jobs are marked failed with the reason."""
    from .print_upkeep import fail_stalled_jobs

    return fail_stalled_jobs()


@shared_task(name="scoring.remove_old_print_files", ignore_result=True)
def remove_old_print_files() -> int:
    """Periodic (Celery beat): PDFs older than ``PRINT_JOB_KEEP_DAYS`` are deleted."""
    from .print_upkeep import remove_old_files

    return remove_old_files()


@shared_task(name="scoring.purge_idempotency_keys", ignore_result=True)
def purge_idempotency_keys() -> int:
    """Forget the Idempotency-Keys older than 24 hours (scoring.idempotency); schedule it hourly."""
    from .idempotency import purge

    return purge()


@shared_task(name="scoring.verify_sumulas")
def verify_sumulas() -> dict:
    """Periodic (Celery beat, ``SUMULA_VERIFY_EVERY`` seconds): every signed or received súmula checked
    against its rows, digest and seal; problems are logged as errors and returned by match id."""
    import logging

    from .integrity import check_all

    found = check_all()
    for match_id, problems in found.items():
        logging.getLogger("scoring.integrity").error("súmula of match %s altered: %s", match_id, "; ".join(problems))
    return {str(k): v for k, v in found.items()}


@shared_task(name="scoring.mail_pin_lockout", ignore_result=True)
def mail_pin_lockout(match_id: int, player_id: int, suspended: bool) -> None:
    """Tell the tournament's organizer that a player's PIN was locked (scoring/pin_notices.py)."""
    from .pin_notices import send_lockout_mail

    send_lockout_mail(match_id, player_id, suspended)
