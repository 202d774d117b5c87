"""Celery tasks of the scoring app: ``ping`` (a worker round trip), the organizer's mail about a PIN
lockout, the súmulas' check (the print jobs' are ``printing.tasks``).

Tasks are thin: the work is in the services they call (``scoring.integrity``). The task a service
queues itself lives beside it, so that it needs nothing from here: ``scoring.mail_pin_lockout``
(``scoring.pin_mail``); it is imported here, where the worker looks for the app's tasks. Without a broker (the embedded default's tests) they run
eagerly, in-process. Tasks are acknowledged late (settings: ``CELERY_TASK_ACKS_LATE``), so
a task whose worker died is delivered again; each is safe to run twice.
"""
import logging

from celery import shared_task

from .row_check import check_all
from .pin_mail import mail_pin_lockout

__all__ = ["mail_pin_lockout", "ping", "verify_sumulas"]


@shared_task(name="scoring.ping")
def ping() -> str:
    """Round trip check for a real worker: returns ``"pong"``."""
    return "pong"


@shared_task(name="scoring.verify_sumulas")
def verify_sumulas() -> dict:
    """Periodic (Celery beat, ``SUMULA_VERIFY_EVERY`` seconds): every signed or received súmula checked
    against its rows, digest and seal; problems are logged as errors and returned by match id."""
    found = check_all()
    for match_id, problems in found.items():
        logging.getLogger("scoring.integrity").error("súmula of match %s altered: %s", match_id, "; ".join(problems))
    return {str(k): v for k, v in found.items()}
