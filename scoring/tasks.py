"""Celery tasks of the scoring app."""
from celery import shared_task


@shared_task(name="scoring.ping")
def ping() -> str:
    """Round trip check for a real worker: returns ``"pong"``."""
    return "pong"
