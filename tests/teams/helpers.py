"""Building a team event and playing its tables through scoring's public services (art. 25)."""
from __future__ import annotations

from people.models import Club, Player
from scoring import services as scoring
from teams import services

from tests.tournaments import factories as f


def event(org, *, teams: int = 6, pairs: int = 3, slug: str = "interclubes", **rules):
    """A tournament with ``teams`` teams of ``2 * pairs`` players each, their pairs formed in roster order."""
    t = f.tournament(org, slug=slug)
    services.configure(t, org, pairs_per_match=pairs, min_players=2 * pairs, max_players=2 * pairs + 2, **rules)
    out = []
    for i in range(1, teams + 1):
        club = Club.objects.create(name=f"Clube {slug} {i}")
        team = services.create_team(t, org, club=club, name=f"Clube {i}", seed=i)
        for j in range(1, 2 * pairs + 1):
            services.add_player(team, org, Player.objects.create(name=f"Jogador {i}.{j}", club=club))
        services.form_pairs(team, org)
        out.append(team)
    return t, out


def games(match, winners, org) -> None:
    """Enter one 12-point hand per game for the sides in ``winners`` (0: pair A, 1: pair B)."""
    match.refresh_from_db()
    for side in winners:
        scoring.record_hand(match, {"winner": side, "ended_by": "tricks", "value": 12}, org)


def play(match, winners, org):
    """Play the games, both pairs sign, the organizer receives the súmula: the result is official (art. 25)."""
    games(match, winners, org)
    return f.sign_and_receive(match, org)
