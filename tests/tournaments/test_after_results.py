"""What follows a decision on a match (``tournaments.services.after_results``): every way a match is
decided or taken back (a súmula received, art. 25; a result set by hand, art. 26; a W.O., single or
double; a withdrawal; a disqualification; an undo) goes through one service, which calls the room
(the next ready match: the ``room`` app, registered as a follower), live pages and ratings, in that order."""
from __future__ import annotations

import pytest

from scoring.models import Match
from seasons.services import ratings as season_ratings
from tests.tournaments import factories as f
from room.models import MatchCall
from room.services import ready
from tournaments import services
from tournaments.models import Pair
from tournaments.services import after_results


def _room(t, org) -> list[Pair]:
    """A 6-pair round robin with ready matches and the automatic call, round 1 at tables 1-3; table 2
    decided already: it sits free, since the next opponent of each of its pairs still plays."""
    pairs = f.pairs(t, 6)
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, ready_matches=True, auto_call=True)
    services.generate_first_round(t, org)
    second = Match.objects.select_related("pair_a", "pair_b").get(tournament=t, round__number=1, table=2)
    services.set_result(second, org, winner=second.pair_a, games=[1, 0], reason="played (test)")
    queue = ready.room_queue(t)
    assert queue.free_tables == [2] and queue.ready == []
    assert not MatchCall.objects.filter(tournament=t).exists()
    return pairs


def _table_one(t) -> Match:
    return Match.objects.select_related("pair_a", "pair_b").get(tournament=t, round__number=1, table=1)


def _free_table_one(how: str, t, org) -> None:
    first = _table_one(t)
    if how == "withdrawal":
        services.withdraw_pair(first.pair_a, org, "went home")
    elif how == "disqualification":
        services.disqualify_pair(first.pair_a, org, "insulted the referee")
    elif how == "walkover":
        services.record_walkover(first, first.pair_a, org, reason="absent")
    elif how == "double_walkover":
        services.record_double_walkover(first, org, reason="both absent")
    elif how == "result":
        services.set_result(first, org, winner=first.pair_b, games=[0, 1], reason="played (test)")
    elif how == "sumula":
        f.play(first, first.pair_b, org)  # signed and received (art. 25): scoring tells the tournament
    else:
        raise AssertionError(how)


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["withdrawal", "disqualification", "walkover", "double_walkover", "result",
                                 "sumula"])
def test_a_table_freed_by_any_decision_gets_the_next_ready_match(t, org, how):
    """Table 2 free, table 1 freed now: the room calls what is ready by itself, whatever freed table 1.
    A withdrawal and a disqualification (their W.O.s written in bulk) leave one match ready, the
    withdrawn pair's opponent against a pair of table 2, called to table 1; the other ways free both
    pairs of table 1, and two matches are called, to tables 1 and 2."""
    _room(t, org)
    first = _table_one(t)
    _free_table_one(how, t, org)
    calls = list(MatchCall.objects.filter(tournament=t).select_related("match", "match__round").order_by("table"))
    queue = ready.room_queue(t)
    if how in ("withdrawal", "disqualification"):
        assert [(c.table, c.automatic) for c in calls] == [(1, True)], how
        assert first.pair_b_id in (calls[0].match.pair_a_id, calls[0].match.pair_b_id)
        assert queue.free_tables == [2] and queue.ready == []
    else:
        assert [(c.table, c.automatic) for c in calls] == [(1, True), (2, True)], how
        assert queue.free_tables == []
    for call in calls:
        assert call.match.table == call.table and call.match.round.number > 1


@pytest.mark.django_db
def test_without_the_automatic_call_a_withdrawal_leaves_the_ready_match_to_the_organizer(t, org):
    _room(t, org)
    ready.configure_room(t, org, auto_call=False)
    services.withdraw_pair(_table_one(t).pair_a, org, "went home")
    assert not MatchCall.objects.filter(tournament=t).exists()
    queue = ready.room_queue(t)
    assert queue.free_tables == [1, 2] and len(queue.ready) == 1


@pytest.mark.django_db
def test_room_then_live_pages_then_ratings(t, org, monkeypatch, django_capture_on_commit_callbacks):
    """The order of what follows, and the ratings after the commit only."""
    _room(t, org)
    steps = []
    monkeypatch.setattr(ready, "auto_call", lambda tournament: steps.append("room"))  # room.hooks.follow_results
    monkeypatch.setattr(after_results, "mark_live", lambda match_ids: steps.append(("live", sorted(match_ids))))
    monkeypatch.setattr(season_ratings, "queue_sync", lambda: steps.append("ratings"))  # the last follower
    first = _table_one(t)
    with django_capture_on_commit_callbacks(execute=True):
        services.record_walkover(first, first.pair_a, org, reason="absent")
        assert steps == ["room", ("live", [first.pk])]
    assert steps == ["room", ("live", [first.pk]), "ratings"]


@pytest.mark.django_db
def test_live_pages_see_a_decided_or_undone_match_change(t, org):
    _room(t, org)
    first = _table_one(t)
    before = first.updated_at
    result = services.set_result(first, org, winner=first.pair_b, games=[0, 1], reason="played (test)")
    first.refresh_from_db()
    assert first.updated_at > before
    entry = services.result_undo_offer(first)
    assert entry is not None and entry.after["winner"] == result.winner_id
    decided = first.updated_at
    services.undo_result(first, org, entry.pk)
    first.refresh_from_db()
    assert first.updated_at > decided


@pytest.mark.django_db
@pytest.mark.parametrize("how", ["result", "undo", "withdrawal", "reinstatement"])
def test_ratings_follow_every_change_of_results_after_the_commit(t, org, how, monkeypatch,
                                                                   django_capture_on_commit_callbacks):
    _room(t, org)
    first = _table_one(t)
    if how == "undo":
        services.set_result(first, org, winner=first.pair_b, games=[0, 1], reason="played (test)")
    if how == "reinstatement":
        services.withdraw_pair(first.pair_a, org, "went home")
    queued = []
    monkeypatch.setattr(season_ratings, "queue_sync", lambda: queued.append(1))
    with django_capture_on_commit_callbacks(execute=True):
        if how == "result":
            services.set_result(first, org, winner=first.pair_b, games=[0, 1], reason="played (test)")
        elif how == "undo":
            services.undo_result(first, org, services.result_undo_offer(first).pk)
        elif how == "withdrawal":
            services.withdraw_pair(first.pair_a, org, "went home")
        else:
            services.undo_withdrawal(first.pair_a, org, services.undo_offer(first.pair_a).pk)
        assert queued == []  # not before the commit
    assert queued == [1]
