"""First team to K games across the tables (art. 26, the event's team rule): a 7-table match to 6 games ends
the moment one team reaches 6, and the súmulas of the tables still open are closed with the reason."""
from __future__ import annotations

import pytest

from config.errors import Conflict
from scoring import services as scoring
from scoring.models import MatchEvent
from teams import services
from teams.models import TeamMatch

from tests.teams.helpers import event, games, play
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401


@pytest.mark.django_db
def test_first_to_six_ends_at_once_and_closes_the_other_tables():
    org = f.organizer("org")
    t, (home, away) = event(org, teams=2, pairs=7, rule="first_to_k_games", games_to_win=6)
    team_match = services.create_team_match(t, org, round_number=1, home=home, away=away, first_table=1, best_of=3)
    tables = {row.table: row.match for row in team_match.tables.all()}
    assert len(tables) == 7 and [m.table for _n, m in sorted(tables.items())] == [1, 2, 3, 4, 5, 6, 7]
    games(tables[4], [1], org)  # table 4 is playing: the away pair won a game so far
    play(tables[1], [0, 0], org)
    play(tables[2], [1, 0, 0], org)
    team_match.refresh_from_db()
    assert (team_match.winner_id, team_match.games_home, team_match.games_away) == (None, 4, 2)
    assert services.describe(team_match) == "Clube 1 4 × 2 Clube 2, 5 tables playing"
    play(tables[3], [0, 0], org)  # the home team reaches 6 games
    team_match.refresh_from_db()
    assert (team_match.winner_id, team_match.reason, team_match.games_home, team_match.games_away) == (
        home.pk, "reached_k", 6, 2)
    closed = {row.table for row in team_match.tables.filter(closed_at__isnull=False)}
    assert closed == {4, 5, 6, 7}
    for number in (4, 5, 6, 7):
        event_row = MatchEvent.objects.get(match=tables[number], kind=MatchEvent.Kind.CLOSED)
        assert event_row.data["cause"] == "team_decided"
        assert "reached 6 games (6 × 2)" in event_row.data["reason"] and "art. 26" in event_row.data["reason"]
    with pytest.raises(Conflict) as refused:
        scoring.record_hand(tables[4], {"winner": 0, "ended_by": "tricks", "value": 1}, org)
    assert "team match was decided" in str(refused.value) and "art. 26" in str(refused.value)
    assert services.describe(team_match) == "Clube 1 6 × 2 Clube 2"
    assert TeamMatch.objects.get(pk=team_match.pk).decided_at is not None
