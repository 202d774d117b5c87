"""A tournament of one organizer in which Ana's pair wins its one match (set by the organizer: fast)."""
from __future__ import annotations

from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import services


def event(org, slug: str, ana, *, club: str = "", decide: bool = True) -> tuple:
    """A tournament of ``org`` with two pairs (Ana's first), drawn and its match decided (Ana's pair wins)."""
    t = f.tournament(org, slug)
    mine = services.register_pair(t, org, name=f"Ana/{slug}", first_player=ana,
                                  second_player={"name": f"Partner {slug}", "club": club})
    rivals = services.register_pair(t, org, name=f"Rivals {slug}", first_player={"name": f"R1 {slug}"},
                                    second_player={"name": f"R2 {slug}"})
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t)
    if decide:
        services.set_result(match, org, winner=mine.pk, games=[1, 0],
                            points=[12, 7] if match.pair_a_id == mine.pk else [7, 12], reason="test")
    return t, mine, rivals, match
