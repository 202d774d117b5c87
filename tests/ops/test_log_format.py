"""One log format for every process: gunicorn's, Django's and Celery's lines with the
process's role, the time with its UTC offset and the request id (sent back in ``X-Request-ID``); JSON
lines with ``DJANGO_LOG_FORMAT=json``; the key redaction on every handler. And the error mails'
limit: one per distinct error per N minutes, counted in a cache every process shares.

Before, there were three formats (gunicorn ``[2026-11-21 14:03:07 -0300] [4121] [INFO]``, Django
``2026-11-21 14:03:07,412 INFO`` without an offset, Celery ``[2026-11-21 14:03:07,412: INFO/MainProcess]``)
and no process name."""
from __future__ import annotations

import io
import json
import logging
import logging.config
import re
import runpy
from pathlib import Path

import pytest

from config import logs

ROOT = Path(__file__).resolve().parents[2]
LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d (DEBUG|INFO|WARNING|ERROR|CRITICAL) "
                  r"(?P<process>[\w.-]+)\[\d+\] (?P<logger>[\w.]+) \[(?P<request>[^\]]*)\] ")


@pytest.fixture
def configured(monkeypatch):
    """``configure(**env)``: the site's logging configured as a process with ``env`` would have it,
    writing into a buffer; the test's configuration is put back afterwards."""
    from django.conf import settings

    buffers = []

    def configure(process: str = "web", fmt: str = "text", level: str = "INFO") -> io.StringIO:
        monkeypatch.setenv("TRUCO_PROCESS_NAME", process)
        monkeypatch.setattr(logs, "_process_name", None)
        buffer = io.StringIO()
        config = logs.logging_config(level=level, fmt=fmt)
        config["handlers"]["stdout"]["stream"] = buffer
        logging.config.dictConfig(config)
        buffers.append(buffer)
        return buffer

    yield configure
    monkeypatch.setattr(logs, "_process_name", None)
    logging.config.dictConfig(settings.LOGGING)


def test_django_gunicorn_and_celery_lines_share_one_format_with_process_and_offset(configured):
    out = configured(process="web")
    logging.getLogger("django.request").warning("Not Found: /x")
    logging.getLogger("gunicorn.error").info("Booting worker with pid: 4121")
    logs.task_context("scoring.render_print_job", "abc123")
    try:
        logging.getLogger("celery.app.trace").info("Task succeeded")
    finally:
        logs.task_context(None, None)
    lines = out.getvalue().splitlines()
    assert len(lines) == 3, lines
    parsed = [LINE.match(line) for line in lines]
    assert all(parsed), lines
    assert {m["process"] for m in parsed} == {"web"}
    assert [m["logger"] for m in parsed] == ["django.request", "gunicorn.error", "celery.app.trace"]
    assert parsed[2]["request"] == "task=scoring.render_print_job id=abc123"


def test_gunicorn_reads_the_same_configuration(monkeypatch):
    conf = runpy.run_path(str(ROOT / "config" / "gunicorn_conf.py"))
    config = conf["logconfig_dict"]
    assert config["formatters"] == logs.logging_config()["formatters"]
    assert config["loggers"]["gunicorn.error"]["handlers"] == ["stdout"]


def test_the_process_name_follows_the_command(monkeypatch):
    monkeypatch.delenv("TRUCO_PROCESS_NAME", raising=False)
    for argv, name in ((["/srv/.venv/bin/gunicorn", "config.wsgi:application"], "web"),
                       (["/srv/.venv/bin/celery", "-A", "config", "worker", "-l", "info"], "worker"),
                       (["/srv/.venv/lib/python3.11/site-packages/celery/__main__.py", "-A", "config", "beat"], "beat"),
                       (["manage.py", "runserver"], "web"), (["manage.py", "migrate"], "migrate")):
        monkeypatch.setattr(logs.sys, "argv", argv)
        monkeypatch.setattr(logs, "_process_name", None)
        assert logs.process_name() == name, argv


def test_json_lines_carry_the_same_fields(configured):
    out = configured(process="worker", fmt="json")
    try:
        raise ValueError("at /mesa/AbCdEfGhIjKlMnOp/estado/")
    except ValueError:
        logging.getLogger("printing.jobs").exception("print job 7 failed")
    [line] = out.getvalue().splitlines()
    record = json.loads(line)
    assert record["process"] == "worker" and record["level"] == "ERROR" and record["logger"] == "printing.jobs"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d", record["time"])
    assert "ValueError" in record["exception"] and "AbCdE" not in line  # redacted there too


def test_every_handler_redacts_keys(configured):
    config = logs.logging_config()
    for name, handler in config["handlers"].items():
        assert "redact" in handler["filters"], name


@pytest.mark.django_db
def test_a_request_id_is_made_or_taken_and_sent_back(client, configured):
    out = configured(process="web")
    made = client.get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{16}", made["X-Request-ID"])
    taken = client.get("/healthz", HTTP_X_REQUEST_ID="lb-7f3a.42")
    assert taken["X-Request-ID"] == "lb-7f3a.42"
    odd = client.get("/healthz", HTTP_X_REQUEST_ID="x y\" injected=1")  # not written into the lines as is
    assert re.fullmatch(r"[0-9a-f]{16}", odd["X-Request-ID"])
    lines = out.getvalue().splitlines()
    assert [LINE.match(line)["request"].split()[0] for line in lines] == [
        f"id={made['X-Request-ID']}", "id=lb-7f3a.42", f"id={odd['X-Request-ID']}"]


# -- the error mails' limit ---------------------------------------------------------------------

@pytest.fixture
def mail_setup(settings, mailoutbox, tmp_path):
    settings.ADMINS = [("Ops", "ops@example.org")]
    settings.ERROR_MAIL_EVERY_MINUTES = 10
    settings.CACHES = {**settings.CACHES, "errors": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache", "LOCATION": str(tmp_path / "errors")}}
    return mailoutbox


def _fail(where: str):
    try:
        if where == "a":
            raise RuntimeError("first kind")
        raise KeyError("second kind")
    except Exception:
        logging.getLogger("django.request").error("Internal Server Error: /x/%s", where, exc_info=True)


def test_one_mail_per_distinct_error_per_period(mail_setup):
    for _ in range(5):
        _fail("a")
    _fail("b")
    _fail("b")
    assert len(mail_setup) == 2, [m.subject for m in mail_setup]


def test_the_limit_is_shared_by_processes_through_the_cache(mail_setup):
    """Another process's filter (a new instance, no memory shared) sees the mail this one sent."""
    record = logging.LogRecord("truco.outage", logging.ERROR, __file__, 1, "database unreachable: %s",
                               ("refused",), None)
    assert logs.MailThrottleFilter().filter(record) is True
    assert logs.MailThrottleFilter().filter(record) is False
    logs.MailThrottleFilter._local.clear()
    assert logs.MailThrottleFilter().filter(record) is False  # the cache, not this process's memory, said no


# -- readiness ----------------------------------------------------------------------------------

@pytest.mark.django_db
def test_readyz_answers_200_when_the_database_and_the_broker_answer(client):
    response = client.get("/readyz")
    body = response.json()
    assert response.status_code == 200, body
    assert body["database"] == "ok" and body["broker"] in ("ok", "not used")


def test_readyz_answers_503_with_the_broker_unreachable(client, settings, db):
    from tests.ops.test_outage import closed_port

    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{closed_port()}/8"
    response = client.get("/readyz")
    assert response.status_code == 503 and response["Retry-After"]
    assert response.json()["broker"].startswith("unreachable") and response.json()["database"] == "ok"


def test_a_service_error_that_is_unavailable_carries_retry_after():
    from rest_framework.test import APIRequestFactory

    from config.api_errors import exception_handler
    from config.errors import Unavailable

    request = APIRequestFactory().get("/api/x/")
    response = exception_handler(Unavailable("the print queue is down", field="kind"), {"request": request})
    assert response.status_code == 503 and response["Retry-After"] == str(Unavailable.retry_after)
    assert response.data["field"] == "kind"


def test_the_database_and_the_print_queue_down_are_two_errors_each_mailed_once(mail_setup):
    from config.outage import report

    for _ in range(3):
        report("database unreachable", "OperationalError: connection refused")
        report("print queue unreachable", "print job 7 not sent (OperationalError: Error 111)")
    assert sorted(m.subject.split(": ")[1] for m in mail_setup) == ["database unreachable", "print queue unreachable"]
