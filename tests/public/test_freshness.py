"""The tournament's one change marker (public.freshness): every insert, delete and update of a
row its pages show moves it, in one query; its latest moment is the latest change."""
from __future__ import annotations

import datetime

import pytest
from django.db.models import Max
from django.utils import timezone

from scoring.models import Match, MatchEvent
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from public import freshness
from tournaments.models import AuditEntry, CheckIn, Pair, Player, Round, Stage, TableAssignment
from room.models import RoomSettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup():
    org = pf.organizer()
    return pf.tournament(org, pairs=8, format="swiss"), org


def new_pair(t) -> Pair:
    a, b = Player.objects.create(name="Late A"), Player.objects.create(name="Late B")
    return Pair.objects.create(tournament=t, name="Late pair", first_player=a, second_player=b)


def event(match, **extra) -> MatchEvent:
    return MatchEvent.objects.create(match=match, kind=MatchEvent.Kind.HAND, **extra)


def referee():
    return f.user("ref")


CHANGES = {
    "pair_inserted": lambda t, org: new_pair(t),
    "pair_withdrawn": lambda t, org: Pair.objects.filter(pk=Pair.objects.filter(tournament=t).first().pk).update(
        status=Pair.Status.WITHDRAWN, withdrawn_at=timezone.now(), withdrawal_reason="left"),
    "round_updated": lambda t, org: Round.objects.filter(tournament=t).update(
        generated_at=timezone.now() + datetime.timedelta(seconds=1)),
    "stage_saved": lambda t, org: Stage.objects.filter(tournament=t).first().save(),
    "checkin_inserted": lambda t, org: CheckIn.objects.create(round=Round.objects.filter(tournament=t).first(),
                                                              pair=Pair.objects.filter(tournament=t).first()),
    "table_assigned": lambda t, org: TableAssignment.objects.create(tournament=t, table=1, referee=referee()),
    "match_saved": lambda t, org: Match.objects.filter(tournament=t).first().save(),
    "event_inserted": lambda t, org: event(Match.objects.filter(tournament=t).first()),
    "audit_inserted": lambda t, org: AuditEntry.objects.create(tournament=t, actor=org,
                                                               action=AuditEntry.Action.choices[0][0]),
    "room_saved": lambda t, org: RoomSettings.objects.create(tournament=t, time_limit=40),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_every_insert_and_update_a_page_shows_moves_it(cup, change):
    t, org = cup
    before = freshness.state(t.slug).tag
    CHANGES[change](t, org)
    assert freshness.state(t.slug).tag != before


@pytest.mark.parametrize("rows", ["pair", "checkin", "table"])
def test_a_deleted_row_moves_it(cup, rows):
    t, org = cup
    row = {"pair": lambda: new_pair(t),
           "checkin": lambda: CheckIn.objects.create(round=Round.objects.filter(tournament=t).first(),
                                                     pair=Pair.objects.filter(tournament=t).first()),
           "table": lambda: TableAssignment.objects.create(tournament=t, table=1, referee=referee())}[rows]()
    before = freshness.state(t.slug).tag
    row.delete()
    assert freshness.state(t.slug).tag != before


def test_an_event_committed_after_a_later_one_moves_it(cup):
    """Two tables' hands: the later id may commit first; the event counted (append-only: never
    deleted, so its count alone moves with every one) still moves the marker."""
    t, org = cup
    match = Match.objects.filter(tournament=t).first()
    top = MatchEvent.objects.aggregate(top=Max("pk"))["top"] or 0
    event(match, pk=top + 100)
    before = freshness.state(t.slug).tag
    event(match, pk=top + 50)
    assert freshness.state(t.slug).tag != before


def test_another_tournaments_changes_leave_it_alone(cup):
    t, org = cup
    other = pf.tournament(org, slug="other", pairs=4, format="swiss")
    before = freshness.state(t.slug).tag
    event(Match.objects.filter(tournament=other).first())
    new_pair(other)
    assert freshness.state(t.slug).tag == before


def test_its_moment_is_the_latest_change_and_it_is_one_query(cup, django_assert_num_queries):
    t, org = cup
    later = timezone.now() + datetime.timedelta(minutes=5)
    event(Match.objects.filter(tournament=t).first(), at=later)
    with django_assert_num_queries(1):
        current = freshness.state(t.slug)
    assert current.last_modified == later
    assert current.tournament.organizer.pk == org.pk
    with django_assert_num_queries(1):
        assert freshness.state("no-such-cup") is None
