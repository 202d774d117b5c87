"""The database itself refuses bad tournament data: stages, results, walkovers, audit entries,
withdrawals, seeds, check-ins, byes, table assignments, group members and bracket nodes."""
import pytest
from django.db import IntegrityError, transaction

from scoring.models import Match
from tests.tournaments import factories as f
from tournaments.models import (
    AuditEntry, AuditError, BracketNode, Bye, CheckIn, GroupMember, Pair, Result, Round, Stage, TableAssignment,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(t, org):
    a, b = f.pairs(t, 2)
    rnd = Round.objects.create(tournament=t, number=1)
    return Match.objects.create(tournament=t, round=rnd, pair_a=a, pair_b=b, rule_set={}, best_of=1)


def refused(**create):
    model = create.pop("model")
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.create(**create)


def test_stage_checks(t):
    refused(model=Stage, tournament=t, format="knockout")
    refused(model=Stage, tournament=t, format="swiss", seeding="height")
    refused(model=Stage, tournament=t, format="round_robin", group_count=0)
    refused(model=Stage, tournament=t, format="groups_knockout", qualifiers_per_group=0)
    refused(model=Stage, tournament=t, format="swiss", swiss_rounds=0)
    Stage.objects.create(tournament=t, format="swiss")
    refused(model=Stage, tournament=t, format="swiss")  # one per tournament


def test_result_checks(t, match):
    a, b = match.pair_a, match.pair_b
    base = dict(model=Result, match=match, tournament=t, pair_a=a, pair_b=b)
    refused(**base, kind="sumula", winner=a, games_a=0, games_b=1)  # the winner won fewer games
    refused(**base, kind="sumula", winner=a, games_a=1, games_b=1)
    refused(**base, kind="walkover", winner=a, games_a=1)  # no absent pair
    refused(**base, kind="walkover", winner=a, absent=a, games_a=1)  # the absent pair won
    refused(**base, kind="sumula", winner=a, absent=b, games_a=1)  # absent only for a walkover
    refused(**base, kind="manual", winner=a, games_a=1, reason="")  # manual needs a reason
    refused(**base, kind="other", winner=a, games_a=1)
    Result.objects.create(match=match, tournament=t, pair_a=a, pair_b=b, kind="walkover", winner=b, absent=a,
                          games_b=1)
    refused(**base, kind="manual", winner=a, games_a=1, reason="x")  # one result per match


def test_pair_withdrawal_and_seed_checks(t):
    pair, other = f.pairs(t, 2)
    for status, at, reason in (("withdrawn", None, "x"), ("withdrawn", "2026-05-01T10:00Z", ""),
                               ("confirmed", "2026-05-01T10:00Z", "x"), ("gone", None, "")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Pair.objects.filter(pk=pair.pk).update(status=status, withdrawn_at=at, withdrawal_reason=reason)
    Pair.objects.filter(pk=pair.pk).update(seed=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.filter(pk=other.pk).update(seed=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Pair.objects.filter(pk=other.pk).update(seed=0)


def test_check_in_bye_and_group_uniqueness(t):
    pair = f.pairs(t, 1)[0]
    rnd = Round.objects.create(tournament=t, number=1)
    CheckIn.objects.create(round=rnd, pair=pair)
    refused(model=CheckIn, round=rnd, pair=pair)
    Bye.objects.create(round=rnd, pair=pair)
    refused(model=Bye, round=rnd, pair=pair)
    stage = Stage.objects.create(tournament=t, format="round_robin")
    GroupMember.objects.create(stage=stage, pair=pair, group=0, number=1)
    refused(model=GroupMember, stage=stage, pair=pair, group=1, number=1)
    refused(model=GroupMember, stage=stage, pair=f.pairs(t, 1)[0], group=0, number=1)


def test_round_phase_needs_the_round_paired(t):
    refused(model=Round, tournament=t, number=1, phase="swiss")
    refused(model=Round, tournament=t, number=1, phase="knockout", generated_at="2026-05-01T10:00Z")


def test_table_assignment_checks(t, org):
    ref = f.user("ref")
    rnd = Round.objects.create(tournament=t, number=1)
    refused(model=TableAssignment, tournament=t, table=0, referee=ref)
    TableAssignment.objects.create(tournament=t, table=1, referee=ref)
    refused(model=TableAssignment, tournament=t, table=1, referee=org)
    TableAssignment.objects.create(tournament=t, table=1, round=rnd, referee=org)
    refused(model=TableAssignment, tournament=t, table=1, round=rnd, referee=ref)


def test_bracket_node_checks(t):
    a, b = f.pairs(t, 2)
    stage = Stage.objects.create(tournament=t, format="single_elimination")
    base = dict(model=BracketNode, stage=stage, section="winners", bracket_round=1, position=0, level=1)
    refused(**base, code="W1-1", top_pair=a, bottom_pair=a)
    refused(**base, code="W1-1", top_pair=a, bottom_pair=b, winner=f.pairs(t, 1)[0])
    refused(**base, code="W1-1", top_seed=1, top_source="W0-1")
    refused(**{**base, "section": "middle"}, code="W1-1")
    BracketNode.objects.create(stage=stage, code="W1-1", section="winners", bracket_round=1, position=0, level=1)
    refused(**base, code="W1-1")


def test_audit_entries_are_append_only_and_overrides_need_a_reason(t, org):
    refused(model=AuditEntry, tournament=t, actor=org, action="result_set", reason="")
    refused(model=AuditEntry, tournament=t, actor=org, action="pairing_changed", reason="")
    entry = AuditEntry.objects.create(tournament=t, actor=org, action="round_generated")
    entry.reason = "changed"
    with pytest.raises(AuditError):
        entry.save()
    with pytest.raises(AuditError):
        entry.delete()
