"""Ratings kept in step by the event (seasons/services/ratings.py): after any sequence of new
results, corrections, undos, walkovers, date changes, players replaced and method changes, the
history brought up to date step by step is exactly the one computed from scratch. Each change is
marked as its service marks it (``ratings.mark_changed``) and the sync compares the marked
matches only; a change no service marks (a player merged, a data fix) is found by the full
comparison (``sync_ratings(full=True)``, the periodic check)."""
from __future__ import annotations

import datetime
import io
import itertools

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import Pair, Player, Result, Round, Stage
from seasons.models import RatedResult, RatingChange, RatingEntry, RatingSync
from draw.pairing.ratings import compute
from seasons.services import ratings

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
result_args = (match_st, st.integers(0, 1), st.integers(0, 11), st.booleans(), st.booleans())
result_st = st.tuples(st.just("result"), *result_args)
steps = st.lists(st.one_of(
    result_st, result_st, st.tuples(st.just("sync")), st.tuples(st.just("sync")),
    st.tuples(st.just("undo"), match_st),
    st.tuples(st.just("walkover"), match_st, st.integers(0, 1)),
    st.tuples(st.just("date"), st.integers(0, 2), st.integers(-4, 2)),
    st.tuples(st.just("player"), match_st, st.integers(0, 7)),
    st.tuples(st.just("method"), st.sampled_from(["match", "margin", "hands"])),
    st.tuples(st.just("fix"), *result_args),  # a result written without its service (a data fix)
    st.tuples(st.just("check")),
), max_size=30)


def apply(step, players, matches, state) -> bool:
    """The step done, and marked as its service marks it; False: a change no service marks (a
    player merged, a data fix), which only the full comparison finds."""
    kind, *args = step
    if kind in ("result", "undo", "walkover"):  # through results_changed: the match marked
        ratings.mark_changed([matches[args[0]].pk])
    if kind in ("result", "fix"):  # a new result, or a correction of the one there (art. 26)
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
    elif kind == "date":  # through update_tournament: the tournament marked
        t = matches[6 * args[0]].tournament
        t.date = DAY + datetime.timedelta(days=args[1])
        t.save(update_fields=["date"])
        ratings.mark_changed(tournaments=[t.pk])
    elif kind == "player":  # a pair's player replaced (two records merged into one person)
        pair = Pair.objects.get(pk=matches[args[0]].pair_a_id)
        taken = Pair.objects.filter(tournament=pair.tournament_id).values_list("first_player", "second_player")
        if players[args[1]].pk not in {p for both in taken for p in both}:  # one pair each in a tournament
            pair.first_player = players[args[1]]
            pair.save(update_fields=["first_player"])
    return kind not in ("player", "fix")


def stored():
    return list(RatingEntry.objects.order_by("sequence", "player_id")
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
        method, versions, unmarked = "match", {}, False
        for step in steps:
            if step[0] == "method":
                method = step[1]
            elif step[0] == "sync":
                ratings.sync_ratings(method)
            elif step[0] == "check":
                ratings.sync_ratings(method, full=True)
                unmarked = False
            else:
                unmarked |= not apply(step, players, matches, versions)
        ratings.sync_ratings(method)
        if not unmarked:  # every change marked: the marked matches were enough
            assert stored() == from_scratch(method)
            assert ratings.sync_ratings(method, full=True) == 0
        ratings.sync_ratings(method, full=True)  # the periodic check finds what no service marked
        assert stored() == from_scratch(method)
        assert not RatingChange.objects.exists()
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
    assert ratings.sync_ratings("match") == 0  # no service deletes rated matches: nothing marked
    assert ratings.sync_ratings("match", full=True) == 2  # the periodic check rates from the hole
    assert stored() == from_scratch("match")



def test_only_the_marked_matches_are_compared_and_the_full_check_finds_the_rest(site):
    players, matches = site
    for index in (0, 1, 6):
        apply(("result", index, 0, 5, False, False), players, matches, {})
    assert ratings.sync_ratings("match") == 3
    assert not RatingChange.objects.exists()  # the marks read are gone with the sync
    apply(("fix", 0, 1, 5, False, False), players, matches, {})  # the first match's winner changed in place
    assert ratings.sync_ratings("match") == 0  # not marked: not compared
    assert stored() != from_scratch("match")
    out = io.StringIO()
    call_command("sync_ratings", "--full", stdout=out)  # the periodic check (seasons.check_ratings)
    assert out.getvalue().startswith("rated: ") and out.getvalue().strip() != "rated: 0"
    assert stored() == from_scratch("match")
    assert RatingSync.objects.get().checked_at is not None


def test_a_mark_left_by_a_lost_task_is_taken_by_the_next_sync(site):
    players, matches = site
    with transaction.atomic():
        apply(("result", 6, 0, 5, False, False), players, matches, {})  # committed; its task never ran
    apply(("result", 7, 1, 5, False, False), players, matches, {})
    assert RatingChange.objects.count() == 2
    assert ratings.sync_ratings("match") == 2
    assert stored() == from_scratch("match")


def test_a_changed_date_marks_the_tournament_and_moves_its_matches(site):
    players, matches = site
    org = matches[0].tournament.organizer
    for index in (0, 6, 12):
        apply(("result", index, 0, 5, False, False), players, matches, {})
    ratings.sync_ratings("match")
    earliest = matches[12].tournament
    services.update_tournament(earliest, org, date=DAY + datetime.timedelta(days=9))  # now the last
    assert RatingChange.objects.filter(tournament=earliest.pk).exists()
    assert ratings.sync_ratings("match") == 3  # it was first: everything rated again in the new order
    assert stored() == from_scratch("match")
    assert RatedResult.objects.order_by("sequence").last().match_id == matches[12].pk


def test_a_merge_and_its_undoing_rate_the_moved_matches_again_without_the_full_check(
        site, django_capture_on_commit_callbacks):
    """A merge repoints the duplicate's pairs to the kept person: their matches are marked and the sync
    is queued after the commit (docs/ratings.md), so the history equals one computed from nothing."""
    from tournaments import players as identities

    players, matches = site
    for index in (0, 6, 12):
        apply(("result", index, 0, 5, False, False), players, matches, {})
    apply(("walkover", 8, 0), players, matches, {})  # the duplicate's pair against player 0's: decided, not live
    ratings.sync_ratings("match")
    org = matches[0].tournament.organizer
    duplicate = Player.objects.create(name="Player 0 again")
    pair = matches[6].pair_a
    pair.first_player = duplicate
    pair.save(update_fields=["first_player"])
    ratings.sync_ratings("match", full=True)
    assert stored() == from_scratch("match")
    with django_capture_on_commit_callbacks() as queued:
        merge = identities.merge_players(players[0], duplicate, by=org, reason="same person")
    assert RatingChange.objects.filter(match=matches[6].pk).exists() and ratings.queue_sync in queued
    assert ratings.sync_ratings("match") > 0  # the marked matches only: no full check
    assert stored() == from_scratch("match")
    with django_capture_on_commit_callbacks() as queued:
        identities.unmerge(merge, by=org)
    assert ratings.queue_sync in queued and ratings.sync_ratings("match") > 0
    assert stored() == from_scratch("match")
