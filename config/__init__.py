"""Project configuration: settings from the environment, URLs, WSGI and Celery."""
from .celery import app as celery_app

__all__ = ("celery_app",)
