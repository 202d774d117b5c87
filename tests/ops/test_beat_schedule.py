"""Celery beat runs every periodic task the project defines (a task nobody schedules never runs)."""
from django.conf import settings

from config.celery import app


def test_every_periodic_task_is_scheduled_and_registered():
    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"scoring.fail_stalled_print_jobs", "scoring.remove_old_print_files",
            "scoring.purge_idempotency_keys"} <= scheduled
    assert scheduled <= set(app.tasks)
