"""The room monitor's poll while nothing changes, at 100 tables, beside the monitor page
and its fragment (the baseline: what a reload every few seconds would cost).

Run: ``.venv/bin/python benchmarks/monitor_poll.py [--tables N] [--repeat R]``. Builds a fresh SQLite
database in a temporary directory: a round robin of 2N pairs drawn (N tables), a third of the tables
with both pairs at the table and a score, a few calling the referee. Requests go through Django's test
client (the whole middleware stack, no network); the poll is anonymous (the marker is a hash, public
like the live pages' marker), the page and the fragment are the organizer's. Prints ``name: value``
lines, medians of R requests:

- ``monitor_poll_304_ms`` / ``monitor_poll_304_queries``: the monitor's marker with If-None-Match (304);
- ``monitor_marker_query_ms``: the marker's one query alone;
- ``monitor_page_ms`` / ``monitor_page_queries`` / ``monitor_page_bytes``: the whole page;
- ``monitor_fragment_ms`` / ``monitor_fragment_bytes``: the tiles fetched after a change;
- ``poll_vs_fragment_ratio``: the fragment's time over the poll's.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.live_poll import median_ms, setup_django  # noqa: E402


def build(tables: int):
    import datetime

    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.utils import timezone

    from referee.models import RefereeCall
    from room.models import MatchCall
    from scoring.models import Game, Match
    from tournaments import services
    from tournaments.models import Player, Tournament

    org = get_user_model().objects.create_user("bench-org", is_staff=True)
    # an organizer is an account allowed to create tournaments (events.add_tournament)
    org.user_permissions.add(Permission.objects.get(codename="add_tournament", content_type__app_label="events"))
    t = services.create_tournament(org, name="Bench room", date=datetime.date(2026, 1, 1),
                                   status=Tournament.Status.REGISTRATION)
    for i in range(tables * 2):
        a = Player.objects.create(name=f"Player {i}a")
        b = Player.objects.create(name=f"Player {i}b")
        services.register_pair(t, org, name=f"P{i + 1}", first_player=a, second_player=b)
    services.configure_stage(t, org, format="round_robin")
    from room.services import ready

    ready.configure_room(t, org, tolerance_first=15, tolerance_later=5, time_limit=90)
    services.generate_first_round(t, org)
    now = timezone.now()
    for m in Match.objects.filter(tournament=t).order_by("table"):
        if m.table % 3 == 0:
            MatchCall.objects.create(match=m, tournament=t, table=m.table, called_at=now, started_at=now,
                                     present_a_at=now, present_b_at=now)
            Game.objects.filter(match=m).update(score_a=m.table % 12, score_b=5)
        elif m.table % 10 == 1:
            RefereeCall.objects.create(match=m, kind="call")
    return t, org


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    tmp = setup_django()
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from referee.monitor import monitor_version

    t, org = build(args.tables)
    client = Client()
    base = f"/torneios/{t.slug}/sala/"
    etag = client.get(base + "versao/")["ETag"]
    poll_ms, response = median_ms(lambda: client.get(base + "versao/", HTTP_IF_NONE_MATCH=etag), args.repeat)
    assert response.status_code == 304
    with CaptureQueriesContext(connection) as queries:
        client.get(base + "versao/", HTTP_IF_NONE_MATCH=etag)
    poll_queries = len(queries)
    marker_ms, _ = median_ms(lambda: monitor_version(t.slug), args.repeat)
    organizer = Client()
    organizer.force_login(org)
    page_ms, page = median_ms(lambda: organizer.get(base), max(3, args.repeat // 3))
    assert page.status_code == 200
    with CaptureQueriesContext(connection) as queries:
        organizer.get(base)
    page_queries = len(queries)
    fragment_ms, fragment = median_ms(lambda: organizer.get(base + "?parte=1"), max(3, args.repeat // 3))
    print(f"tables: {args.tables}")
    print(f"monitor_poll_304_ms: {poll_ms:.2f}")
    print(f"monitor_poll_304_queries: {poll_queries}")
    print(f"monitor_marker_query_ms: {marker_ms:.2f}")
    print(f"monitor_page_ms: {page_ms:.2f}")
    print(f"monitor_page_queries: {page_queries}")
    print(f"monitor_page_bytes: {len(page.content)}")
    print(f"monitor_fragment_ms: {fragment_ms:.2f}")
    print(f"monitor_fragment_bytes: {len(fragment.content)}")
    print(f"poll_vs_fragment_ratio: {fragment_ms / poll_ms:.1f}")
    tmp.cleanup()


if __name__ == "__main__":
    main()
