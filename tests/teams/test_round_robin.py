"""A 2×2 at four tables settled by the negra (art. 26, the event's team rule: pair wins, a tie settled by
the negra), every table played through its súmula (art. 25). The round robin of six teams is the
interclub event's (tests/teams/test_interclub.py)."""
from __future__ import annotations

import pytest

from teams import services
from teams.models import TeamMatch, TeamMatchTable

from tests.teams.helpers import event, play
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401


@pytest.mark.django_db
def test_two_all_at_four_tables_goes_to_the_negra():
    org = f.organizer("org")
    t, (home, away) = event(org, teams=2, pairs=4, slug="quatro", rule="pair_wins")
    team_match = services.create_team_match(t, org, round_number=1, home=home, away=away, first_table=5, best_of=3)
    tables = [row.match for row in team_match.tables.order_by("table")]
    for match, winners in zip(tables, ([0, 0], [1, 1], [0, 1, 0], [1, 0, 1])):
        play(match, winners, org)
    team_match.refresh_from_db()
    assert (team_match.winner_id, team_match.pair_wins_home, team_match.pair_wins_away) == (None, 2, 2)
    negra = TeamMatchTable.objects.get(team_match=team_match, decider=True)
    assert (negra.table, negra.match.table, negra.match.best_of) == (5, 5, 1)
    assert services.describe(team_match) == "Clube 1 2 × 2 Clube 2, 1 table playing"
    play(negra.match, [0], org)
    team_match.refresh_from_db()
    # the negra decides; the pair wins and the games stay those of the four tables (2×2, 5×5)
    assert (team_match.winner_id, team_match.reason, team_match.pair_wins_home, team_match.pair_wins_away,
            team_match.games_home, team_match.games_away) == (home.pk, "decider_won", 2, 2, 5, 5)
    assert TeamMatch.objects.filter(tournament=t).count() == 1
