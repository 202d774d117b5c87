"""The captains' line-ups (art. 26, the event's team rule): hidden from the other captain until both are in,
then the tables are set from them; only the team's captain (or an organizer) submits, pairs of its own
team, one per table; no change once both are in or once a table has started."""
from __future__ import annotations

import pytest

from config.errors import Conflict, Forbidden, ServiceError
from teams import services
from teams.models import TeamPair

from tests.teams.helpers import event, games
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401


@pytest.fixture
def match_of_two(db):
    org = f.organizer("org")
    t, (home, away) = event(org, teams=2, pairs=3)
    home_captain, away_captain = f.user("capitao-a"), f.user("capitao-b")
    services.set_captain(home, org, home_captain)
    services.set_captain(away, org, away_captain)
    team_match = services.create_team_match(t, org, round_number=1, home=home, away=away, first_table=1)
    pairs = {team.pk: list(TeamPair.objects.filter(team=team).order_by("position").values_list("pair_id", flat=True))
             for team in (home, away)}
    return org, team_match, home, away, home_captain, away_captain, pairs


def test_a_line_up_stays_hidden_until_both_are_in(match_of_two):
    org, team_match, home, away, home_captain, away_captain, pairs = match_of_two
    home_order = [pairs[home.pk][2], pairs[home.pk][0], pairs[home.pk][1]]
    services.submit_line_up(team_match, home, home_captain, home_order)
    assert services.line_ups_for(team_match, home_captain) == {home.pk: home_order, away.pk: None}
    assert services.line_ups_for(team_match, away_captain) == {home.pk: None, away.pk: None}
    assert services.line_ups_for(team_match, org) == {home.pk: None, away.pk: None}
    # still alone: the home captain may change it; the tables keep the roster order meanwhile
    home_order = [pairs[home.pk][1], pairs[home.pk][2], pairs[home.pk][0]]
    services.submit_line_up(team_match, home, home_captain, home_order)
    tables = [row.match for row in team_match.tables.order_by("table")]
    assert [m.pair_a_id for m in tables] == pairs[home.pk]
    away_order = list(reversed(pairs[away.pk]))
    services.submit_line_up(team_match, away, away_captain, away_order)
    seen = {home.pk: home_order, away.pk: away_order}
    assert services.line_ups_for(team_match, away_captain) == seen == services.line_ups_for(team_match, None)
    tables = [row.match for row in team_match.tables.order_by("table")]
    for match in tables:
        match.refresh_from_db()
    assert [(m.pair_a_id, m.pair_b_id) for m in tables] == list(zip(home_order, away_order))
    with pytest.raises(Conflict) as refused:
        services.submit_line_up(team_match, home, home_captain, pairs[home.pk])
    assert refused.value.field == "pairs"


def test_who_submits_and_what(match_of_two):
    org, team_match, home, away, home_captain, away_captain, pairs = match_of_two
    with pytest.raises(Forbidden):
        services.submit_line_up(team_match, home, away_captain, pairs[home.pk])
    with pytest.raises(ServiceError) as refused:
        services.submit_line_up(team_match, home, home_captain, pairs[away.pk])  # the other team's pairs
    assert refused.value.field == "pairs" and "art. 26" in refused.value.message
    with pytest.raises(ServiceError):
        services.submit_line_up(team_match, home, home_captain, pairs[home.pk][:2])
    with pytest.raises(ServiceError):
        services.submit_line_up(team_match, home, home_captain, [pairs[home.pk][0]] * 3)
    services.submit_line_up(team_match, home, org, pairs[home.pk])  # an organizer may submit for a team


def test_no_change_once_a_table_started(match_of_two):
    org, team_match, home, away, home_captain, away_captain, pairs = match_of_two
    games(team_match.tables.get(table=2).match, [0], org)
    with pytest.raises(Conflict) as refused:
        services.submit_line_up(team_match, home, home_captain, pairs[home.pk])
    assert "started" in refused.value.message
