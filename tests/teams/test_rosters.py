"""The event's team rules and the rosters (art. 26: teams are the organizer's to rule): limits, one team per
player per event (a database constraint), pairs formed in roster order, and only the tournament's managers
acting on them."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from config.errors import Conflict, Forbidden, ServiceError
from people.models import Club, Player
from teams import services
from teams.models import TeamPair, TeamPlayer

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401


@pytest.fixture
def setup(db):
    org = f.organizer("org")
    t = f.tournament(org)
    services.configure(t, org, pairs_per_match=2, min_players=4, max_players=5)
    club = Club.objects.create(name="Clube Atlético")
    return org, t, club


def test_the_rules_are_checked_naming_the_field(setup):
    org, t, _club = setup
    with pytest.raises(ServiceError) as refused:
        services.configure(t, org, rule="first_to_k_games")
    assert refused.value.field == "games_to_win" and "art. 26" in str(refused.value)
    with pytest.raises(ServiceError) as refused:
        services.configure(t, org, min_players=3)
    assert refused.value.field == "min_players"
    with pytest.raises(ServiceError) as refused:
        services.configure(t, org, rule="best_pair")
    assert refused.value.field == "rule"
    with pytest.raises(ServiceError) as refused:
        services.configure(t, org, colour="red")
    assert refused.value.field == "colour"


def test_only_the_managers_act(setup):
    org, t, club = setup
    stranger = f.organizer("outro")
    with pytest.raises(Forbidden):
        services.create_team(t, stranger, club=club, name="Atlético")
    with pytest.raises(Forbidden):
        services.configure(t, stranger, pairs_per_match=3)
    team = services.create_team(t, org, club=club, name="Atlético")
    with pytest.raises(Forbidden):
        services.add_player(team, stranger, Player.objects.create(name="X"))


def test_a_player_plays_for_one_team_per_event(setup):
    org, t, club = setup
    a = services.create_team(t, org, club=club, name="Atlético A")
    b = services.create_team(t, org, club=club, name="Atlético B")
    player = Player.objects.create(name="Zé")
    services.add_player(a, org, player)
    with pytest.raises(Conflict) as refused:
        services.add_player(b, org, player)
    assert refused.value.field == "player" and "one team per event" in str(refused.value)
    with pytest.raises(IntegrityError), transaction.atomic():  # the database says so too
        TeamPlayer.objects.create(team=b, tournament=t, player=player, position=9)
    other = f.tournament(org, slug="outra")  # another event: free again
    services.configure(other, org, pairs_per_match=2, min_players=4, max_players=5)
    services.add_player(services.create_team(other, org, club=club, name="Atlético"), org, player)


def test_the_roster_limits_and_the_pairs_in_roster_order(setup):
    org, t, club = setup
    team = services.create_team(t, org, club=club, name="Atlético")
    players = [Player.objects.create(name=f"J{i}") for i in range(1, 7)]
    services.add_player(team, org, players[0])
    services.add_player(team, org, players[1], reserve=True)
    services.add_player(team, org, players[2], reserve=True)
    for p in players[3:5]:
        services.add_player(team, org, p)
    with pytest.raises(Conflict) as refused:
        services.form_pairs(team, org)  # five players, two reserves: three starters for two tables
    assert refused.value.field == "roster" and "4 players who are not reserves" in str(refused.value)
    with pytest.raises(Conflict) as refused:
        services.add_player(team, org, players[5])
    assert "at most 5 players" in str(refused.value)
    TeamPlayer.objects.filter(team=team, player__in=players[1:3]).update(reserve=False)
    pairs = services.form_pairs(team, org)
    assert [(p.first_player, p.second_player) for p in pairs] == [(players[0], players[1]), (players[2], players[3])]
    assert [(row.position, row.pair.name) for row in TeamPair.objects.filter(team=team)] == [
        (1, "Atlético 1"), (2, "Atlético 2")]
    with pytest.raises(Conflict):
        services.form_pairs(team, org)


def test_a_team_match_needs_two_teams_of_the_event(setup):
    org, t, club = setup
    team = services.create_team(t, org, club=club, name="Atlético")
    with pytest.raises(ServiceError) as refused:
        services.create_team_match(t, org, round_number=1, home=team, away=team)
    assert refused.value.field == "away"
    other = f.tournament(org, slug="outra")
    foreign = services.create_team(other, org, club=club, name="Visitante")
    with pytest.raises(ServiceError) as refused:
        services.create_team_match(t, org, round_number=1, home=team, away=foreign)
    assert refused.value.field == "away"
    rival = services.create_team(t, org, club=Club.objects.create(name="Rival"), name="Rival")
    with pytest.raises(Conflict) as refused:  # no pairs formed yet
        services.create_team_match(t, org, round_number=1, home=team, away=rival)
    assert "2 tables" in str(refused.value)


def test_the_refusal_in_portuguese(setup):
    from django.utils import translation

    org, t, club = setup
    a = services.create_team(t, org, club=club, name="Atlético A")
    b = services.create_team(t, org, club=club, name="Atlético B")
    player = Player.objects.create(name="Zé")
    services.add_player(a, org, player)
    with translation.override("pt-br"), pytest.raises(Conflict) as refused:
        services.add_player(b, org, player)
    assert refused.value.message == "Zé já joga por uma equipe deste evento: uma equipe por evento (art. 26)."
