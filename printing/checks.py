"""The print jobs' system check (Django's checks framework).

- ``scoring.W003`` (its id from before printing was an app of its own: operators may silence it by that
  name): ``PRINT_JOB_STALL_SECONDS`` is shorter than the broker's redelivery of a dead worker's task
  allows (``printing.stalls.stall_seconds``): the longer limit is used.
"""
from __future__ import annotations

from django.conf import settings
from django.core.checks import Warning as CheckWarning
from django.core.checks import register


@register()
def print_stall_limit(app_configs=None, **kwargs):
    from .stalls import minimum_stall_seconds, redelivery_seconds

    minimum = minimum_stall_seconds()
    if settings.PRINT_JOB_STALL_SECONDS >= minimum:
        return []
    return [CheckWarning(
        f"PRINT_JOB_STALL_SECONDS ({settings.PRINT_JOB_STALL_SECONDS}) is shorter than a dead worker's print task "
        f"takes to come back ({redelivery_seconds()} s: CELERY_VISIBILITY_TIMEOUT + CELERY_RESTORE_INTERVAL) "
        f"plus two heartbeats; {minimum} s is used instead.",
        hint="Raise PRINT_JOB_STALL_SECONDS or lower CELERY_VISIBILITY_TIMEOUT (README, Settings).",
        id="scoring.W003")]
