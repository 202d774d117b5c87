import io

import pytest
from django.core.management import call_command


@pytest.fixture
def load_demo(db):
    """Runs ``manage.py load_demo`` and returns what it printed."""

    def run() -> str:
        out = io.StringIO()
        call_command("load_demo", stdout=out)
        return out.getvalue()

    return run


@pytest.fixture
def demo(load_demo):
    from tournaments.models import Tournament

    load_demo()
    return Tournament.objects.get(slug="torneio-de-demonstracao")


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """The demo organizer's password hash costs ~0.2 s with the production hasher."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def org(db):
    """An organizer (a plain user who organizes ``t``)."""
    from tests.tournaments import factories as f

    return f.user("org")


@pytest.fixture
def t(org):
    """A tournament organized by ``org``."""
    from tests.tournaments import factories as f

    return f.tournament(org)
