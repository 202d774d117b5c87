"""How long a hand with ten art. 21 proofs takes to judge (the search is bounded by ``MAX_NODES`` and made
once per hand: tests/referee/test_limits.py holds that by counting searches, not by timing them).

Run: ``.venv/bin/python benchmarks/proofs.py [--repeat R]``. Prints ``ten_proofs_s`` (the best of R, each
with the proofs' cache emptied first: a cold search), ``ten_proofs_median_s`` and ``load_average_1min``.
The limit the suite once asserted (2 s) failed on a loaded 2-core machine; read the figure beside the load.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.engine import check_report, eleven  # noqa: E402

PROOF = {
    "dealer": 3, "vira": "4-ouros", "score": [11, 4],
    "deal": {"0": ["5-paus", "5-copas", "3-espadas"], "1": ["K-ouros", "7-copas", "6-paus"],
             "2": ["A-espadas", "Q-ouros", "6-copas"], "3": ["J-paus", "2-ouros", "7-espadas"]},
    "events": [{"team": 0, "prove": True}] * 10,
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    times = []
    for _ in range(args.repeat):
        eleven._RESULTS.clear()
        start = time.perf_counter()
        check_report(PROOF)
        times.append(time.perf_counter() - start)
    print(f"ten_proofs_s: {min(times):.3f}")
    print(f"ten_proofs_median_s: {statistics.median(times):.3f}")
    print(f"load_average_1min: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
