"""Two players facing each other in a match still being played are two people: a merge of them is
refused with a clear message (merged, one person would sit on both sides and neither could sign);
once the match is decided the same check no longer stands in the way of other rules."""
import pytest

from config.errors import Conflict
from people.models import PlayerMerge
from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import players, services

pytestmark = pytest.mark.django_db


def test_players_facing_each_other_in_a_live_match_are_not_merged(org, t):
    a, b = f.pairs(t, 2)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t)
    with pytest.raises(Conflict) as refused:
        players.merge_players(a.first_player, b.second_player, by=org, reason="same name")
    assert refused.value.field == "duplicate"
    assert f"(jogo {match.pk})" in refused.value.message and "duas pessoas" in refused.value.message
    assert not PlayerMerge.objects.exists()
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.first_player_id != b.second_player_id
