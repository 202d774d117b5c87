"""Pure pairing and standings algorithms for Truco tournaments (no Django, no ORM).

Everything here is fed plain values (pair identifiers, dataclasses) and returns
frozen dataclasses, so it can be tested, benchmarked and reused without a
database.  Persisting the results is the caller's job.

Modules:

* :mod:`.base` - pair identifiers.
* :mod:`.matching` - exact maximum-weight matching (Edmonds' blossom).
* :mod:`.swiss` - Swiss-system pairing of one round.
"""

from .base import PairId
from .matching import max_weight_matching
from .swiss import SwissEntrant, SwissPairing, SwissRound, pair_swiss_round

__all__ = [
    "PairId",
    "max_weight_matching",
    "SwissEntrant",
    "SwissPairing",
    "SwissRound",
    "pair_swiss_round",
]
