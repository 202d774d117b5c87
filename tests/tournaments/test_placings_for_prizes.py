"""Final placings that prizes and circuit points are paid on: pairs out in a group stage placed by
their group place first, then across the groups without head-to-head (they did not meet); a place
set by hand moving only the named pair; head-to-head counted among the pairs still in."""
from __future__ import annotations

import pytest
from django.utils import translation

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments import services
from tournaments.models import GroupMember, Pair, Tournament

pytestmark = pytest.mark.django_db


def play_rounds(t: Tournament, org, outcome) -> None:
    """Every round of a round robin, each match decided by ``outcome(a, b)``: (winner, loser's tentos)."""
    for _ in range(20):
        matches = pf.open_matches(t)
        for m in matches:
            winner, loser_points = outcome(m.pair_a, m.pair_b)
            need = m.best_of // 2 + 1
            a_won = winner.pk == m.pair_a_id
            points = [12, loser_points] if a_won else [loser_points, 12]
            if m.best_of > 1:
                points = [p * need for p in points]
            services.set_result(m, org, winner=winner.pk, games=[need, 0] if a_won else [0, need], points=points,
                                reason="test")
        t.refresh_from_db()
        if not matches:
            try:
                services.generate_next_round(t, org)
            except services.Conflict:
                return


def places(t: Tournament) -> dict[str, int]:
    t.refresh_from_db()
    return {line.pair.name: line.rank for line in services.standings(t).rows}


def test_pairs_out_in_groups_are_placed_by_group_place_then_across_groups():
    """Group A: A1 > A2, A1 > A3, A4 > A1 (12-0), A2 > A3, A2 > A4, A3 > A4 (all 12-11): A4 is 4th
    of A with 1 win and +10. Group B: B1 beats all, B2 beats B3 and B4, B3 beats B4 12-11 and loses
    0-12 twice: B3 is 3rd of B with 1 win and -23. A4 has the better record but finished a place
    lower in its group: B3 is placed 5th or 6th, A4 7th or 8th."""
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="round_robin", group_count=2, draw=True)
    members = {}
    for g in (0, 1):
        ids = list(GroupMember.objects.filter(stage__tournament=t, group=g).order_by("number")
                   .values_list("pair_id", flat=True))
        for i, pk in enumerate(ids):
            members[pk] = ("A" if g == 0 else "B") + str(i + 1)
    for pk, label in members.items():
        Pair.objects.filter(pk=pk).update(name=label)
    beats = {("A1", "A2"): 11, ("A1", "A3"): 11, ("A4", "A1"): 0, ("A2", "A3"): 11, ("A2", "A4"): 11,
             ("A3", "A4"): 11, ("B1", "B2"): 11, ("B1", "B3"): 0, ("B1", "B4"): 11, ("B2", "B3"): 0,
             ("B2", "B4"): 11, ("B3", "B4"): 11}

    def outcome(a, b):
        x, y = members[a.pk], members[b.pk]
        if (x, y) in beats:
            return a, beats[(x, y)]
        return b, beats[(y, x)]

    play_rounds(t, org, outcome)
    got = places(t)
    assert sorted(got.values()) == list(range(1, 9))
    assert {got["A1"], got["B1"]} == {1, 2} and {got["A2"], got["B2"]} == {3, 4}
    assert {got["A3"], got["B3"]} == {5, 6} and {got["A4"], got["B4"]} == {7, 8}
    assert got["A4"] == 7  # of the fourths, A4's record is better (no head-to-head: they did not meet)


def single_elimination_of_8(org) -> Tournament:
    t = pf.tournament(org, pairs=8, format="single_elimination")
    pf.play_all(t, org)
    return t


def test_a_place_set_by_hand_moves_only_the_named_pair():
    """Single elimination of 8, no third-place match: 1, 2, 3, 3, 5, 5, 5, 5. The organizer places
    one quarterfinal loser 8th: it alone moves; the three others keep their shared 5th, every other
    place is kept (art. 26: the organizer's decision, with its reason)."""
    org = pf.organizer()
    t = single_elimination_of_8(org)
    before = places(t)
    assert sorted(before.values()) == [1, 2, 3, 3, 5, 5, 5, 5]
    fifth = sorted(name for name, place in before.items() if place == 5)
    services.override_placing(t, org, pair=Pair.objects.get(tournament=t, name=fifth[0]).pk, place=8,
                              reason="conduta antidesportiva (art. 26)")
    after = places(t)
    assert after == before | {fifth[0]: 8}
    rows = {line.pair.name: line for line in services.standings(Tournament.objects.get(pk=t.pk)).rows}
    assert rows[fifth[0]].decided_by == "organizer" and rows[fifth[1]].decided_by != "organizer"
    # a semifinal loser set 3rd keeps the other semifinal loser 3rd too
    third = sorted(name for name, place in before.items() if place == 3)
    services.override_placing(t, org, pair=Pair.objects.get(tournament=t, name=third[0]).pk, place=3,
                              reason="confirmado (art. 26)")
    assert places(t) == before | {fifth[0]: 8}


def test_head_to_head_counts_only_the_pairs_still_in():
    """A league of 4: P1 beats everyone; P2 > P4 (12-0), P4 > P3 (12-0), P3 > P2 (12-11): a cycle in
    which P2 has the better tentos. P4 is then disqualified: among the pairs still in, P3 beat P2,
    so P3 is 2nd and P2 3rd (the disqualified pair last)."""
    org = pf.organizer()
    t = f.tournament(org)
    pairs = f.pairs(t, 4)
    names = {p.pk: p.name for p in pairs}
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    beats = {("P1", "P2"): 0, ("P1", "P3"): 0, ("P1", "P4"): 0, ("P2", "P4"): 0, ("P4", "P3"): 0,
             ("P3", "P2"): 11}

    def outcome(a, b):
        x, y = names[a.pk], names[b.pk]
        return (a, beats[(x, y)]) if (x, y) in beats else (b, beats[(y, x)])

    play_rounds(t, org, outcome)
    assert [line.pair.name for line in services.standings(t).rows] == ["P1", "P2", "P4", "P3"]
    services.disqualify_pair(Pair.objects.get(tournament=t, name="P4"), org, "conduta (art. 26)")
    assert [line.pair.name for line in services.standings(t).rows] == ["P1", "P3", "P2", "P4"]


def test_every_place_is_explained_on_the_placings_page(client):
    """Single elimination of 8 with a third-place match: champion, final, third-place match, and the
    four quarterfinal losers sharing 5th: "5º–8º: perderam nas quartas"."""
    org = pf.organizer()
    t = pf.tournament(org, pairs=8, format="single_elimination", third_place=True)
    pf.play_all(t, org)
    page = client.get(pf.url("standings", t)).content.decode()
    for words in ("1º: campeã", "2º: perdeu a final", "3º: venceu a disputa do 3º lugar",
                  "4º: perdeu a disputa do 3º lugar", "5º–8º: perderam nas quartas"):
        assert words in page, words
    assert page.count('data-testid="place-why"') == 8


@translation.override("en")
def test_group_places_and_withdrawals_are_explained():
    """Groups then knockout of 16 (4 groups, 2 qualify): the pairs out in the groups say their group
    place; a disqualified pair says it is placed after the pairs still in."""
    org = pf.organizer()
    t = pf.tournament(org, pairs=16, format="groups_knockout", group_count=4, qualifiers_per_group=2)
    pf.play_all(t, org)
    rows = {line.pair.name: line for line in services.standings(t).rows}
    out = [line for line in rows.values() if line.stage == 1]
    assert len(out) == 8 and all("in group" in line.why and "then by record" in line.why for line in out)
    assert all(line.why.startswith(("place 9", "place 1")) for line in out)
    winner = next(line for line in rows.values() if line.rank == 1)
    services.disqualify_pair(winner.pair, org, "conduta (art. 26)")
    t.refresh_from_db()
    last = services.standings(t).rows[-1]
    assert last.pair.pk == winner.pair.pk and "disqualified" in last.why
