"""Data migration 0007: today's "groups then knockout" becomes two stages, the
knockout taking over the bracket (nodes, seeds, rounds); other stages get their rounds and start."""
import datetime

import pytest
from django.db import connection
from django.utils import timezone

from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0005_append_only_triggers")]
AFTER = [("tournaments", "0007_groups_knockout_to_two_stages")]


def test_groups_then_knockout_migrates_to_two_stages():
    apps = start_at(connection, BEFORE, fresh=True)  # tournaments and auth only
    try:
        User = apps.get_model("auth", "User")
        Tournament = apps.get_model("tournaments", "Tournament")
        Player = apps.get_model("tournaments", "Player")
        Pair = apps.get_model("tournaments", "Pair")
        Stage = apps.get_model("tournaments", "Stage")
        Round = apps.get_model("tournaments", "Round")
        GroupMember = apps.get_model("tournaments", "GroupMember")
        BracketNode = apps.get_model("tournaments", "BracketNode")
        org = User.objects.create(username="org")
        now = timezone.now()

        def tournament(slug):
            return Tournament.objects.create(name=slug, slug=slug, date=datetime.date(2026, 5, 1), organizer=org)

        def pairs(t, n):
            out = []
            for i in range(n):
                a = Player.objects.create(name=f"{t.slug}{i}a")
                b = Player.objects.create(name=f"{t.slug}{i}b")
                out.append(Pair.objects.create(tournament=t, name=f"P{i + 1}", first_player=a, second_player=b))
            return out

        # groups then knockout, knockout built in round 4
        built = tournament("built")
        ps = pairs(built, 4)
        stage = Stage.objects.create(tournament=built, format="groups_knockout", group_count=2,
                                     qualifiers_per_group=1, third_place=True, bracket_seeds=[ps[0].pk, ps[1].pk],
                                     bracket_first_round=4, standings_lot_seed=7, tiebreaks=["matches_won"])
        for g, members in enumerate([[ps[0], ps[3]], [ps[1], ps[2]]]):
            for i, p in enumerate(members):
                GroupMember.objects.create(stage=stage, pair=p, group=g, number=i + 1)
        for n in range(1, 5):
            Round.objects.create(tournament=built, number=n, generated_at=now,
                                 phase="bracket" if n == 4 else "groups")
        BracketNode.objects.create(stage=stage, code="W1-1", section="winners", bracket_round=1, position=1,
                                   level=1, top_seed=1, bottom_seed=2)
        # groups then knockout, still in the groups
        waiting = tournament("waiting")
        pairs(waiting, 4)
        Stage.objects.create(tournament=waiting, format="groups_knockout", group_count=2, qualifiers_per_group=2,
                             standings_lot_seed=3)
        Round.objects.create(tournament=waiting, number=1, generated_at=now, phase="groups")
        # a Swiss, not drawn
        swiss = tournament("swiss")
        Stage.objects.create(tournament=swiss, format="swiss", standings_lot_seed=1)

        apps = migrate_to(connection, AFTER)
        Stage = apps.get_model("tournaments", "Stage")
        Round = apps.get_model("tournaments", "Round")
        BracketNode = apps.get_model("tournaments", "BracketNode")

        groups, knockout = Stage.objects.filter(tournament__slug="built").order_by("position")
        assert (groups.format, groups.bracket_first_round, groups.bracket_seeds) == ("round_robin", None, [])
        assert groups.started_at is not None and len(groups.entrants) == 4
        assert (knockout.position, knockout.format, knockout.qualification, knockout.qualifiers_per_group,
                knockout.third_place, knockout.bracket_first_round) == (2, "single_elimination", "per_group", 1,
                                                                        True, 4)
        assert knockout.entrants == [ps[0].pk, ps[1].pk] and knockout.started_at is not None
        assert knockout.standings_lot_seed == 7 and knockout.tiebreaks == ["matches_won"]
        assert BracketNode.objects.get(code="W1-1").stage_id == knockout.pk
        assert list(Round.objects.filter(tournament__slug="built").order_by("number")
                    .values_list("stage__position", flat=True)) == [1, 1, 1, 2]

        groups, knockout = Stage.objects.filter(tournament__slug="waiting").order_by("position")
        assert (groups.format, knockout.format, knockout.started_at, knockout.qualifiers_per_group) == (
            "round_robin", "single_elimination", None, 2)
        assert Round.objects.get(tournament__slug="waiting").stage_id == groups.pk

        (only,) = Stage.objects.filter(tournament__slug="swiss")
        assert (only.position, only.format, only.started_at) == (1, "swiss", None)

        apps = migrate_to(connection, BEFORE)  # and back: the two stages merge again
        Stage = apps.get_model("tournaments", "Stage")
        (merged,) = Stage.objects.filter(tournament__slug="built")
        assert (merged.format, merged.bracket_first_round, merged.qualifiers_per_group) == ("groups_knockout", 4, 1)
    finally:
        back_to_latest(connection)
