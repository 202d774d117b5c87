"""What one official result costs the ratings on a site with 10,000 rated matches.

Run: ``.venv/bin/python benchmarks/ratings_sync.py [--repeat R]`` (SQLite in a temporary file), or
with ``DATABASE_URL=postgres://postgres@127.0.0.1:5432/truco_ratings_bench`` (an empty database:
the script migrates it and refuses one with results in it). Prints ``name: value`` lines
(milliseconds unless the name says otherwise; the median of R results):

- setup, untimed: a generated season of 10,000 matches (benchmarks/seasons.py: 400 players, 20
  tournaments of 500 matches) written with ``bulk_create`` as official results set by hand;
- ``ratings_full_10000_s``: ``sync_ratings`` on that site from nothing (rates 10,000 matches,
  writes 40,000 history rows and 10,000 rated results);
- ``ratings_one_more_ms``: one more official result (the last tournament's next table), marked as
  ``after_results.results_changed`` marks it, then ``sync_ratings``: what each result costs now
  (only the marked match compared with what was rated);
- baseline, same run, same database: ``ratings_one_more_full_check_ms``, the sync as it was before
  the marks and as the periodic check still runs it (``sync_ratings(full=True)``: every official
  result on the site compared with its copy, in the database), on one more result;
- ``ratings_mark_ms``: what marking a match adds inside the decision's transaction (one insert);
- ``ratings_correction_middle_ms``: a result in the middle of the season corrected (art. 26) and
  marked: the history rated again from that match on (about 5,000 matches); then a full check
  must find nothing left (asserted);
- ``rate_one_match_us`` and ``rate_one_match_hands_us``: the computation alone for one match
  (openskill's ``PlackettLuce.rate``; the ``hands`` method: about 13 hands), and ``rate_10000_s``
  for a whole season (the computation of a full recompute).
"""
from __future__ import annotations

import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.seasons import season  # noqa: E402


def setup_django(tmp: str) -> None:
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{tmp}/bench.sqlite3")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def load_site(matches) -> list:
    """The season's matches as official results (bulk_create); the last tournament's rows back."""
    from django.contrib.auth import get_user_model

    from scoring.models import Match
    from tournaments.models import Pair, Player, Result, Tournament

    if Result.objects.exists():
        sys.exit("ratings_sync: the database already holds results; give it an empty one")
    org = get_user_model().objects.create_user(f"bench-ratings-{os.getpid()}", password="x")
    players = dict(enumerate(Player.objects.bulk_create(Player(name=f"P{i}") for i in range(400))))
    by_event: dict = {}
    for m in matches:
        by_event.setdefault(m.key[1], []).append(m)
    made = []
    for event, ms in by_event.items():
        t = Tournament.objects.create(name=f"Bench {event}", slug=f"bench-ratings-{os.getpid()}-{event}",
                                      organizer=org, date=datetime.date(2026, 1, 1) + datetime.timedelta(days=event),
                                      status=Tournament.Status.FINISHED)
        pairs = {}
        for m in ms:
            for team in (m.team_a, m.team_b):
                if team not in pairs:
                    pairs[team] = Pair(tournament=t, name=f"{team[0]}+{team[1]}", first_player=players[team[0]],
                                       second_player=players[team[1]])
        Pair.objects.bulk_create(pairs.values())
        rows = Match.objects.bulk_create(Match(tournament=t, table=m.key[3], pair_a=pairs[m.team_a],
                                               pair_b=pairs[m.team_b], rule_set={}, best_of=1) for m in ms)
        made += [(t, m, row, pairs) for m, row in zip(ms, rows)]
    Result.objects.bulk_create(
        (Result(match=row, tournament=t, kind=Result.Kind.MANUAL, pair_a=pairs[m.team_a], pair_b=pairs[m.team_b],
                winner=pairs[m.team_a] if m.winner == 0 else pairs[m.team_b], games_a=int(m.winner == 0),
                games_b=int(m.winner == 1), points_a=m.points_a, points_b=m.points_b, reason="bench")
         for t, m, row, pairs in made), batch_size=2000)
    return made


def analyze(connection) -> None:
    """PostgreSQL: the planner's statistics of the tables just loaded (autovacuum would take them a
    while later; without them it plans 10,000 rows as 13)."""
    if connection.vendor == "postgresql":
        from django.core.management import call_command

        call_command("dbshell", "--", "-c", "ANALYZE", verbosity=0)


def one_more(made, table: int):
    """One more official result in the last tournament (a new table): what a venue sends."""
    from scoring.models import Match
    from tournaments.models import Result

    t, m, _row, pairs = made[-1]
    extra = Match.objects.create(tournament=t, table=table, pair_a=pairs[m.team_a], pair_b=pairs[m.team_b],
                                 rule_set={}, best_of=1)
    Result.objects.create(match=extra, tournament=t, kind=Result.Kind.MANUAL, pair_a=extra.pair_a,
                          pair_b=extra.pair_b, winner=extra.pair_a, games_a=1, games_b=0, points_a=12, points_b=3,
                          reason="bench")
    mark(extra.pk)


def mark(match_id: int) -> None:
    """What ``after_results.results_changed`` adds to the decision's transaction: the match marked."""
    from seasons.services.ratings import mark_changed

    mark_changed([match_id])


def clock(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    matches = season(seed=27, players=400, tournaments=20, rounds=5)
    assert len(matches) == 10_000, len(matches)

    from draw.pairing import ratings as pure

    one = matches[:1]
    match = statistics.median(clock(lambda: pure.compute(one)) for _ in range(200))
    hands = statistics.median(clock(lambda: pure.compute(one, "hands")) for _ in range(200))
    print(f"rate_one_match_us: {match * 1e6:.1f}")
    print(f"rate_one_match_hands_us: {hands * 1e6:.1f} ({len(one[0].hands)} hands)")
    print(f"rate_10000_s: {clock(lambda: pure.compute(matches)):.3f}")

    tmp = tempfile.TemporaryDirectory()
    setup_django(tmp.name)
    from django.db import connection, transaction

    from tournaments.models import Result
    from seasons.services.ratings import sync_ratings

    made = load_site(matches)
    print(f"database: {connection.vendor}")
    analyze(connection)
    print(f"ratings_full_10000_s: {clock(lambda: sync_ratings('match')):.3f}")
    analyze(connection)
    table = 1000
    now, before = [], []
    for _ in range(args.repeat):
        table += 1
        one_more(made, table)
        now.append(clock(lambda: sync_ratings("match")))
        table += 1
        one_more(made, table)
        before.append(clock(lambda: sync_ratings("match", full=True)))
        sync_ratings("match")
    with transaction.atomic():  # inside the decision's transaction (its commit is the decision's)
        marking = [clock(lambda: mark(made[-1][2].pk)) for _ in range(args.repeat)]
        transaction.set_rollback(True)
    print(f"ratings_one_more_ms: {statistics.median(now) * 1000:.1f}")
    print(f"ratings_one_more_full_check_ms: {statistics.median(before) * 1000:.1f}")
    print(f"ratings_mark_ms: {statistics.median(marking) * 1000:.2f}")
    middle = Result.objects.order_by("tournament__date", "match__table", "match_id")[5000]
    loser = middle.pair_b if middle.winner_id == middle.pair_a_id else middle.pair_a
    Result.objects.filter(pk=middle.pk).update(winner=loser, games_a=int(loser == middle.pair_a),
                                               games_b=int(loser == middle.pair_b))
    mark(middle.match_id)
    print(f"ratings_correction_middle_ms: {clock(lambda: sync_ratings('match')) * 1000:.1f}")
    assert sync_ratings("match", full=True) == 0  # the marks were enough: the full check finds nothing
    tmp.cleanup()


if __name__ == "__main__":
    main()
