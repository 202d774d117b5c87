"""The room's tests stand on the tournaments' fixtures (an organizer ``org``, its tournament ``t``, the
fast password hasher)."""
from tests.tournaments.conftest import fast_password_hashing, org, t  # noqa: F401 (fixtures)
