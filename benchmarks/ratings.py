"""Ratings: their computation for 10,000 matches, and which method predicts the next match best.

Run: ``.venv/bin/python benchmarks/ratings.py [--repeat R] [--logloss] [--demo]``. Prints one
figure per line as ``name: value`` (seconds, 3 decimals, median of R runs):

- ``ratings_10000_s``: ``draw.pairing.ratings.compute`` on 10,000 matches of a generated
  season (benchmarks/seasons.py: 400 players, new partners every event), the deterministic sort,
  the history of 40,000 rating changes and the ``match`` method (win or loss);
- ``ratings_10000_margin_s`` and ``ratings_10000_hands_s``: the same with the ``margin`` method
  (tentos) and the ``hands`` method (the result scaled by the tentos of its hands);
- baseline, measured in the same run: ``openskill_loop_10000_s``, a plain openskill loop (a dict
  of ratings, ``PlackettLuce.rate`` per match, no sort, no history);
- ``--db``: ``ratings_sync_10000_s``, ``services.ratings.sync_ratings`` on 10,000 official results
  in a database (reading them, rating, writing 40,000 history rows; ``DATABASE_URL`` or a
  temporary SQLite file), and ``ratings_sync_one_more_s``, the same after one more result (what
  each official result costs).

Target: ``ratings_10000_s`` < 5, every method but ``hands`` since the ratings call openskill
itself (what one official result costs: benchmarks/ratings_sync.py).

``--logloss``: the mean log-loss of each method's prediction of the next match (``predict_win``
before the match is rated; lower is better, 0.693 is a coin toss) on 5 generated seasons of 64
players, 10 events of 5 rounds (800 matches each, seeds 6-10: the betas were chosen on 1-3; the
first 100 matches of each season not scored), as
``logloss_<method>: value``. ``--demo`` adds the same on the demo's official matches
(``manage.py load_demo`` in a temporary SQLite file): ``demo_logloss_<method>`` and
``demo_matches``. Results in docs/ratings.md; the comparison across season generators, a held-out
real-like season and the properties each method keeps is benchmarks/rating_eval.py.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce  # noqa: E402

from benchmarks.seasons import season  # noqa: E402
from draw.pairing.ratings import METHODS, compute, log_loss  # noqa: E402


def ten_thousand():
    matches = season(seed=27, players=400, tournaments=20, rounds=5)
    assert len(matches) == 10_000, len(matches)
    return matches


def plain_loop(matches) -> dict:
    model = PlackettLuce()
    ratings: dict = {}
    for m in matches:
        teams = [[ratings.get(p) or model.rating() for p in m.team_a], [ratings.get(p) or model.rating() for p in m.team_b]]
        new = model.rate(teams, ranks=[0.0, 1.0] if m.winner == 0 else [1.0, 0.0])
        for p, r in zip((*m.team_a, *m.team_b), (*new[0], *new[1])):
            ratings[p] = r
    return ratings


def timed(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def demo_matches():
    """The demo's official matches (load_demo in a temporary SQLite database), with their hands."""
    tmp = tempfile.TemporaryDirectory()
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp.name}/demo.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("load_demo", verbosity=0)
    from seasons.services.ratings import official_matches

    matches, _ = official_matches("hands", hands=True)
    return matches, tmp


def _django(tmp: str) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def db_sync(matches) -> None:
    """10,000 official results in the database (untimed setup), then ``sync_ratings`` timed."""
    from benchmarks.ratings_sync import load_site, one_more

    tmp = tempfile.TemporaryDirectory()
    _django(tmp.name)
    from seasons.models import RatingEntry
    from seasons.services.ratings import sync_ratings

    made = load_site(matches)
    start = time.perf_counter()
    rated = sync_ratings("match")
    print(f"ratings_sync_10000_s: {time.perf_counter() - start:.3f}")
    assert rated == len(matches) and RatingEntry.objects.count() == 4 * len(matches)
    one_more(made, 999)
    start = time.perf_counter()
    assert sync_ratings("match") == 1
    print(f"ratings_sync_one_more_s: {time.perf_counter() - start:.3f}")
    tmp.cleanup()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--logloss", action="store_true")
    parser.add_argument("--demo", action="store_true")
    parser.add_argument("--db", action="store_true")
    args = parser.parse_args()

    matches = ten_thousand()
    print(f"ratings_10000_s: {timed(lambda: compute(matches, 'match'), args.repeat):.3f}")
    print(f"openskill_loop_10000_s: {timed(lambda: plain_loop(matches), args.repeat):.3f}")
    print(f"ratings_10000_margin_s: {timed(lambda: compute(matches, 'margin'), args.repeat):.3f}")
    print(f"ratings_10000_hands_s: {timed(lambda: compute(matches, 'hands'), 1):.3f}")
    assert compute(matches, "match").current == compute(list(reversed(matches)), "match").current  # reproducible

    if args.logloss:
        seasons = [season(seed=s) for s in range(6, 11)]  # held out: the betas were chosen on 1-3
        for method in METHODS:
            scored = [log_loss(s, method, warm_up=100) for s in seasons]
            n = sum(k for _, k in scored)
            print(f"logloss_{method}: {sum(v * k for v, k in scored) / n:.4f}")
        print(f"logloss_matches: {n}")
    if args.db:
        db_sync(matches)
    if args.demo:
        demo, tmp = demo_matches()
        for method in METHODS:
            value, n = log_loss(demo, method)
            print(f"demo_logloss_{method}: {value:.4f}")
        print(f"demo_matches: {n}")
        tmp.cleanup()


if __name__ == "__main__":
    main()
