"""Fixtures of the table channel's tests: the súmula's (``tests/scoring/sumula_setup.py``, imported by each
module) and the tournament's organizer and tournament (``org``, ``t``: tests/tournaments/conftest.py)."""
from tests.tournaments.conftest import fast_password_hashing, org, t  # noqa: F401 (fixtures)
