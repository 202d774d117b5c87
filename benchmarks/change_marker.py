"""What the tournament's change marker (``public.freshness.state``) costs per call, in-process.

Every public page, every live page's and projector's poll and the room monitor ask it first, so its
cost is paid on each request of hundreds of phones. Run:
``.venv/bin/python benchmarks/change_marker.py [--pairs 64] [--events 4000] [--others 3] [--repeat 200]``
on a fresh SQLite database in a temporary folder, or with ``DATABASE_URL=postgres://…/<your db>``
(migrated, a new tournament left there). Builds a Swiss tournament of N pairs after two rounds
(results set by the organizer, as ``benchmarks/live_poll.py``), gives its matches ``--events`` match
events in all (a hand each) and ``--others`` other tournaments as large (a season's history: the
marker must read its tournament's rows only). Prints ``name: value`` lines, medians of R calls:

- ``baseline_query_ms``: the tournament's row read by slug with its organizer (the least a page does);
- ``marker_ms``: ``freshness.state(slug)``, whole; ``marker_db_ms``: the time inside the database
  driver's ``execute`` (``connection.execute_wrapper``); ``marker_python_ms``: the rest (building and
  compiling the query, reading its row, hashing);
- ``marker_queries``: the statements one call runs;
- ``monitor_marker_ms`` / ``monitor_marker_db_ms``: the same with the room monitor's calls to the referee;
- with ``--against REV``: ``against_marker_*``, the marker as ``public/freshness.py`` was at that
  revision, then ``marker_again_*`` (today's once more: the machine's load moves).

Measured 2026-11-29 on the shared 2-core machine (load average 4.2, other sessions running), defaults
(64 pairs, 4000 events each, 3 other tournaments), medians of 200 calls, ``--against d1bafd0`` (the
marker as first written with the ORM: one correlated subquery an aggregate, 25 of them, built anew
each call), after this change's index on events (match, at), ms whole / in the database:

- SQLite: now 8.1 / 1.1 (7.8 / 1.1 again), before 44.8 / 3.0; the trivial read 1.2 / 0.1. Before the
  index the former marker's database time was 4.8 ms (12 ms at load 5: the events read from the table);
- PostgreSQL 15 (ANALYZEd): now 16.3 / 5.2 (14.5 / 4.8 again), before 49.1 / 15.4; the trivial read 3.6
  / 1.2. Of the database time most is planning the ten subqueries (13 ms at load 5 by EXPLAIN ANALYZE,
  its execution 3.6 ms; the events' part 1.9 ms, an index-only scan).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def setup_django() -> tempfile.TemporaryDirectory | None:
    tmp = None
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        os.environ.pop("DATABASE_URL", None)
        if not os.environ.get("TRUCO_VAR_DIR"):  # kept when given (with --slug: measured again)
            tmp = tempfile.TemporaryDirectory(prefix="truco-marker-")
            os.environ["TRUCO_VAR_DIR"] = tmp.name
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_LOG_LEVEL", "WARNING")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return tmp


def build(pairs: int, events: int, others: int):
    """The measured tournament (``live_poll.build``'s) and ``others`` like it, each with ``events`` events."""
    import uuid

    from django.contrib.auth import get_user_model

    from scoring.models import Match, MatchEvent
    from tournaments.models import Tournament

    import live_poll

    made = []
    for _ in range(others + 1):
        # live_poll.build's organizer has a fixed name: rename the last one before the next tournament
        get_user_model().objects.filter(username="bench-org").update(username=f"bench-org-{uuid.uuid4().hex[:8]}")
        t = live_poll.build(pairs)
        matches = list(Match.objects.filter(tournament=t).values_list("pk", flat=True))
        MatchEvent.objects.bulk_create(
            (MatchEvent(match_id=matches[i % len(matches)], kind=MatchEvent.Kind.HAND, data={"n": i})
             for i in range(events)), batch_size=500)
        # and its slug, which live_poll.build always names the same
        Tournament.objects.filter(pk=t.pk).update(slug=f"bench-{uuid.uuid4().hex[:8]}")
        made.append(t)
    # the measured tournament is the first: the others' rows come after its own (the newest ids)
    return Tournament.objects.get(pk=made[0].pk)


class Timer:
    """``connection.execute_wrapper``: the time spent in the driver's ``execute`` and the statements."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.queries = 0

    def __call__(self, execute, sql, params, many, context):
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - start
            self.queries += 1


def measure(call, repeat: int) -> tuple[float, float, int]:
    """Medians over ``repeat`` calls: (whole ms, database ms, statements)."""
    from django.db import connection

    whole, inside, queries = [], [], 0
    for _ in range(repeat):
        timer = Timer()
        with connection.execute_wrapper(timer):
            start = time.perf_counter()
            call()
            whole.append((time.perf_counter() - start) * 1000)
        inside.append(timer.seconds * 1000)
        queries = timer.queries
    return statistics.median(whole), statistics.median(inside), queries


def load_former(revision: str):
    """The marker's module (``public/freshness.py``, ``tournaments/freshness.py`` before the public pages had
    an app of their own) as it was at ``revision``, loaded beside today's (same models)."""
    import importlib.util
    import subprocess

    for where in ("public/freshness.py", "tournaments/freshness.py"):
        shown = subprocess.run(["git", "show", f"{revision}:{where}"], cwd=ROOT, capture_output=True, text=True)
        if shown.returncode == 0:
            break
    shown.check_returncode()
    source = shown.stdout
    path = Path(tempfile.mkdtemp(prefix="truco-marker-former-")) / "freshness_former.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location(f"{where.split('/')[0]}.freshness_former", path)  # its relative imports
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--events", type=int, default=4000, help="match events of each tournament")
    parser.add_argument("--others", type=int, default=3, help="other tournaments in the database")
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--slug", help="measure this tournament, left by an earlier run, instead of building one")
    parser.add_argument("--against", metavar="REV", help="also time public/freshness.py as it was at this git "
                        "revision (same database, same run): prints against_marker_* lines")
    args = parser.parse_args()
    tmp = setup_django()
    from django.db import connection

    from referee.monitor import CALLS
    from public import freshness
    from tournaments.models import Tournament

    slug = args.slug or build(args.pairs, args.events, args.others).slug
    print(f"slug: {slug}")
    print(f"database: {connection.vendor}")
    print(f"pairs: {args.pairs}")
    print(f"events_per_tournament: {args.events}")
    print(f"tournaments: {args.others + 1}")
    for _ in range(20):  # warm: connection, caches, the first compile
        freshness.state(slug)
        freshness.state(slug, also=CALLS)

    def baseline():
        return Tournament.objects.select_related("organizer").filter(slug=slug).first()

    results = {
        "baseline_query": measure(baseline, args.repeat),
        "marker": measure(lambda: freshness.state(slug), args.repeat),
        "monitor_marker": measure(lambda: freshness.state(slug, also=CALLS), args.repeat),
    }
    if args.against:
        former = load_former(args.against)
        for _ in range(5):
            former.state(slug)
        results["against_marker"] = measure(lambda: former.state(slug), args.repeat)
        results["marker_again"] = measure(lambda: freshness.state(slug), args.repeat)  # the load moves
    for name, (whole, inside, queries) in results.items():
        print(f"{name}_ms: {whole:.2f}")
        print(f"{name}_db_ms: {inside:.2f}")
        print(f"{name}_python_ms: {whole - inside:.2f}")
        print(f"{name}_queries: {queries}")
    print(f"marker_vs_baseline_ratio: {results['marker'][0] / results['baseline_query'][0]:.1f}")
    print(f"load_average: {Path('/proc/loadavg').read_text().split()[0]}")
    if tmp is not None:
        connection.close()
        tmp.cleanup()


if __name__ == "__main__":
    main()
