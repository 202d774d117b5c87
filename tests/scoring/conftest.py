"""Fixtures of the PDF tests (test_pdf*.py here, and tests/printing/, which imports them): reading PDFs back with
poppler-utils, a temporary MEDIA_ROOT, and a round of stored matches with an organizer."""
from __future__ import annotations

import datetime
import shutil
import subprocess

import pytest


def _pdftotext(data: bytes, *args: str) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (Debian package poppler-utils) is not installed")
    return subprocess.run(["pdftotext", *args, "-", "-"], input=data, capture_output=True, check=True).stdout.decode()


@pytest.fixture
def pdf_text():
    """``pdf_text(data)``: the text of a PDF (pdftotext -layout); pages are split by form feeds."""
    return lambda data: _pdftotext(data, "-layout")


@pytest.fixture
def pdf_pages():
    """``pdf_pages(data)``: the number of pages of a PDF (pdfinfo)."""
    def count(data: bytes) -> int:
        if not shutil.which("pdfinfo"):
            pytest.skip("pdfinfo (Debian package poppler-utils) is not installed")
        out = subprocess.run(["pdfinfo", "-"], input=data, capture_output=True, check=True).stdout.decode()
        return int(next(line.split()[-1] for line in out.splitlines() if line.startswith("Pages:")))

    return count


@pytest.fixture
def media_root(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def print_users(db, settings):
    """The tournament's organizer, its referee and an outsider."""
    from django.contrib.auth import get_user_model

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    users = get_user_model().objects
    return {
        "organizer": users.create_user("org-impressao", password="x", first_name="Olga", last_name="Organizadora"),
        "referee": users.create_user("arb-impressao", password="x", first_name="Carla", last_name="Árbitra de Assunção"),
        "outsider": users.create_user("curioso-impressao", password="x"),
    }


@pytest.fixture
def printed_round(print_users):
    """A round of 3 stored matches (a best of 3, a single game, one still being played)."""
    from tests.scoring.documents import make_document, store_round
    from tournaments.models import Round, Tournament

    tournament = Tournament.objects.create(
        name="Copa Conceição de Truco", slug="copa-conceicao", date=datetime.date(2026, 11, 21),
        organizer=print_users["organizer"], best_of=3,
    )
    round_ = Round.objects.create(tournament=tournament, number=2)
    documents = [
        make_document(11, match_id=1, table=1, best_of=3, penalties_per_game=1, corrections=2),
        make_document(12, match_id=2, table=2, best_of=1, style="typical", corrections=0),
        make_document(13, match_id=3, table=3, best_of=3, style="quick", corrections=0, finished=False),
    ]
    matches = store_round(round_, documents, referee=print_users["referee"])
    return {"tournament": tournament, "round": round_, "matches": matches, **print_users}
