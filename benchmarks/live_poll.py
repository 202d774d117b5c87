"""What a live page costs while nothing changes: the conditional poll against a full page.

Run: ``.venv/bin/python benchmarks/live_poll.py [--pairs N] [--repeat R]``. Builds a fresh SQLite
database in a temporary directory: a Swiss tournament of N pairs (default 64) after two rounds
(results set by the organizer). Requests go through Django's test client (the whole middleware
stack, no network). Prints ``name: value`` lines, medians of R requests:

- ``poll_304_ms`` / ``poll_304_queries``: the change marker asked with If-None-Match (304);
- ``marker_query_ms``: the marker's one query alone (the rest of the poll is Django's middleware);
- ``standings_page_ms`` / ``standings_page_bytes``: the whole standings page (the baseline: what
  a reload every few seconds would cost; repeated, so public.conditional's page cache
  answers most of them);
- ``standings_page_built_ms``: the same page built every time (a new address each request, so
  the page cache never answers): what each change costs once;
- ``standings_fragment_ms`` / ``standings_fragment_bytes``: the fragment fetched after a change;
- ``projector_page_ms``; ``poll_vs_page_ratio`` and ``poll_vs_built_page_ratio``: the page's time
  (cached, built) over the poll's.
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


def setup_django() -> tempfile.TemporaryDirectory:
    tmp = tempfile.TemporaryDirectory(prefix="truco-bench-")
    os.environ["TRUCO_VAR_DIR"] = tmp.name
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return tmp


def build(pairs: int):
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    from scoring.models import Match
    from tournaments import services
    from tournaments.models import Player, Tournament

    org = get_user_model().objects.create_user("bench-org", is_staff=True)
    # an organizer is an account allowed to create tournaments (events.add_tournament)
    org.user_permissions.add(Permission.objects.get(codename="add_tournament", content_type__app_label="events"))
    t = services.create_tournament(org, name="Bench", date=datetime.date(2026, 1, 1),
                                   status=Tournament.Status.REGISTRATION)
    for i in range(pairs):
        a = Player.objects.create(name=f"Player {i}a")
        b = Player.objects.create(name=f"Player {i}b")
        services.register_pair(t, org, name=f"P{i + 1}", first_player=a, second_player=b)
    services.configure_stage(t, org, format="swiss")
    services.generate_first_round(t, org)
    for rnd in range(2):
        for match in Match.objects.filter(tournament=t, tournament_result__isnull=True):
            services.set_result(match, org, winner=match.pair_a_id, games=[1, 0], points=[12, 7], reason="bench")
        if rnd == 0:
            services.generate_next_round(t, org)
    return t


def median_ms(call, repeat: int):
    times, last = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        last = call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), last


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    tmp = setup_django()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    t = build(args.pairs)
    client = Client()
    version = f"/torneios/{t.slug}/versao/"
    etag = client.get(version)["ETag"]
    poll_ms, response = median_ms(lambda: client.get(version, HTTP_IF_NONE_MATCH=etag), args.repeat)
    assert response.status_code == 304
    with CaptureQueriesContext(connection) as queries:
        client.get(version, HTTP_IF_NONE_MATCH=etag)
    poll_queries = len(queries)  # now: the next request empties Django's query log
    from public.live import tournament_version

    marker_ms, _ = median_ms(lambda: tournament_version(t.slug), args.repeat)
    page_ms, page = median_ms(lambda: client.get(f"/torneios/{t.slug}/classificacao/"), args.repeat)
    counter = iter(range(10**6))
    built_ms, _ = median_ms(lambda: client.get(f"/torneios/{t.slug}/classificacao/?b={next(counter)}"), args.repeat)
    fragment_ms, fragment = median_ms(lambda: client.get(f"/torneios/{t.slug}/classificacao/?parte=1"), args.repeat)
    projector_ms, _ = median_ms(lambda: client.get(f"/torneios/{t.slug}/telao/"), max(3, args.repeat // 3))
    print(f"pairs: {args.pairs}")
    print(f"poll_304_ms: {poll_ms:.2f}")
    print(f"poll_304_queries: {poll_queries}")
    print(f"marker_query_ms: {marker_ms:.2f}")
    print(f"standings_page_ms: {page_ms:.2f}")
    print(f"standings_page_built_ms: {built_ms:.2f}")
    print(f"standings_page_bytes: {len(page.content)}")
    print(f"standings_fragment_ms: {fragment_ms:.2f}")
    print(f"standings_fragment_bytes: {len(fragment.content)}")
    print(f"projector_page_ms: {projector_ms:.2f}")
    print(f"poll_vs_page_ratio: {page_ms / poll_ms:.1f}")
    print(f"poll_vs_built_page_ratio: {built_ms / poll_ms:.1f}")
    tmp.cleanup()


if __name__ == "__main__":
    main()
