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
