"""The public pages' tests stand on the tournaments' fixtures (the demo tournament, an organizer ``org``, its
tournament ``t``, the fast password hasher)."""
from tests.tournaments.conftest import demo, fast_password_hashing, load_demo, org, t  # noqa: F401 (fixtures)
