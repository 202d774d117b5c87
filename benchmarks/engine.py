"""Engine throughput: validate 100,000 random legal hands on one core.

Run: ``.venv/bin/python benchmarks/engine.py [--hands N] [--repeat R]``. Prints one figure
per line as ``name: value``:

- ``engine_hands_per_s``: parsed reports (Python dicts) through ``check_report``, best of R;
- ``engine_json_hands_per_s``: the same from JSON text (``json.loads`` + ``check_report``).

Target (issue 2): at least 50,000 hands/s on one core of this machine.
"""
from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.engine import check_report  # noqa: E402
from referee.engine.simulate import random_report  # noqa: E402


def best_rate(work, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.perf_counter()
        work(items)
        best = min(best, time.perf_counter() - start)
    return len(items) / best


def validate_all(reports):
    for report in reports:
        check_report(report)


def validate_json(lines):
    loads = json.loads
    for line in lines:
        check_report(loads(line))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    reports = [random_report(rng) for _ in range(args.hands)]
    invalid = sum(not check_report(r)["valid"] for r in reports)
    if invalid:
        raise SystemExit(f"{invalid} legal hands were judged invalid: the engine and the generator disagree")
    lines = [json.dumps(r, ensure_ascii=False) for r in reports]
    print(f"engine_hands: {len(reports)}")
    print(f"engine_hands_per_s: {best_rate(validate_all, reports, args.repeat):.0f}")
    print(f"engine_json_hands_per_s: {best_rate(validate_json, lines, args.repeat):.0f}")


if __name__ == "__main__":
    main()
