"""Pairing speed: a Swiss round for 1,024 and 4,096 pairs, and a 1,024-pair knockout.

Run: ``.venv/bin/python benchmarks/pairings.py [--repeat R] [--seed S]``.  Prints one
figure per line as ``name: value`` (seconds, 3 decimals, median of R runs):

- ``swiss_1024_s``: pairing round 6 of a Swiss for 1,024 pairs, after 5 simulated rounds
  (random results weighted by a hidden strength, standings by score then Buchholz), so
  past opponents must be avoided and score groups are uneven;
- ``swiss_4096_s``: the same for 4,096 pairs;
- ``bracket_1024_s``: building a 1,024-pair single-elimination bracket and recording
  every result, round by round, up to the champion.

Targets: ``swiss_1024_s`` < 1, ``swiss_4096_s`` < 5, ``bracket_1024_s`` < 0.5 (one core).

Only the pure module :mod:`tournaments.pairing` is timed for now.  The database writes
go in :func:`store_pairings`, which is called inside every timed section.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tournaments.pairing.elimination import record_results, single_elimination  # noqa: E402
from tournaments.pairing.swiss import SwissEntrant, SwissRound, pair_swiss_round  # noqa: E402


def store_pairings(kind: str, payload: object) -> None:
    """Hook for persisting what was just paired (called inside the timed sections).

    TODO(db): write ``payload`` to the database here (Round / Match rows for
    ``kind`` "swiss" (a SwissRound) or "bracket" (an EliminationBracket)), so the
    figures include the writes.  Until then it does nothing.
    """
    del kind, payload


def swiss_after_rounds(pairs: int, rounds: int, seed: int) -> list[SwissEntrant]:
    """Entrants in standing order after ``rounds`` simulated Swiss rounds."""
    rng = random.Random(seed)
    strength = [rng.random() for _ in range(pairs)]
    score = [0] * pairs
    opponents: list[set[int]] = [set() for _ in range(pairs)]
    byes = [0] * pairs

    def entrants() -> list[SwissEntrant]:
        buchholz = [sum(score[o] for o in opponents[i]) for i in range(pairs)]
        order = sorted(range(pairs), key=lambda i: (-score[i], -buchholz[i], i))
        return [SwissEntrant(i, score[i], frozenset(opponents[i]), byes[i]) for i in order]

    for _ in range(rounds):
        result = pair_swiss_round(entrants())
        if result.rematches:
            raise SystemExit("simulation produced a rematch")
        for p in result.pairings:
            a, b = p.home, p.away
            opponents[a].add(b)
            opponents[b].add(a)
            winner = a if rng.random() < strength[a] / (strength[a] + strength[b]) else b
            score[winner] += 1
        if result.bye is not None:
            byes[result.bye] += 1
            score[result.bye] += 1
    return entrants()


def time_it(work: Callable[[], object], repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        work()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def swiss_round(entrants: list[SwissEntrant]) -> SwissRound:
    result = pair_swiss_round(entrants)
    store_pairings("swiss", result)
    return result


def play_bracket(pairs: int, seed: int) -> None:
    rng = random.Random(seed)
    bracket = single_elimination(list(range(pairs)))
    store_pairings("bracket", bracket)
    while bracket.champion is None:
        results = {m.match_id: rng.choice((m.top.pair, m.bottom.pair)) for m in bracket.playable()}
        bracket = record_results(bracket, results)
        store_pairings("bracket", bracket)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    for pairs in (1024, 4096):
        entrants = swiss_after_rounds(pairs, 5, args.seed)
        check = swiss_round(entrants)
        if check.rematches or len(check.pairings) != pairs // 2:
            raise SystemExit(f"swiss_{pairs}: bad pairing ({check.rematches} rematches)")
        print(f"swiss_{pairs}_s: {time_it(lambda: swiss_round(entrants), args.repeat):.3f}")
    print(f"bracket_1024_s: {time_it(lambda: play_bracket(1024, args.seed), args.repeat):.3f}")


if __name__ == "__main__":
    main()
