"""The tests' PIN hasher: ``tournaments.pins.PinHasher`` (its algorithm, its code) with few rounds
(tests/conftest.py)."""
from tournaments.pins import PinHasher


class FewRoundsPinHasher(PinHasher):
    iterations = 1_000
