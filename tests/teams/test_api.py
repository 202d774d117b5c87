"""The team API: the event's rules, teams, rosters and pairs, the round robin, the team matches with their
score and the standings; writes only by who manages the tournament; a refusal names the field (art. 26)."""
from __future__ import annotations

import pytest

from people.models import Club, Player
from teams.models import TeamMatchTable

from tests.teams.helpers import play
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_round_robin_of_three_teams_through_the_api():
    org = f.organizer("org")
    t = f.tournament(org, slug="liga")
    api = f.api_client(org)
    base = f"/api/teams/{t.slug}/"
    answer = api.put(base + "rules/", {"pairs_per_match": 2, "min_players": 4, "max_players": 5,
                                       "rule": "total_games"}, format="json")
    assert answer.status_code == 200 and answer.json()["rule"] == "total_games"
    answer = api.put(base + "rules/", {"rule": "first_to_k_games"}, format="json")
    assert answer.status_code == 400 and answer.json()["field"] == "games_to_win"
    team_ids = []
    for i in range(1, 4):
        club = Club.objects.create(name=f"Clube {i}")
        answer = api.post(base + "teams/", {"club": club.pk, "name": f"Clube {i}", "seed": i}, format="json")
        assert answer.status_code == 201
        team_id = answer.json()["id"]
        team_ids.append(team_id)
        for j in range(4):
            player = Player.objects.create(name=f"J{i}.{j}")
            assert api.post(base + f"teams/{team_id}/players/", {"player": player.pk},
                            format="json").status_code == 201
        answer = api.post(base + f"teams/{team_id}/pairs/")
        assert answer.status_code == 201 and [p["table"] for p in answer.json()["pairs"]] == [1, 2]
    stranger = f.api_client(f.organizer("outro"))
    assert stranger.post(base + "round-robin/", {}, format="json").status_code == 403
    answer = api.post(base + "round-robin/", {"best_of": 3}, format="json")
    assert answer.status_code == 201
    matches = answer.json()
    assert len(matches) == 3 and all(len(m["tables"]) == 2 for m in matches)
    # every table through its súmula: the home pairs win 2-1 at table 1, the away pairs 2-0 at table 2
    for row in TeamMatchTable.objects.filter(team_match__tournament=t).select_related("match").order_by("pk"):
        play(row.match, [0, 1, 0] if row.table == 1 else [1, 1], org)
    matches = f.api_client().get(base + "matches/").json()
    assert {m["reason"] for m in matches} == {"more_games"}  # 2 games × 3 games: the away team
    assert all(m["winner"] == m["away"] and (m["games_home"], m["games_away"]) == (2, 3) for m in matches)
    assert matches[0]["score"].endswith("2 × 3 " + next(
        f"Clube {i + 1}" for i, pk in enumerate(team_ids) if pk == matches[0]["away"]))
    standings = f.api_client().get(base + "standings/").json()
    # each team won one and lost one, all with the same differences: the seed order stays
    assert [(r["team"], r["match_points"], r["game_difference"]) for r in standings] == [
        (team_ids[0], 2, 0), (team_ids[1], 2, 0), (team_ids[2], 2, 0)]
    assert f.api_client().get(base + "teams/").json()[0]["players"][0]["position"] == 1


def test_the_lists_answer_a_page_when_asked():
    org = f.organizer("org")
    t = f.tournament(org, slug="liga")
    api = f.api_client(org)
    for i in range(3):
        api.post(f"/api/teams/{t.slug}/teams/", {"club": Club.objects.create(name=f"C{i}").pk, "name": f"C{i}"},
                 format="json")
    page = f.api_client().get(f"/api/teams/{t.slug}/teams/?limit=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2
    assert f.api_client().get(f"/api/teams/{t.slug}/standings/?limit=1").json()["count"] == 3
    assert f.api_client().get("/api/teams/nao-existe/teams/").status_code == 404
