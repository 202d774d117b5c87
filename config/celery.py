"""The Celery application: eager when no broker is configured (see settings)."""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("truco")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
