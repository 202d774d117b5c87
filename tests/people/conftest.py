import pytest

from tests.tournaments.factories import english  # noqa: F401 - messages in English


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
