"""The tournaments tests' fixtures the season's tests use too: an organizer and their tournament."""
from tests.tournaments.conftest import org, t  # noqa: F401
