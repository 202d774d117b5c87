"""The end-of-time procedure enforced at the entry (the regulation is silent, docs/room.md:
Tupantruco's 11×11 after 1h30), on a controlled clock: the one write path ``record_hand`` applies it."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

import scoring.services as scoring
from config.errors import Conflict
from scoring.models import Game, Match, MatchEvent
from tests.tournaments import factories as f
from tournaments import services
from room.services import presence, ready

START = timezone.now().replace(microsecond=0) - timedelta(hours=3)


@pytest.fixture
def clock(monkeypatch):
    """``timezone.now()`` for the services, moved by the test."""
    now = [START]
    monkeypatch.setattr(timezone, "now", lambda: now[0])
    return now


def _match(t, org, *, procedure: str, best_of: int = 1) -> Match:
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", seeding="order", best_of=best_of)
    ready.configure_room(t, org, time_limit=90, end_of_time=procedure)
    services.generate_first_round(t, org)
    return Match.objects.get(tournament=t, table=1)


def _hand(match, org, winner: int, value: int = 1):
    return scoring.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": value}, org)


def _started(match, clock) -> None:
    """Both pairs at the table at ``START``: the time limit (90 min) runs out at START + 1h30."""
    presence.confirm_presence(match, 0, now=START)
    presence.confirm_presence(match, 1, now=START)
    match.refresh_from_db()
    assert match.time_up_at == START + timedelta(minutes=90)


@pytest.mark.django_db
def test_higher_score_the_hand_in_play_ends_the_match_and_the_leader_wins(t, org, clock):
    match = _match(t, org, procedure="higher_score")
    _started(match, clock)
    clock[0] = START + timedelta(minutes=60)
    _hand(match, org, 1, 3)  # before the limit: the game goes on (0-3)
    clock[0] = START + timedelta(minutes=91)
    hand = _hand(match, org, 0, 1)  # the hand in play at the limit: 1-3, then the match ends
    match.refresh_from_db()
    assert match.winner == 1 and (match.games_a, match.games_b) == (0, 1) and hand.state["over"]
    assert Game.objects.get(match=match, number=1).winner == 1  # games level: the game in play to its leader
    event = MatchEvent.objects.get(match=match, kind=MatchEvent.Kind.TIME_UP)
    assert event.data["procedure"] == "higher_score" and event.data["winner"] == 1
    assert match.versions.count() == 1  # the súmula is issued for signing as after any end
    with pytest.raises(Conflict):
        _hand(match, org, 0)


@pytest.mark.django_db
def test_a_level_score_goes_on_hand_by_hand_until_a_pair_is_ahead(t, org, clock):
    match = _match(t, org, procedure="higher_score")
    _started(match, clock)
    clock[0] = START + timedelta(minutes=30)
    _hand(match, org, 0)  # 1-0
    clock[0] = START + timedelta(minutes=95)
    _hand(match, org, 1)  # 1-1 after the limit: level, one more hand (the tie rule)
    match.refresh_from_db()
    assert match.winner is None
    _hand(match, org, 1)  # 1-2: a pair is ahead
    match.refresh_from_db()
    assert match.winner == 1


@pytest.mark.django_db
def test_one_more_hand_after_the_hand_in_play(t, org, clock):
    match = _match(t, org, procedure="one_more_hand")
    _started(match, clock)
    clock[0] = START + timedelta(minutes=100)
    _hand(match, org, 0, 3)  # the hand in play: 3-0
    match.refresh_from_db()
    assert match.winner is None
    _hand(match, org, 1, 1)  # one more hand: 3-1, then the higher score wins
    match.refresh_from_db()
    assert match.winner == 0 and MatchEvent.objects.filter(match=match, kind="time_up").count() == 1


@pytest.mark.django_db
def test_more_games_win_and_the_game_in_play_counts_for_no_one(t, org, clock):
    match = _match(t, org, procedure="higher_score", best_of=3)
    _started(match, clock)
    clock[0] = START + timedelta(minutes=40)
    _hand(match, org, 0, 12)  # game 1 to pair A
    clock[0] = START + timedelta(minutes=92)
    _hand(match, org, 1, 3)  # game 2, 0-3 after the limit
    match.refresh_from_db()
    assert match.winner == 0 and (match.games_a, match.games_b) == (1, 0)
    second = Game.objects.get(match=match, number=2)
    assert second.winner is None and second.finished_at is not None and second.score == (0, 3)


@pytest.mark.django_db
def test_eleven_all_the_remaining_games_start_at_11_11(t, org, clock):
    match = _match(t, org, procedure="eleven_all", best_of=3)
    _started(match, clock)
    clock[0] = START + timedelta(minutes=85)
    _hand(match, org, 0, 6)  # game 1 in play at the limit: it is finished as usual
    clock[0] = START + timedelta(minutes=95)
    match.refresh_from_db()
    assert match.winner is None
    hand = _hand(match, org, 1, 6)  # 6-6: the game goes on
    assert hand.state["score"] == [6, 6]
    hand = _hand(match, org, 1, 6)  # 6-12: game 1 to pair B; game 2 starts at 11×11 (mão de ferro, art. 18/20)
    second = Game.objects.get(match=match, number=2)
    assert second.eleven_all and second.score == (11, 11)
    assert hand.state["score"] == [11, 11] and hand.state["state"] == "iron"
    assert MatchEvent.objects.get(match=match, kind="time_up").data["start"] == [11, 11]
    _hand(match, org, 0, hand.state["allowed"]["tricks"][0])  # the iron hand ends game 2: 1-1, game 3 at 11×11
    assert Game.objects.get(match=match, number=3).score == (11, 11)
    scoring.undo_last(match, org)  # undone: game 2 back where it started, 11×11
    assert Game.objects.get(match=match, number=2).score == (11, 11)
    assert not Game.objects.filter(match=match, number=3).exists()
    # a correction replays game 2 from the 11×11 it started at, not from 0×0 (art. 26: an appeal applies)
    scoring.correct(match, [{"op": "set_first_dealer", "game": 1, "dealer": 1}], "teste", org)
    second = Game.objects.get(match=match, number=2)
    assert second.eleven_all and second.score == (11, 11) and second.winner is None
    assert Game.objects.get(match=match, number=1).winner == 1


@pytest.mark.django_db
def test_off_by_default_and_new_options_reach_the_matches_in_play(t, org, clock):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t, table=1)
    _hand(match, org, 0)
    match.refresh_from_db()
    assert match.time_up_at is None and match.end_of_time == ""  # no time limit: nothing enforced
    ready.configure_room(t, org, time_limit=60, end_of_time="higher_score")
    match.refresh_from_db()
    assert match.time_up_at == START + timedelta(minutes=60) and match.end_of_time == "higher_score"
    ready.configure_room(t, org, time_limit=None)
    match.refresh_from_db()
    assert match.time_up_at is None and match.end_of_time == ""


@pytest.mark.django_db
def test_the_first_hand_starts_the_time_limit_when_nobody_said_they_were_at_the_table(t, org, clock):
    match = _match(t, org, procedure="one_more_hand")
    clock[0] = START + timedelta(minutes=7)
    _hand(match, org, 0)  # the first hand: scoring's match_started, the room writes the limit's end
    match.refresh_from_db()
    assert match.time_up_at == START + timedelta(minutes=97) and match.end_of_time == "one_more_hand"
    clock[0] = START + timedelta(minutes=8)
    _hand(match, org, 0)  # the second hand does not move it
    match.refresh_from_db()
    assert match.time_up_at == START + timedelta(minutes=97)
