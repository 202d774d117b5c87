"""Tournaments in every state for the page tests (tests/tournaments/test_pages_*.py).

Built with the public services only: ``tournaments.services`` for the format, the draw and
the organizer's results, and ``tests.tournaments.factories.play`` for a match made
official through its súmula (entered, signed by both pairs, received: art. 25).
"""
from __future__ import annotations

import random

from django.urls import reverse

from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import Result, Tournament


def url(name: str, t, **kwargs) -> str:
    """The path of the tournament page ``tournaments:<name>`` of ``t``."""
    return reverse(f"tournaments:{name}", kwargs={"slug": t.slug, **kwargs})


def organizer(username: str = "org"):
    return f.user(username, is_staff=False)


def logged_in_organizer(client):
    """An organizer (not staff), logged in on the test client."""
    user = organizer()
    client.force_login(user)
    return user


def tournament(org, slug: str = "copa", *, pairs: int = 8, format: str = "single_elimination",
               draw: bool = True, **stage) -> Tournament:
    t = f.tournament(org, slug=slug)
    f.pairs(t, pairs)
    services.configure_stage(t, org, format=format, **stage)
    if draw:
        services.generate_first_round(t, org)
    return t


def open_matches(t: Tournament) -> list[Match]:
    return list(Match.objects.filter(tournament=t, tournament_result__isnull=True).select_related("pair_a", "pair_b")
                .order_by("round__number", "table", "pk"))


def decide(match: Match, org, *, winner=None, rng: random.Random | None = None) -> None:
    """An official result set by the organizer (fast; the súmula path is ``factories.play``)."""
    winner = winner or (rng.choice([match.pair_a, match.pair_b]) if rng else match.pair_a)
    need = match.best_of // 2 + 1
    a_won = winner.pk == match.pair_a_id
    services.set_result(match, org, winner=winner.pk, games=[need, 0] if a_won else [0, need],
                        points=[12, 7] if a_won else [7, 12], reason="test")


def play_some(t: Tournament, org, count: int, *, seed: int = 1, sumula: int = 1, walkovers: int = 1) -> int:
    """Decide up to ``count`` open matches: the first ``sumula`` through the súmula, then
    ``walkovers`` W.O., the rest set by the organizer. Returns how many were decided."""
    rng = random.Random(seed)
    done = 0
    while done < count:
        matches = open_matches(t)
        if not matches:
            break
        for match in matches:
            if done >= count:
                break
            if done < sumula:
                f.play(match, match.pair_a, org, loser_points=5)
            elif done < sumula + walkovers:
                services.record_walkover(match, match.pair_b, org, reason="did not show up")
            else:
                decide(match, org, rng=rng)
            done += 1
    return done


def play_all(t: Tournament, org, *, seed: int = 1, next_rounds: bool = True) -> None:
    """Decide every match (generating the next rounds of a Swiss or round robin) until the end."""
    rng = random.Random(seed)
    while True:
        matches = open_matches(t)
        for match in matches:
            decide(match, org, rng=rng)
        t.refresh_from_db()
        if t.status == Tournament.Status.FINISHED or not next_rounds:
            return
        if not matches:
            try:
                services.generate_next_round(t, org)
            except services.Conflict:
                return


def results(t: Tournament) -> int:
    return Result.objects.filter(tournament=t).count()
