"""The team pages: the organizer's team event page (teams, rosters, the team matches with their tables,
links and scores, the standings), the public standings, and the captain's line-up page reached by a
token-bearing link that acts for its own team only, the other team's line-up hidden until both are in
(art. 26: the event's team rules)."""
from __future__ import annotations

import pytest
from django.test import Client

from teams import services
from teams.models import LineUp, TeamMatch

from tests.teams.helpers import event, play
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401

pytestmark = pytest.mark.django_db


def client(user=None) -> Client:
    c = Client()  # the site speaks pt-BR
    if user is not None:
        c.force_login(user)
    return c


def test_the_organizer_page_and_the_public_standings():
    org = f.organizer("org")
    t, teams = event(org, teams=3, pairs=2, slug="liga")
    page = client(org).post(f"/equipes/{t.slug}/painel/", {"action": "round_robin", "best_of": 3}, follow=True)
    assert page.status_code == 200 and "Todos contra todos sorteado: 3 confrontos." in page.content.decode()
    first = TeamMatch.objects.filter(tournament=t).order_by("pk").first()
    for row in first.tables.order_by("table"):
        play(row.match, [0, 0], org)
    text = client(org).get(f"/equipes/{t.slug}/painel/").content.decode()
    assert "Clube 1" in text and "Jogador 1.1 / Jogador 1.2" in text  # the teams and their rosters
    assert f"{first.home.name} 2 × 0 {first.away.name}" in text and "/mesa/" in text  # scores, the tables' links
    assert 'data-testid="team-standings"' in text and 'data-testid="best-pairs"' in text
    assert client(f.organizer("outro")).get(f"/equipes/{t.slug}/painel/").status_code == 403
    assert client().get(f"/equipes/{t.slug}/painel/").status_code == 302  # log in first
    public = client().get(f"/equipes/{t.slug}/").content.decode()
    assert 'data-testid="team-standings"' in public and "/mesa/" not in public  # no table link in public


def test_the_captain_link_submits_its_own_team_line_up_only_and_the_other_stays_hidden():
    org = f.organizer("org")
    t, (home, away, third) = event(org, teams=3, pairs=2, slug="liga")
    services.create_round_robin(t, org, best_of=3)
    team_match = TeamMatch.objects.get(tournament=t, home__in=[home, away], away__in=[home, away])
    other_match = TeamMatch.objects.exclude(pk=team_match.pk).exclude(home=home).exclude(away=home).get(tournament=t)
    organizer = client(org)
    for team in (home, away):
        organizer.post(f"/equipes/{t.slug}/painel/", {"action": "captain_link", "team": team.pk})
    home.refresh_from_db()
    away.refresh_from_db()
    assert home.captain_token and away.captain_token and home.captain_token != away.captain_token
    assert home.captain_token in organizer.get(f"/equipes/{t.slug}/painel/").content.decode()

    captain = client()  # no account: the link is the key
    page = captain.get(f"/equipes/capitao/{home.captain_token}/").content.decode()
    assert f'data-testid="captain-match-{team_match.pk}"' in page
    assert f'data-testid="captain-match-{other_match.pk}"' not in page  # a match it does not play: not shown
    home_pairs = list(home.pairs.order_by("-position").values_list("pair_id", flat=True))  # tables swapped
    answer = captain.post(f"/equipes/capitao/{home.captain_token}/",
                          {"team_match": team_match.pk, "table_1": home_pairs[0], "table_2": home_pairs[1]},
                          follow=True)
    assert "Escalação enviada." in answer.content.decode()
    # a match of other teams: refused, nothing written
    answer = captain.post(f"/equipes/capitao/{home.captain_token}/",
                          {"team_match": other_match.pk, "table_1": home_pairs[0], "table_2": home_pairs[1]},
                          follow=True)
    assert "vale só para Clube 1" in answer.content.decode()
    assert not LineUp.objects.filter(team_match=other_match).exists()
    # the other team's pairs are not the link's to give
    away_pairs = list(away.pairs.values_list("pair_id", flat=True))
    captain.post(f"/equipes/capitao/{home.captain_token}/",
                 {"team_match": team_match.pk, "table_1": away_pairs[0], "table_2": away_pairs[1]})
    assert LineUp.objects.get(team_match=team_match, team=home).pairs == home_pairs

    other = client()
    page = other.get(f"/equipes/capitao/{away.captain_token}/").content.decode()
    assert 'data-testid="hidden-line-up"' in page and 'data-testid="their-line-up"' not in page
    away_order = list(away.pairs.order_by("position").values_list("pair_id", flat=True))
    other.post(f"/equipes/capitao/{away.captain_token}/",
               {"team_match": team_match.pk, "table_1": away_order[0], "table_2": away_order[1]})
    page = captain.get(f"/equipes/capitao/{home.captain_token}/").content.decode()
    assert 'data-testid="their-line-up"' in page  # both in: each sees the other's
    tables = {row.table: row.match for row in team_match.tables.all()}
    assert (tables[1].pair_a_id, tables[1].pair_b_id) == (home_pairs[0], away_order[0])
    # a replaced link stops at once
    organizer.post(f"/equipes/{t.slug}/painel/", {"action": "captain_link", "team": home.pk})
    assert client().get(f"/equipes/capitao/{home.captain_token}/").status_code == 404
    assert third.captain_token is None
