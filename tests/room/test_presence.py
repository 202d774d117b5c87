"""Presence at the table and the W.O. proposal, on a controlled clock."""
from __future__ import annotations

from datetime import timedelta

import pytest

from config.errors import Conflict
from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import AuditEntry, Result, Round
from room.services import clock, presence, ready


@pytest.fixture
def drawn(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, tolerance_first=15, tolerance_later=5, time_limit=90)
    services.generate_first_round(t, org)
    called = Round.objects.get(tournament=t, number=1).generated_at
    return t, called


@pytest.mark.django_db
def test_a_late_pair_gets_a_walkover_proposal_after_the_tolerance_confirmed_by_the_organizer(drawn, org):
    t, called = drawn
    match = Match.objects.filter(tournament=t, table=1).select_related("pair_a", "pair_b").get()
    presence.confirm_presence(match, 0, now=called + timedelta(minutes=2))  # pair A is at the table
    # within the first round's tolerance (15 minutes, ASSTJ): nothing proposed
    assert presence.walkover_proposals(t, now=called + timedelta(minutes=14, seconds=59)) == []
    later = called + timedelta(minutes=15)
    [proposal] = presence.walkover_proposals(t, now=later)
    assert proposal.match.pk == match.pk and proposal.absent.pk == match.pair_b_id
    assert not Result.objects.filter(match=match).exists()  # never an automatic result
    with pytest.raises(Conflict):
        presence.confirm_proposal(match, match.pair_a_id, org, now=later)  # the pair at the table is not absent
    result = presence.confirm_proposal(match, match.pair_b_id, org, now=later)
    assert result.kind == Result.Kind.WALKOVER and result.absent_id == match.pair_b_id
    entry = AuditEntry.objects.get(tournament=t, action="walkover", match=match)
    assert "toler" in entry.reason and entry.actor == org  # "tolerância" in Portuguese
    assert presence.walkover_proposals(t, now=later) == []


@pytest.mark.django_db
def test_a_pair_that_arrives_in_time_stops_the_proposal_and_starts_the_clock(drawn, org):
    t, called = drawn
    match = Match.objects.filter(tournament=t, table=1).select_related("round").get()
    presence.confirm_presence(match, 1, now=called + timedelta(minutes=1))
    call = presence.confirm_presence(match, 0, now=called + timedelta(minutes=10))
    assert call.started_at == called + timedelta(minutes=10)
    again = presence.confirm_presence(match, 0, now=called + timedelta(minutes=12))  # a second tap
    assert again.present_a_at == called + timedelta(minutes=10)
    assert presence.walkover_proposals(t, now=called + timedelta(minutes=30)) == []
    with pytest.raises(Conflict):
        presence.confirm_proposal(match, match.pair_a_id, org, now=called + timedelta(minutes=30))
    room = ready.room_of(t)
    state = clock.clock_of(match, room, called + timedelta(minutes=100), call=call)
    assert state.elapsed == 90 * 60 and state.remaining == 0 and not state.over_time
    state = clock.clock_of(match, room, called + timedelta(minutes=101), call=call)
    assert state.over_time and state.remaining == -60
    assert state.late_after == called + timedelta(minutes=15)


@pytest.mark.django_db
def test_without_a_tolerance_nothing_is_proposed(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    match = Match.objects.filter(tournament=t, table=1).get()
    called = match.round.generated_at
    presence.confirm_presence(match, 0, now=called)
    assert presence.walkover_proposals(t, now=called + timedelta(hours=3)) == []
    with pytest.raises(services.TournamentError):
        presence.confirm_presence(match, 2)
