"""Celery tasks of the table channel: the idempotency keys' purge (the work is ``tables.idempotency.purge``).
Its name is still ``scoring.*``, as before the table channel was an app of its own (a task's name is what
the broker and the beat schedule carry). Acknowledged late like every task (settings:
``CELERY_TASK_ACKS_LATE``); safe to run twice."""
from celery import shared_task

from .idempotency import purge

__all__ = ["purge_idempotency_keys"]


@shared_task(name="scoring.purge_idempotency_keys", ignore_result=True)
def purge_idempotency_keys() -> int:
    """Forget the Idempotency-Keys older than 24 hours (``tables.idempotency``); scheduled hourly."""
    return purge()
