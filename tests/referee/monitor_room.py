"""A room of N tables in mixed states, for the room monitor's tests and screenshots."""
from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from referee.models import RefereeCall
from scoring.models import Game, Match
from tests.tournaments import factories as f
from tournaments import services
from room.models import MatchCall
from room.services import ready


def mixed_room(org, tables: int = 30, slug: str = "sala"):
    t = f.tournament(org, slug=slug)
    f.pairs(t, tables * 2)
    services.configure_stage(t, org, format="round_robin")
    ready.configure_room(t, org, tolerance_first=0, tolerance_later=5, time_limit=90)
    services.generate_first_round(t, org)
    now = timezone.now()
    matches = list(Match.objects.filter(tournament=t).select_related("pair_a", "pair_b").order_by("table"))
    for m in matches:
        n = m.table
        if n in (1, 2) or n % 10 == 3:
            RefereeCall.objects.create(match=m, kind="dispute" if n == 1 else "call", game_number=1 if n == 1 else None, hand_number=1 if n == 1 else None)
        if n in (4, 14):  # one pair at the table, the other late
            MatchCall.objects.create(match=m, tournament=t, table=n, called_at=now - timedelta(minutes=20),
                                     present_a_at=now - timedelta(minutes=18))
        elif n in (5, 15, 25):  # over the time limit
            start = now - timedelta(minutes=95)
            MatchCall.objects.create(match=m, tournament=t, table=n, called_at=start, started_at=start,
                                     present_a_at=start, present_b_at=start)
        elif n in (6, 16):  # over: the pairs sign
            Match.objects.filter(pk=m.pk).update(winner=0, games_a=1)
            Game.objects.filter(match=m).update(score_a=12, score_b=9, winner=0)
        elif n in (7, 17):
            services.record_walkover(m, m.pair_b, org, reason="absent")
        elif n % 3 == 0 or n in (11, 20, 22, 29):  # playing
            start = now - timedelta(minutes=10 + n)
            MatchCall.objects.create(match=m, tournament=t, table=n, called_at=start, started_at=start,
                                     present_a_at=start, present_b_at=start)
            Game.objects.filter(match=m).update(score_a=n % 12, score_b=(n * 7) % 12)
    return t
