"""Login guessing is throttled per account and address, in the database (django-axes)."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse


@pytest.fixture
def referee(db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return get_user_model().objects.create_user("arbitro", password="apito-123")


def attempt(client, password, address="203.0.113.7"):
    return client.post(reverse("login"), {"username": "arbitro", "password": password}, REMOTE_ADDR=address)


def test_twenty_wrong_passwords_then_the_right_one_is_refused(client, referee, settings):
    from axes.models import AccessAttempt

    for _ in range(20):
        attempt(client, "errada")
    response = attempt(client, "apito-123")
    assert response.status_code == 429
    assert "Senhas erradas demais" in response.content.decode()
    assert "_auth_user_id" not in client.session
    # kept in the database: every web process sees the same lockout
    row = AccessAttempt.objects.get(username="arbitro", ip_address="203.0.113.7")
    assert row.failures_since_start >= settings.AXES_FAILURE_LIMIT


def test_the_lockout_is_per_account_and_address(client, referee):
    for _ in range(10):
        attempt(client, "errada", address="203.0.113.7")
    # the same account from the referee's own phone still signs in: a stranger cannot lock it out
    other = attempt(client, "apito-123", address="198.51.100.4")
    assert other.status_code == 302


def test_a_few_mistakes_are_forgiven(client, referee, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        attempt(client, "errada")
    assert attempt(client, "apito-123").status_code == 302


def test_behind_the_proxy_the_client_address_is_the_forwarded_one(rf, settings):
    from config.auth import client_ip

    settings.PROXY_COUNT = 1
    request = rf.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert client_ip(request) == "203.0.113.7"  # the proxy's entry, not what the client wrote
    settings.PROXY_COUNT = 0
    assert client_ip(request) == "10.0.0.2"
