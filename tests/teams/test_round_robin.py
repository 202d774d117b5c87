"""A round robin of six teams of three pairs (art. 26, the event's team rule: pair wins, a tie settled by
the negra), every table played through its súmula (art. 25); the team results and standings are checked
against a computation written here. And a 2×2 at four tables settled by the negra."""
from __future__ import annotations

import itertools
import random

import pytest

from draw.models import Match
from teams import services
from teams.models import TeamMatch, TeamMatchTable
from tournaments import services as tournament_services

from tests.teams.helpers import event, play
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401

OUTCOMES = ([0, 0], [1, 1], [0, 1, 0], [1, 0, 1], [0, 1, 1], [1, 0, 0])


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


@pytest.mark.django_db
def test_a_round_robin_of_six_teams_with_a_negra():
    org = f.organizer("org")
    t, teams = event(org, teams=6, pairs=3, rule="pair_wins")
    team_matches = services.create_round_robin(t, org, best_of=3)
    assert len(team_matches) == 15 and {m.round_number for m in team_matches} == {1, 2, 3, 4, 5}
    for a, b in itertools.combinations(teams, 2):  # every team meets every other once
        assert sum({m.home_id, m.away_id} == {a.pk, b.pk} for m in team_matches) == 1
    for number in range(1, 6):  # each round's team matches on blocks of physical tables 1-3, 4-6, 7-9
        assert sorted(Match.objects.filter(round__tournament=t, round__number=number).values_list("table", flat=True)) \
            == list(range(1, 10))
    rng = random.Random(11)
    decided = []
    negras = 0
    for number, team_match in enumerate(team_matches):
        tables = [row.match for row in TeamMatchTable.objects.filter(team_match=team_match).order_by("table")]
        plan = [rng.choice(OUTCOMES) for _ in tables]
        if number == 0:  # a tie: one table each, the third a double W.O. (1×1): the negra decides
            plan = [[0, 0], [1, 0, 1], None]
        wins, games = [0, 0], [0, 0]
        for match, winners in zip(tables, plan):
            if winners is None:
                tournament_services.record_double_walkover(match, org, reason="Nenhuma dupla compareceu")
                continue
            play(match, winners, org)
            side = 0 if winners.count(0) == 2 else 1
            wins[side] += 1
            games[0] += winners.count(0)
            games[1] += winners.count(1)
        team_match.refresh_from_db()
        if wins[0] == wins[1]:
            assert team_match.winner_id is None and team_match.reason == "tie_needs_decider"
            negra = TeamMatchTable.objects.get(team_match=team_match, decider=True)
            assert (negra.match.best_of, negra.match.pair_a_id, negra.match.pair_b_id) == (
                1, tables[0].pair_a_id, tables[0].pair_b_id)
            play(negra.match, [1], org)  # the away pair wins the negra
            negras += 1
            winner = team_match.away_id
            team_match.refresh_from_db()
            assert team_match.reason == "decider_won"
        else:
            winner = team_match.home_id if wins[0] > wins[1] else team_match.away_id
        assert (team_match.winner_id, team_match.pair_wins_home, team_match.pair_wins_away,
                team_match.games_home, team_match.games_away) == (winner, *wins, *games)
        decided.append((team_match.home_id, team_match.away_id, winner, tuple(wins), tuple(games)))
    assert negras >= 1
    assert Match.objects.filter(tournament=t).count() == 45 + negras
    order, table = expected_standings([team.pk for team in teams], decided)
    rows = services.standings(t)
    assert [row.team for row in rows] == order
    assert [(row.match_points, row.pair_win_difference, row.game_difference) for row in rows] == [
        tuple(table[team]) for team in order]
    assert sum(row.match_points for row in rows) == 2 * 15


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
