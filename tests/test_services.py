"""Checks against the real services, run by .ci/run's second pass.

Each test is skipped unless the environment points at the service: CELERY_BROKER_URL
(and CELERY_RESULT_BACKEND) for a running Celery worker, DATABASE_URL for PostgreSQL.
"""
import os

import pytest

from scoring.tasks import ping

BROKER = os.environ.get("CELERY_BROKER_URL")
RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND")
DATABASE_URL = os.environ.get("DATABASE_URL")


@pytest.mark.services
@pytest.mark.skipif(not (BROKER and RESULT_BACKEND), reason="CELERY_BROKER_URL / CELERY_RESULT_BACKEND not set")
def test_real_worker_answers_ping():
    from django.conf import settings

    assert not settings.CELERY_TASK_ALWAYS_EAGER
    result = ping.delay()
    assert result.get(timeout=30) == "pong"


@pytest.mark.services
@pytest.mark.skipif(not DATABASE_URL, reason="DATABASE_URL not set")
@pytest.mark.django_db
def test_database_is_postgresql():
    from django.db import connection

    assert connection.vendor == "postgresql"


@pytest.mark.skipif(bool(BROKER), reason="a broker is configured: the task goes to a worker")
def test_ping_runs_in_process_without_a_broker():
    assert ping.delay().get(timeout=5) == "pong"
