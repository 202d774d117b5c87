"""The idle table-minutes benchmark (benchmarks/forecast_calls.py): every match is played once under each way
of calling, the same matches and walks; calling on the forecast leaves the tables idle less than the room's
ready matches alone."""
from __future__ import annotations

import random

from benchmarks import forecast_calls as bench


def test_the_three_ways_of_calling_play_the_same_event_out():
    matches = bench.event(random.Random(5))
    assert len(matches) == len(bench.berger(bench.PAIRS)) == 66
    assert len({frozenset(m["pairs"]) for m in matches}) == 66  # every pair meets every other once
    runs = {mode: bench.simulate(matches, mode) for mode in bench.MODES}
    assert all(r["idle"] >= 0 and r["wait"] >= 0 for r in runs.values())
    assert runs["baseline"]["early"] == 0
    assert runs["forecast"]["idle"] < runs["baseline"]["idle"]
    longest = max(m["end"] for m in matches)
    assert all(r["length"] >= longest for r in runs.values())
