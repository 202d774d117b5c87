"""Project configuration (layer 1 of 4, the base, docs/architecture.md: imports no app): settings from
the environment, URLs, WSGI and Celery, the shared errors and append-only rows."""
from .celery import app as celery_app

__all__ = ("celery_app",)
