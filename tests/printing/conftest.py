"""Fixtures of the printing tests: reading PDFs back, a temporary MEDIA_ROOT and a round of stored matches
with an organizer (the súmula PDFs' own, tests/scoring/conftest.py)."""
from tests.scoring.conftest import media_root, pdf_pages, pdf_text, print_users, printed_round  # noqa: F401 (fixtures)
