"""The organizer's dashboard at 256 pairs: bytes on the wire and server time, beside a trivial page.

Run (PostgreSQL of your own, or SQLite when ``DATABASE_URL`` is unset; in-process, no server)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/truco_mine .venv/bin/python benchmarks/dashboard_size.py \\
        [--pairs 256] [--repeat 7]

It migrates the configured database and creates a fresh Swiss tournament of ``--pairs`` pairs (left in
place, named ``bench-dash-...``): round 1 drawn, the roster and the registration still open (a Swiss). It
measures the dashboard twice: at the round's start (``dashboard_round_start_*``: 128 matches to play, the
heaviest moment) and once a third of them has a result set by hand (``dashboard_third_decided_*``).
Then, through Django's test client (every middleware of the settings, the organizer logged in), it asks
``--repeat`` times each:

- ``trivial_*``: ``/healthz``, the cheapest view of the same stack: the baseline of this run;
- ``dashboard_*``: the organizer's dashboard, without and with ``Accept-Encoding: gzip``:
  ``dashboard_bytes`` (the HTML as built), ``dashboard_wire_bytes`` (what a browser receives: compressed
  when the middleware compresses), ``dashboard_server_ms`` (median time of one answer, in this process);
- ``pair_panel_*`` and ``match_panel_*``: one pair's and one match's actions, asked when the organizer
  opens them (``dashboard_panels``): the cost of an action on demand.

The figures compare within one run; the machine is shared, so read the ratios to ``trivial_server_ms``.
Measured on the 2-core machine (2026-11-29, PostgreSQL, 256 pairs, load average about 3), "before" is this
script run on the branch point (every action in the page, no compression) a minute apart from "after":

==========================================  ===========  ==========
figure                                        before       after
==========================================  ===========  ==========
dashboard_round_start_bytes (HTML)            2,349,508     119,456
dashboard_round_start_wire_bytes (gzip)       2,349,508      19,539
dashboard_round_start_forms                       2,189          45
dashboard_round_start_server_ms               1,253–1,735    330–351
dashboard_third_decided_bytes                 2,239,814     115,390
dashboard_third_decided_wire_bytes            2,239,814      19,391
dashboard_third_decided_server_ms             1,388–1,598    275–292
trivial_server_ms (the baseline)                    6.1         5.6
pair_panel / match_panel wire bytes (gzip)          —      1,384 / 1,209
pair_panel / match_panel server_ms                  —        20 / 22
roster_panel_bytes (the 256 pairs' lines)           —      90,741 (4,230 gzip), 102 ms
==========================================  ===========  ==========

docs/dashboard.md says what moved where.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import logging
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django() -> None:
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    call_command("migrate", verbosity=0, interactive=False)


def build_tournament(pairs: int):
    from django.contrib.auth import get_user_model

    from scoring.models import Match
    from tournaments import services
    from tournaments.models import Pair, Player, Tournament

    stamp = datetime.datetime.now().strftime("%Y%m%d%H%M%S%f")
    organizer = get_user_model().objects.create_user(f"bench-dash-{stamp}", password="x")
    t = Tournament.objects.create(name=f"Bench {stamp}", slug=f"bench-dash-{stamp}", organizer=organizer,
                                  date=datetime.date.today(), status=Tournament.Status.REGISTRATION, best_of=1)
    players = Player.objects.bulk_create(Player(name=f"Jogador {n}") for n in range(2 * pairs))
    for i in range(pairs):
        Pair.objects.create(tournament=t, name=f"Dupla {i + 1}", first_player=players[2 * i],
                            second_player=players[2 * i + 1], status=Pair.Status.CONFIRMED)
    services.configure_stage(t, organizer, format="swiss")
    services.generate_first_round(t, organizer)
    return t, organizer, list(Match.objects.filter(tournament=t).order_by("table", "pk"))


def decide(matches, organizer, share: float) -> None:
    from tournaments import services

    for match in matches[: int(len(matches) * share)]:
        services.set_result(match, organizer, winner=match.pair_a_id, games=[1, 0], points=[12, 7], reason="bench")


def timed(client, path: str, repeat: int, **headers) -> tuple[float, object]:
    times = []
    response = None
    for _ in range(repeat):
        start = time.perf_counter()
        response = client.get(path, headers=headers)
        body = response.content if not response.streaming else b"".join(response.streaming_content)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200, (path, response.status_code)
        response.body_bytes = body
    return statistics.median(times), response


def html_bytes(response) -> int:
    body = response.body_bytes
    return len(gzip.decompress(body)) if response.get("Content-Encoding") == "gzip" else len(body)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    setup_django()
    from django.test import Client
    from django.urls import NoReverseMatch, reverse

    t, organizer, matches = build_tournament(args.pairs)
    logging.disable(logging.INFO)  # the access log of every request
    client = Client()
    client.force_login(organizer)
    client.get("/healthz")  # the first answer of a process warms what every later one shares
    print(f"pairs: {args.pairs}")
    print(f"matches_shown: {len(matches)}")

    ms, response = timed(client, "/healthz", args.repeat, accept_encoding="gzip")
    print(f"trivial_server_ms: {ms:.1f}")
    print(f"trivial_wire_bytes: {len(response.body_bytes)}")

    dashboard = reverse("tournaments:dashboard", kwargs={"slug": t.slug})
    for state, share in (("round_start", 0), ("third_decided", 1 / 3)):
        decide(matches, organizer, share)
        ms_plain, plain = timed(client, dashboard, args.repeat)
        ms_gzip, zipped = timed(client, dashboard, args.repeat, accept_encoding="gzip, deflate, br")
        print(f"dashboard_{state}_bytes: {html_bytes(plain)}")
        print(f"dashboard_{state}_bytes_if_gzipped: {len(gzip.compress(plain.body_bytes))}")
        print(f"dashboard_{state}_wire_bytes: {len(zipped.body_bytes)}")
        print(f"dashboard_{state}_content_encoding: {zipped.get('Content-Encoding', 'none')}")
        print(f"dashboard_{state}_forms: {plain.body_bytes.count(b'<form')}")
        print(f"dashboard_{state}_server_ms: {ms_plain:.1f}")
        print(f"dashboard_{state}_server_ms_gzip: {ms_gzip:.1f}")
        print(f"dashboard_{state}_vs_trivial_server_time: {ms_gzip / max(ms, 0.001):.1f}")

    pair = t.pairs.order_by("pk").first()
    for name, route, kwargs in (("pair_panel", "tournaments:pair-actions", {"pk": pair.pk}),
                                ("match_panel", "tournaments:match-actions", {"pk": matches[-1].pk}),
                                ("roster_panel", "tournaments:roster", {})):
        try:
            path = reverse(route, kwargs={"slug": t.slug, **kwargs})
        except NoReverseMatch:
            print(f"{name}_bytes: none (every action in the page)")
            continue
        ms_panel, panel = timed(client, path, args.repeat, accept_encoding="gzip", x_dashboard_panel="1")
        print(f"{name}_bytes: {html_bytes(panel)}")
        print(f"{name}_wire_bytes: {len(panel.body_bytes)}")
        print(f"{name}_server_ms: {ms_panel:.1f}")


if __name__ == "__main__":
    main()
