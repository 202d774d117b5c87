"""The task queue's settings (Celery, its broker, the beat's schedule, the print jobs' timings), read by
``config.settings`` (``globals().update(task_queue_settings(VAR_DIR))``): one settings module, this block
kept apart because it is one concern. Celery itself is ``config.celery``.

Eager (in-process) unless a broker is configured (``CELERY_BROKER_URL``): ``filesystem://`` is the embedded
default's broker (plain files under ``var/broker/``), anything else Redis.
"""
from __future__ import annotations

import os
from pathlib import Path


def task_queue_settings(var_dir: Path) -> dict[str, object]:
    """The settings of this block, by name, for a site whose files live under ``var_dir``."""
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "")
    CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
    CELERY_TASK_EAGER_PROPAGATES = True
    CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "")
    CELERY_TASK_SERIALIZER = "json"
    CELERY_ACCEPT_CONTENT = ["json"]
    # A task taken by a worker that died (kill -9, lost machine) comes back this long after it was
    # taken (Redis's visibility timeout), found by a live worker within the restore interval. It must
    # come back before the job it prints is failed as stalled: the print jobs' stall limit is at least
    # BROKER_VISIBILITY_TIMEOUT + BROKER_RESTORE_INTERVAL + 2 x PRINT_JOB_HEARTBEAT_SECONDS
    # (printing.stalls.stall_seconds; system check scoring.W003 when PRINT_JOB_STALL_SECONDS is lower).
    # Not named CELERY_*: Celery reads those as its own settings.
    BROKER_VISIBILITY_TIMEOUT = int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "120"))
    BROKER_RESTORE_INTERVAL = int(os.environ.get("CELERY_RESTORE_INTERVAL", "10"))
    #: a broker that does not answer within this long fails the publish (the print request answers 503)
    CELERY_BROKER_CONNECTION_TIMEOUT = float(os.environ.get("CELERY_BROKER_CONNECTION_TIMEOUT", "3"))
    CELERY_TASK_PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
    if CELERY_BROKER_URL.startswith("filesystem://"):
        # the embedded default's broker (scripts/setup-and-run): plain files in var/, no service.
        # Every folder is named (kombu.transport.filesystem, kombu 5.7): its defaults are relative to
        # the working directory, and the exchange tables (control_folder) would land in ./control/.
        _broker_dir = var_dir / "broker"
        for _sub in ("queue", "processed", "control"):
            (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
        CELERY_BROKER_TRANSPORT_OPTIONS = {
            "data_folder_in": str(_broker_dir / "queue"),
            "data_folder_out": str(_broker_dir / "queue"),
            "processed_folder": str(_broker_dir / "processed"),
            "control_folder": str(_broker_dir / "control"),
            "store_processed": False,
        }
    else:
        # Redis: a message not acknowledged (its worker died) is delivered again after this long;
        # workers look for such messages every CELERY_RESTORE_INTERVAL seconds
        CELERY_BROKER_TRANSPORT_OPTIONS = {
            "visibility_timeout": BROKER_VISIBILITY_TIMEOUT,
            "unacked_restore_interval": BROKER_RESTORE_INTERVAL,
            "unacked_restore_throttle": 1,
        }
    # Tasks are acknowledged when done, not when taken: a worker that dies (kill -9, lost machine)
    # leaves its task to the next one. Tasks are written to be run twice safely.
    CELERY_TASK_ACKS_LATE = True
    CELERY_TASK_REJECT_ON_WORKER_LOST = True
    CELERY_WORKER_PREFETCH_MULTIPLIER = 1
    CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
    CELERY_BEAT_SCHEDULE_FILENAME = str(var_dir / "celerybeat-schedule")
    CELERY_BEAT_SCHEDULE = {
        "fail-stalled-print-jobs": {"task": "scoring.fail_stalled_print_jobs", "schedule": 60.0},
        "remove-old-print-pdfs": {"task": "scoring.remove_old_print_files", "schedule": 3600.0},
        # every signed or received súmula checked against its rows, digest and seal (scoring/row_check.py)
        "verify-sumulas": {"task": "scoring.verify_sumulas",
                           "schedule": float(os.environ.get("SUMULA_VERIFY_EVERY", "3600"))},
        "purge-idempotency-keys": {"task": "scoring.purge_idempotency_keys", "schedule": 3600.0},
        # every official result against its seal, the sealed súmula and the audit log (tournaments/result_seals.py)
        "verify-results": {"task": "tournaments.verify_results",
                           "schedule": float(os.environ.get("SUMULA_VERIFY_EVERY", "3600"))},
        # every official result against what the ratings rated (seasons/services/ratings.py)
        "check-ratings": {"task": "seasons.check_ratings",
                          "schedule": float(os.environ.get("RATINGS_CHECK_EVERY", "3600"))},
        # unpaid pairs past the payment deadline give their places to the waiting list (finance/deadline.py)
        "release-unpaid": {"task": "finance.release_unpaid", "schedule": 900.0},
    }
    #: a running print job with no progress for this long may be taken over by a redelivered task
    PRINT_JOB_HEARTBEAT_SECONDS = int(os.environ.get("PRINT_JOB_HEARTBEAT_SECONDS", "30"))
    #: a running print job with no progress for this long is marked failed (its worker is lost and its
    #: task did not come back); never less than the redelivery above allows (printing.stalls.stall_seconds)
    PRINT_JOB_STALL_SECONDS = int(os.environ.get("PRINT_JOB_STALL_SECONDS", "300"))
    #: a queued print job that no worker took for this long is marked failed
    PRINT_JOB_QUEUE_TIMEOUT_SECONDS = int(os.environ.get("PRINT_JOB_QUEUE_TIMEOUT_SECONDS", "1800"))
    #: print jobs' PDFs are removed this many days after the job finished (the job stays listed)
    PRINT_JOB_KEEP_DAYS = float(os.environ.get("PRINT_JOB_KEEP_DAYS", "7"))
    return {name: value for name, value in locals().items() if name.isupper()}
