"""Every decision on a table's result counts for the team (art. 26): a W.O., the organizer's result by hand
and its undo, as a súmula received (art. 25) does."""
from __future__ import annotations

import pytest
from django.utils import timezone

from draw.models import AuditEntry, Round
from scoring import services as scoring
from teams import services
from teams.models import TeamMatchTable
from tournaments import services as tournament_services
from tournaments.services.undo import undo_result

from tests.teams.helpers import event, play
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401


@pytest.mark.django_db
def test_a_walkover_and_a_result_by_hand_count_and_an_undo_takes_the_team_result_back():
    org = f.organizer("org")
    t, (home, away) = event(org, teams=2, pairs=3, rule="pair_wins")
    team_match = services.create_team_match(t, org, round_number=1, home=home, away=away, best_of=3)
    one, two, three = [row.match for row in team_match.tables.order_by("table")]
    tournament_services.record_walkover(one, one.pair_b, org, reason="Não compareceu")
    play(three, [1, 1], org)
    team_match.refresh_from_db()
    assert (team_match.winner_id, team_match.pair_wins_home, team_match.pair_wins_away) == (None, 1, 1)
    tournament_services.set_result(two, org, winner=two.pair_a, games=[2, 1], reason="Súmula extraviada")
    team_match.refresh_from_db()
    assert (team_match.winner_id, team_match.reason, team_match.pair_wins_home, team_match.pair_wins_away) == (
        home.pk, "more_pair_wins", 2, 1)
    entry = AuditEntry.objects.filter(match=two, action=AuditEntry.Action.RESULT_SET).latest("id")
    undo_result(two, org, entry.pk)
    team_match.refresh_from_db()
    assert (team_match.winner_id, team_match.reason, team_match.decided_at) == (None, "playing", None)
    assert not TeamMatchTable.objects.filter(team_match=team_match, decider=True).exists()


@pytest.mark.django_db
def test_a_pairs_tournament_is_untouched():
    """A tournament without teams: its decisions find no team match (one query) and go on as before."""
    org = f.organizer("org")
    t = f.tournament(org, slug="duplas")
    a, b = f.pairs(t, 2)
    rnd = Round.objects.create(tournament=t, number=1, phase="groups", generated_at=timezone.now())
    match = scoring.create_match(pair_a=a, pair_b=b, by=org, tournament=t, round=rnd)
    play(match, [0], org)
    assert not TeamMatchTable.objects.exists()

