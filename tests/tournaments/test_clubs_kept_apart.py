"""Clubs are avoid tags by default: pairs imported from a CSV with their players' clubs are kept apart
in the group draw without a form per pair, and among the equally good draws one is chosen by lot with
the draw's recorded seed (the same seed, the same groups)."""
from __future__ import annotations

import random

import pytest

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments import services
from tournaments.csv_import import import_pairs
from tournaments.models import GroupMember, Pair, Round, Stage
from draw.pairing.avoidance import avoided_pairs, avoiding_groups, meetings

pytestmark = pytest.mark.django_db
HEADER = "pair,player 1,club 1,player 2,club 2\n"
CLUBS = ["AABB", "Vila Maria", "Clube Lagoa", "Grêmio"]


def sixteen_pairs_of_four_clubs() -> str:
    rows = []
    for i in range(16):
        club = CLUBS[i // 4]  # the four pairs of a club next to each other: the snake would put them together
        rows.append(f"Dupla {i + 1},Jogador {i + 1}a,{club},Jogador {i + 1}b,{club}")
    return HEADER + "\n".join(rows) + "\n"


def same_club_meetings(t) -> int:
    club = {p.pk: p.first_player.club.name for p in Pair.objects.filter(tournament=t).select_related(
        "first_player__club")}
    groups: dict[int, list[int]] = {}
    for g, pk in GroupMember.objects.filter(stage__tournament=t).values_list("group", "pair_id"):
        groups.setdefault(g, []).append(pk)
    return sum(1 for members in groups.values() for i, a in enumerate(members) for b in members[i + 1:]
               if club[a] == club[b])


def test_clubs_from_the_csv_keep_same_club_pairs_apart_in_the_groups():
    org = pf.organizer()
    t = f.tournament(org)
    report = import_pairs(t, sixteen_pairs_of_four_clubs().encode(), org)
    assert Pair.objects.filter(tournament=t).count() == 16, report
    assert not Pair.objects.filter(tournament=t).exclude(avoid_tags="").exists()  # no tag typed by hand
    services.configure_stage(t, org, format="round_robin", group_count=4, seeding="order")
    services.generate_first_round(t, org)
    assert same_club_meetings(t) == 0
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.unavoided == [] and rnd.lot_seed is not None
    assert Stage.objects.get(tournament=t, position=1).lot_seed == rnd.lot_seed


def test_the_lot_among_equally_good_draws_is_the_recorded_seed():
    """8 pairs, 2 groups, two clubs of 2 and two pairs untagged: several draws keep the clubs apart
    with as few moves; the seed chooses one, the same seed the same one, and every one is as good."""
    ids = list(range(1, 13))
    tags = {1: ["A"], 4: ["A"], 5: ["B"], 8: ["B"], 9: ["C"], 12: ["C"]}
    avoid = avoided_pairs(tags)
    first = avoiding_groups(ids, 3, avoid)
    draws = {seed: avoiding_groups(ids, 3, avoid, lot_seed=seed) for seed in range(40)}
    assert all(d.unavoided == () and d.moved == first.moved for d in draws.values())
    assert len({d.groups for d in draws.values()}) > 1 and all(d.equally_good > 1 for d in draws.values())
    assert all(avoiding_groups(ids, 3, avoid, lot_seed=seed).groups == d.groups for seed, d in draws.items())
    for d in draws.values():  # still the snake's balance: one of each pot per group
        pots = [set(ids[i:i + 3]) for i in range(0, 12, 3)]
        assert all(len(set(g) & pot) == 1 for g in d.groups for pot in pots)
        assert meetings(d.groups, avoid) == ()


def test_the_lot_never_gives_a_worse_draw():
    rng = random.Random(7)
    for _ in range(60):
        n = rng.randint(4, 14)
        ids = list(range(n))
        groups = rng.randint(1, max(1, n // 2))
        tags = {p: [rng.choice("ABCD")] for p in ids if rng.random() < 0.6}
        avoid = avoided_pairs(tags)
        plain = avoiding_groups(ids, groups, avoid)
        drawn = avoiding_groups(ids, groups, avoid, lot_seed=rng.randrange(2**31))
        assert (len(drawn.unavoided), drawn.moved) == (len(plain.unavoided), plain.moved)
        assert sorted(map(len, drawn.groups)) == sorted(map(len, plain.groups))
