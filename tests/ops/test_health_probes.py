"""``/healthz`` and ``/readyz`` answer whatever the ``Host``: a load balancer asks by address
(``Host: 10.0.0.5:8000``), not a name in ``ALLOWED_HOSTS``. Before, each probe answered 400, logged a
``DisallowedHost`` ERROR and mailed the admins (config.middleware.HealthProbeMiddleware)."""
from __future__ import annotations

import logging

import pytest
from django.core import mail

PROBE_HOST = "10.0.0.5:8000"


class Records(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def production(settings, monkeypatch):
    """Debug off, one public host name, admins to mail; every record of Django's request and security
    loggers kept (they do not propagate to the root)."""
    settings.DEBUG = False
    settings.ALLOWED_HOSTS = ["truco.example.org"]
    settings.ADMINS = [("Admin", "admin@example.org")]
    settings.SECURE_SSL_REDIRECT = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    handler = Records()
    loggers = [logging.getLogger(name) for name in ("django.security", "django.request", "truco.access")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler.records
    for logger in loggers:
        logger.removeHandler(handler)


def errors(records):
    return [r for r in records if r.levelno >= logging.ERROR]


@pytest.mark.django_db
def test_healthz_and_readyz_answer_a_probe_by_address_without_an_error_or_a_mail(client, production):
    mail.outbox.clear()
    alive = client.get("/healthz", HTTP_HOST=PROBE_HOST)
    assert alive.status_code == 200 and alive.content == b"ok"
    ready = client.get("/readyz", HTTP_HOST=PROBE_HOST)
    assert ready.status_code == 200 and ready.json()["database"] == "ok"
    assert "no-cache" in ready["Cache-Control"]
    assert ready["X-Request-ID"]  # the probe keeps its access line and request id
    assert not errors(production), [r.getMessage() for r in errors(production)]
    assert [r.getMessage().split()[0] for r in production if r.name == "truco.access"] == ["200", "200"]
    assert mail.outbox == []


@pytest.mark.django_db
def test_readyz_by_address_says_503_when_a_service_is_down(client, production, settings, tmp_path):
    settings.CELERY_BROKER_URL = "filesystem://"
    settings.CELERY_BROKER_TRANSPORT_OPTIONS = {"data_folder_in": str(tmp_path / "gone")}
    mail.outbox.clear()
    ready = client.get("/readyz", HTTP_HOST=PROBE_HOST)
    assert ready.status_code == 503 and ready["Retry-After"]
    assert ready.json()["broker"] == "unreachable (no broker folder)"
    assert not [r for r in production if r.name.startswith("django.security")]
    assert mail.outbox == []


@pytest.mark.django_db
def test_any_other_address_still_meets_the_host_check(client, production):
    """Only the two probes pass: a page asked by address is still refused, and says so."""
    mail.outbox.clear()
    assert client.get("/entrar/", HTTP_HOST=PROBE_HOST).status_code == 400
    assert client.get("/healthz/x", HTTP_HOST=PROBE_HOST).status_code == 400
    assert any(r.name == "django.security.DisallowedHost" for r in production)


def test_a_probe_is_not_redirected_to_https_nor_served_another_method(client, production):
    assert client.get("/healthz", HTTP_HOST="truco.example.org").status_code == 200  # plain HTTP, no 301
    assert client.post("/healthz", HTTP_HOST=PROBE_HOST).status_code == 405
