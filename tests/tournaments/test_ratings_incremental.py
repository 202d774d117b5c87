"""Ratings kept in step by the event (tournaments/services/ratings.py): after any sequence of new
results, corrections, undos, walkovers, date changes, players replaced and method changes, the
history brought up to date step by step is exactly the one computed from scratch."""
from __future__ import annotations

import datetime
import itertools

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Match
from tests.tournaments import factories as f
from tournaments.models import Pair, Player, RatingEntry, Result, Round, Stage
from tournaments.models.circuits import RatedResult
from tournaments.pairing.ratings import compute
from tournaments.services import ratings

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 5, 1)


@pytest.fixture
def site():
    """Three tournaments (two on one day, one earlier), 8 players in changing pairs, 18 matches
    without results: some in stages and rounds, some at tables, some at neither."""
    org = f.user("org")
    players = [Player.objects.create(name=f"Player {i}") for i in range(8)]
    matches = []
    for n, day in enumerate((DAY, DAY, DAY - datetime.timedelta(days=3))):
        t = f.tournament(org, slug=f"copa-{n}", date=day)
        stage = Stage.objects.create(tournament=t, position=1, format=Stage.Format.ROUND_ROBIN)
        pairs = [Pair.objects.create(tournament=t, name=f"P{i}", first_player=players[(2 * i + n) % 8],
                                     second_player=players[(2 * i + n + 1) % 8]) for i in range(4)]
        for number, (a, b) in enumerate(itertools.combinations(pairs, 2)):
            rnd = Round.objects.create(tournament=t, number=number + 1, stage=stage if number % 3 else None)
            matches.append(Match.objects.create(tournament=t, round=rnd if number != 5 else None,
                                                table=None if number == 4 else number % 2 + 1,
                                                pair_a=a, pair_b=b, rule_set={}))
    return players, matches


match_st = st.integers(0, 17) | st.sampled_from([0, 1, 6, 7, 12])  # some matches more often: changes
result_st = st.tuples(st.just("result"), match_st, st.integers(0, 1), st.integers(0, 11), st.booleans(),
                      st.booleans())
steps = st.lists(st.one_of(
    result_st, result_st, st.tuples(st.just("sync")), st.tuples(st.just("sync")),
    st.tuples(st.just("undo"), match_st),
    st.tuples(st.just("walkover"), match_st, st.integers(0, 1)),
    st.tuples(st.just("date"), st.integers(0, 2), st.integers(-4, 2)),
    st.tuples(st.just("player"), match_st, st.integers(0, 7)),
    st.tuples(st.just("method"), st.sampled_from(["match", "margin", "hands"])),
), max_size=30)


def apply(step, players, matches, state) -> None:
    kind, *args = step
    if kind == "result":  # a new result, or a correction of the one there (art. 26)
        index, side, loser_points, by_sumula, swapped = args
        m = matches[index]
        a, b = (m.pair_b, m.pair_a) if swapped else (m.pair_a, m.pair_b)
        winner = a if side == 0 else b
        Result.objects.update_or_create(match=m, defaults=dict(
            tournament=m.tournament, kind=Result.Kind.SUMULA if by_sumula else Result.Kind.MANUAL,
            pair_a=a, pair_b=b, winner=winner, absent=None, games_a=int(side == 0), games_b=int(side == 1),
            points_a=12 if side == 0 else loser_points, points_b=12 if side == 1 else loser_points,
            sumula_version=(state.setdefault(index, 0) + 1) if by_sumula else None, reason="test"))
        state[index] = state.get(index, 0) + 1
    elif kind == "undo":
        Result.objects.filter(match=matches[args[0]]).delete()
    elif kind == "walkover":  # a walkover does not rate (art. 25-26)
        m = matches[args[0]]
        absent, winner = (m.pair_a, m.pair_b) if args[1] else (m.pair_b, m.pair_a)
        Result.objects.update_or_create(match=m, defaults=dict(
            tournament=m.tournament, kind=Result.Kind.WALKOVER, pair_a=m.pair_a, pair_b=m.pair_b, winner=winner,
            absent=absent, games_a=int(winner == m.pair_a), games_b=int(winner == m.pair_b), points_a=0,
            points_b=0, sumula_version=None, reason="W.O."))
    elif kind == "date":
        t = matches[6 * args[0]].tournament
        t.date = DAY + datetime.timedelta(days=args[1])
        t.save(update_fields=["date"])
    elif kind == "player":  # a pair's player replaced (two records merged into one person)
        pair = Pair.objects.get(pk=matches[args[0]].pair_a_id)
        taken = Pair.objects.filter(tournament=pair.tournament_id).values_list("first_player", "second_player")
        if players[args[1]].pk not in {p for both in taken for p in both}:  # one pair each in a tournament
            pair.first_player = players[args[1]]
            pair.save(update_fields=["first_player"])


def stored():
    return list(RatingEntry.objects.order_by("sequence", "player")
                .values_list("sequence", "match_id", "player_id", "mu", "sigma", "method"))


def from_scratch(method):
    matches, _ = ratings.official_matches(method)
    return sorted((c.sequence, c.match_id, c.player, c.after.mu, c.after.sigma, method)
                  for c in compute(matches, method).history)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps)
def test_step_by_step_equals_from_scratch(site, steps):
    players, matches = site
    with transaction.atomic():
        method, versions = "match", {}
        for step in steps:
            if step[0] == "method":
                method = step[1]
            elif step[0] == "sync":
                ratings.sync_ratings(method)
            else:
                apply(step, players, matches, versions)
        ratings.sync_ratings(method)
        assert stored() == from_scratch(method)
        assert list(RatedResult.objects.values_list("sequence", flat=True)) == list(
            range(1, RatedResult.objects.count() + 1))
        assert ratings.sync_ratings(method) == 0  # in step: nothing to rate
        transaction.set_rollback(True)


def test_a_new_result_rates_that_match_only_and_an_older_one_from_its_place(site):
    players, matches = site
    for index in (0, 1, 6):
        apply(("result", index, 0, 5, False, False), players, matches, {})
    assert ratings.sync_ratings("match") == 3
    apply(("result", 7, 1, 3, False, False), players, matches, {})
    assert ratings.sync_ratings("match") == 1  # the last in the order: one match rated
    apply(("result", 12, 1, 3, False, False), players, matches, {})  # the earlier tournament
    assert ratings.sync_ratings("match") == 5  # placed first: everything after it rated again
    assert stored() == from_scratch("match")
    apply(("undo", 7), players, matches, {})  # the last one undone: nothing to rate, its rows gone
    assert ratings.sync_ratings("match") == 0
    assert not RatingEntry.objects.filter(match=matches[7]).exists()
    assert stored() == from_scratch("match")


def test_a_deleted_tournament_leaves_no_hole(site):
    players, matches = site
    for index in (0, 6, 12):
        apply(("result", index, 0, 5, False, False), players, matches, {})
    ratings.sync_ratings("match")
    t = matches[12].tournament  # the earliest: first in the order
    Result.objects.filter(tournament=t).delete()
    Match.objects.filter(tournament=t).delete()  # its rows go with its matches
    assert ratings.sync_ratings("match") == 2
    assert stored() == from_scratch("match")

