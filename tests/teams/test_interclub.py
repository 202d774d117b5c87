"""An interclub event end to end, through the API (art. 26: the event's team rules, docs/teams.md): six
teams of three pairs in a round robin (rule pair wins; a 1×1 with a double W.O. settled by the negra),
then the top four in a knockout with a 3rd-place match, the final played through the table links (hands,
the players' PINs, the organizer's receipt, art. 25). The team standings, the best pairs and the final
places are checked against a computation written here. Most tables take the organizer's result (art. 26)
to stay fast; every table is still an ordinary match whose result the team follows."""
from __future__ import annotations

import itertools
import random
import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from draw.models import Match
from people.models import Club, Player
from tables.links import ensure_links
from teams.models import TeamMatchTable

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401

PIN = "2468"
OUTCOMES = ([0, 0], [1, 1], [0, 1, 0], [1, 0, 1], [0, 1, 1], [1, 0, 0])


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def expected_standings(teams, decided):
    """``decided``: (home, away, winner, (pair wins), (games)). Two points a win; then pair-win
    difference, game difference; two teams tied on all three: the one that beat the other first."""
    table = {team: [0, 0, 0] for team in teams}
    for home, away, winner, wins, games in decided:
        table[winner][0] += 2
        for side, team in ((0, home), (1, away)):
            table[team][1] += wins[side] - wins[1 - side]
            table[team][2] += games[side] - games[1 - side]
    order = sorted(teams, key=lambda t: [-v for v in table[t]])
    for _key, group in itertools.groupby(list(order), key=lambda t: table[t]):
        group = list(group)
        assert len(group) <= 2, "this computation settles two-team ties only: pick another seed"
        if len(group) == 2:
            winner = next(w for h, a, w, _p, _g in decided if {h, a} == set(group))
            if winner == group[1]:
                i = order.index(group[0])
                order[i], order[i + 1] = order[i + 1], order[i]
    return order, table


class Event:
    """The event as the test drives it: the organizer's API client and what each pair did (for the
    best-pair computation: won, tento difference, game difference, played)."""

    def __init__(self, org, slug):
        self.org, self.slug = org, slug
        self.api = f.api_client(org)
        self.base = f"/api/teams/{slug}/"
        self.pairs: dict[int, list[int]] = {}

    def record(self, pair_a, pair_b, winner, games, points):
        for side, pair in enumerate((pair_a, pair_b)):
            row = self.pairs.setdefault(pair, [0, 0, 0, 0])
            row[0] += winner == pair
            row[1] += points[side] - points[1 - side]
            row[2] += games[side] - games[1 - side]
            row[3] += 1

    def set_result(self, match, winners, rng):
        """The organizer's result of ``match``: ``winners`` the side of each game, the loser's tentos at random."""
        points = [0, 0]
        for side in winners:
            points[side] += 12
            points[1 - side] += rng.randint(0, 11)
        games = [winners.count(0), winners.count(1)]
        winner = match.pair_a_id if games[0] > games[1] else match.pair_b_id
        answer = self.api.post(f"/api/tournaments/{self.slug}/matches/{match.pk}/result/",
                               {"winner": winner, "games": games, "points": points, "reason": "Súmula conferida"},
                               format="json")
        assert answer.status_code == 200, answer.json()
        self.record(match.pair_a_id, match.pair_b_id, winner, games, points)
        return 0 if winner == match.pair_a_id else 1, games

    def play_by_link(self, match, winners):
        """``match`` played from its table link alone: one 12-tento hand per game, both pairs sign with
        their PINs, the organizer receives it (art. 25)."""
        token = ensure_links([match])[match.pk].token
        assert Client().get(f"/mesa/{token}/").status_code == 200  # the table page opens with no login
        table = APIClient()
        table.credentials(HTTP_AUTHORIZATION="Table " + token)
        state = Client().get(f"/mesa/{token}/estado/").json()["state"]
        for side in winners:
            answer = table.post(f"/api/scoring/matches/{match.pk}/hands/",
                                {"winner": side, "ended_by": "tricks", "value": 12, "game": state["game"],
                                 "hand": state["hand"]}, format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
            assert answer.status_code == 201, answer.json()
            state = answer.json()["state"]
        assert state["over"]
        digest = answer.json()["match"]["current_version"]["digest"]
        for role, pair in (("team0", match.pair_a), ("team1", match.pair_b)):
            answer = table.post(f"/api/scoring/matches/{match.pk}/signatures/",
                                {"role": role, "player": pair.first_player_id, "pin": PIN, "digest": digest},
                                format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
            assert answer.status_code == 201, answer.json()
        assert self.api.post(f"/api/scoring/matches/{match.pk}/received/").status_code == 200
        games = [winners.count(0), winners.count(1)]
        winner = match.pair_a_id if games[0] > games[1] else match.pair_b_id
        self.record(match.pair_a_id, match.pair_b_id, winner, games, [12 * games[0], 12 * games[1]])
        return 0 if winner == match.pair_a_id else 1, games

    def play_team_match(self, team_match, plan, rng, *, by_link=False):
        """Each table by ``plan`` (None: a double W.O.), the negra (won by the away pair) when a tie needs it;
        the team match's (winner, pair wins, games) as the test computes them."""
        tables = [row.match for row in TeamMatchTable.objects.filter(team_match_id=team_match["id"], decider=False)
                  .select_related("match__pair_a", "match__pair_b").order_by("table")]
        wins, games = [0, 0], [0, 0]
        for match, winners in zip(tables, plan):
            if winners is None:
                answer = self.api.post(f"/api/tournaments/{self.slug}/matches/{match.pk}/double-walkover/",
                                       {"reason": "Nenhuma dupla compareceu"}, format="json")
                assert answer.status_code == 200, answer.json()
                self.record(match.pair_a_id, match.pair_b_id, None, (0, 0), (0, 0))
                continue
            side, match_games = self.play_by_link(match, winners) if by_link else self.set_result(match, winners, rng)
            wins[side] += 1
            games = [games[0] + match_games[0], games[1] + match_games[1]]
        home, away = team_match["home"], team_match["away"]
        if wins[0] != wins[1]:
            return (home if wins[0] > wins[1] else away), tuple(wins), tuple(games)
        now = self.team_match(team_match["id"])
        assert now["winner"] is None and now["reason"] == "tie_needs_decider"
        negra = next(t for t in now["tables"] if t["decider"])
        assert (negra["pair_a"], negra["pair_b"], negra["physical_table"]) == (
            tables[0].pair_a_id, tables[0].pair_b_id, tables[0].table)
        match = Match.objects.get(pk=negra["match"])
        assert match.best_of == 1
        answer = self.api.post(f"/api/tournaments/{self.slug}/matches/{match.pk}/result/",
                               {"winner": match.pair_b_id, "games": [0, 1], "points": [7, 12], "reason": "Negra"},
                               format="json")
        assert answer.status_code == 200, answer.json()  # the negra: not in the pair ranking, nor the differences
        assert self.team_match(team_match["id"])["reason"] == "decider_won"
        return away, tuple(wins), tuple(games)

    def team_match(self, pk):
        return next(m for m in self.api.get(self.base + "matches/?limit=200").json()["results"] if m["id"] == pk)


def build(event: Event, teams: int, players: int) -> list[int]:
    answer = event.api.put(event.base + "rules/", {"pairs_per_match": 3, "min_players": 6, "max_players": 8,
                                                   "rule": "pair_wins"}, format="json")
    assert answer.status_code == 200
    ids = []
    for i in range(1, teams + 1):
        club = Club.objects.create(name=f"Clube {i}")
        answer = event.api.post(event.base + "teams/", {"club": club.pk, "name": f"Clube {i}", "seed": i},
                                format="json")
        assert answer.status_code == 201
        ids.append(answer.json()["id"])
        for j in range(1, players + 1):
            player = Player.objects.create(name=f"Jogador {i}.{j}", club=club)
            player.set_pin(PIN)
            player.save(update_fields=["pin_hash"])
            assert event.api.post(event.base + f"teams/{ids[-1]}/players/", {"player": player.pk},
                                  format="json").status_code == 201
        assert event.api.post(event.base + f"teams/{ids[-1]}/pairs/").status_code == 201
    return ids


@pytest.mark.django_db
def test_six_teams_round_robin_then_a_knockout_with_third_place():
    org = f.organizer("org")
    t = f.tournament(org, slug="interclubes")
    event = Event(org, t.slug)
    teams = build(event, 6, 6)
    answer = event.api.post(event.base + "round-robin/", {"best_of": 3}, format="json")
    assert answer.status_code == 201
    matches = answer.json()
    assert len(matches) == 15 and {m["round_number"] for m in matches} == {1, 2, 3, 4, 5}
    for a, b in itertools.combinations(teams, 2):  # every team meets every other once
        assert sum({m["home"], m["away"]} == {a, b} for m in matches) == 1
    for number in range(1, 6):  # each round's team matches on blocks of physical tables 1-3, 4-6, 7-9
        assert sorted(t["physical_table"] for m in matches if m["round_number"] == number for t in m["tables"]) \
            == list(range(1, 10))
    rng = random.Random(11)
    decided = []
    for number, team_match in enumerate(matches):
        plan = [rng.choice(OUTCOMES) for _ in range(3)]
        if number == 0:  # a tie: one table each, the third a double W.O. (1×1): the negra decides
            plan = [[0, 0], [1, 0, 1], None]
        winner, wins, games = event.play_team_match(team_match, plan, rng)
        decided.append((team_match["home"], team_match["away"], winner, wins, games))
    played = {m["id"]: m for m in event.api.get(event.base + "matches/?limit=200").json()["results"]}
    for team_match, (_h, _a, winner, wins, games) in zip(matches, decided):
        row = played[team_match["id"]]
        assert (row["winner"], row["pair_wins_home"], row["pair_wins_away"], row["games_home"],
                row["games_away"]) == (winner, *wins, *games)
    negras = sum(1 for m in played.values() for table in m["tables"] if table["decider"])
    assert negras >= 1 and Match.objects.filter(tournament=t).count() == 45 + negras

    order, table = expected_standings(teams, decided)
    standings = f.api_client().get(event.base + "standings/").json()
    assert [r["team"] for r in standings] == order
    assert [(r["match_points"], r["pair_win_difference"], r["game_difference"]) for r in standings] == [
        tuple(table[team]) for team in order]

    # the knockout: the round robin must be over (it is); semifinals 1st × 4th, 2nd × 3rd
    assert f.api_client(f.organizer("outro")).post(event.base + "knockout/", {}, format="json").status_code == 403
    semis = event.api.post(event.base + "knockout/", {"best_of": 3}, format="json").json()
    assert [(m["stage"], m["home"], m["away"], m["round_number"]) for m in semis] == [
        ("semifinal", order[0], order[3], 6), ("semifinal", order[1], order[2], 6)]
    assert event.api.post(event.base + "knockout/", {}, format="json").status_code == 409  # semis still playing
    semi_winners = []
    for team_match in semis:
        winner, _wins, _games = event.play_team_match(team_match, [rng.choice(OUTCOMES) for _ in range(3)], rng)
        semi_winners.append(winner)
    finals = event.api.post(event.base + "knockout/", {"best_of": 3}, format="json").json()
    losers = [m["away"] if w == m["home"] else m["home"] for m, w in zip(semis, semi_winners)]
    assert [(m["stage"], m["home"], m["away"], m["round_number"]) for m in finals] == [
        ("final", *semi_winners, 7), ("third_place", *losers, 7)]
    assert f.api_client().get(event.base + "places/").json() == []  # not decided yet
    champion, _wins, _games = event.play_team_match(finals[0], [[0, 0], [1, 1], [0, 1, 0]], rng, by_link=True)
    third, _wins, _games = event.play_team_match(finals[1], [rng.choice(OUTCOMES) for _ in range(3)], rng)
    final_match = event.team_match(finals[0]["id"])
    assert final_match["winner"] == champion == finals[0]["home"] and final_match["reason"] == "more_pair_wins"
    assert event.api.post(event.base + "knockout/", {}, format="json").status_code == 409  # nothing left to draw

    runner_up = finals[0]["away"]
    fourth = finals[1]["away"] if third == finals[1]["home"] else finals[1]["home"]
    expected_places = [champion, runner_up, third, fourth] + order[4:]
    places = f.api_client().get(event.base + "places/").json()
    assert [(p["place"], p["team"]) for p in places] == list(enumerate(expected_places, start=1))
    # the round-robin standings stay those of the round robin (the knockout gives the places)
    assert [r["team"] for r in f.api_client().get(event.base + "standings/").json()] == order

    # the best pairs: wins, then tento difference, then game difference, then fewer appearances, then
    # team seed and table (the negras apart)
    roster = [(p["pair"], i, p["table"]) for i, team in enumerate(f.api_client().get(event.base + "teams/").json())
              for p in team["pairs"]]
    assert len(roster) == 18
    expected = sorted(roster, key=lambda r: (-event.pairs[r[0]][0], -event.pairs[r[0]][1], -event.pairs[r[0]][2],
                                             event.pairs[r[0]][3], r[1], r[2]))
    ranking = f.api_client().get(event.base + "pair-ranking/").json()
    assert [r["pair"] for r in ranking] == [r[0] for r in expected]
    assert [(r["won"], r["point_difference"], r["game_difference"], r["played"]) for r in ranking] == [
        tuple(event.pairs[r[0]]) for r in expected]
    assert sum(r["played"] for r in ranking) == 2 * (45 + 12)
