"""Celery tasks of the table channel: the idempotency keys' purge (the work is ``tables.idempotency.purge``).
Acknowledged late like every task (settings: ``CELERY_TASK_ACKS_LATE``); safe to run twice."""
from celery import shared_task

from .idempotency import purge

__all__ = ["purge_idempotency_keys"]


@shared_task(name="tables.purge_idempotency_keys", ignore_result=True)
def purge_idempotency_keys() -> int:
    """Forget the Idempotency-Keys older than 24 hours (``tables.idempotency``); scheduled hourly."""
    return purge()
