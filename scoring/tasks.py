"""Celery tasks of the scoring app: ``ping`` (a worker round trip) and print jobs.

Tasks are thin: the work is in the services they call (``scoring.printing``). Without a
broker (the embedded default) they run eagerly, in-process.
"""
from celery import shared_task


@shared_task(name="scoring.ping")
def ping() -> str:
    """Round trip check for a real worker: returns ``"pong"``."""
    return "pong"


@shared_task(name="scoring.render_print_job", ignore_result=True)
def render_print_job(job_id: int) -> str | None:
    """Render a print job's súmulas into one PDF (``scoring.printing.run_print_job``).

    Failures are recorded on the job (status ``failed`` and the error), not raised: the
    organizer reads them on the job's page. Returns the job's final status.
    """
    from .printing import run_print_job

    job = run_print_job(job_id)
    return job.status if job is not None else None


@shared_task(name="scoring.purge_idempotency_keys", ignore_result=True)
def purge_idempotency_keys() -> int:
    """Forget the Idempotency-Keys older than 24 hours (scoring.idempotency); schedule it hourly."""
    from .idempotency import purge

    return purge()
