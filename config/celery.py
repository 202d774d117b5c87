"""The Celery application: eager when no broker is configured (see settings).

Logging: Celery keeps the site's configuration (``settings.LOGGING``, ``config.logs``): one format
for web, worker and beat lines, at the level given with ``-l``; a task's lines carry
its name and id where a request's carry the request.
"""
import logging
import logging.config
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("truco")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.setup_logging.connect
def keep_the_sites_logging(loglevel=None, **kwargs):
    """Connected, this keeps Celery from installing its own handlers and format."""
    from config.logs import logging_config

    level = logging.getLevelName(loglevel) if isinstance(loglevel, int) else (loglevel or None)
    logging.config.dictConfig(logging_config(level=level))


@signals.task_prerun.connect
def _task_started(task_id=None, task=None, **kwargs):
    from config.logs import task_context

    task_context(getattr(task, "name", None) or "task", task_id)


@signals.task_postrun.connect
def _task_ended(**kwargs):
    from config.logs import task_context

    task_context(None, None)
