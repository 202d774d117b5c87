"""The matches for places 5 to 8 are played beside the main bracket (start.gg's
classification phases), not after the whole knockout: the quarterfinal losers meet as soon as their
two quarterfinals are decided, in the semifinals' round, and the 5th- and 7th-place matches in the
final's. Checked against plain arithmetic: 8 pairs seeded 1..8, the better seed wins every match but
where said; the placings are then 1..8 with no shared place."""
from __future__ import annotations

import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client as client
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tests.tournaments.test_fair_draw import decide
from tournaments.models import BracketNode, Pair
from draw.pairing.elimination import record_results, single_elimination
from draw.pairing.placings import bracket_placings

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


def test_places_5_to_8_in_the_pure_bracket_by_arithmetic():
    """Quarterfinals 1-8, 4-5, 3-6, 2-7: losers 8, 5, 6, 7. 5-8 semifinals: 8 v 5 and 6 v 7; 5 and 6
    win (5th-place match 5 v 6: 5 wins), 8 and 7 lose (7th-place match: 7 wins). Places 5, 6, 7, 8 =
    pairs 5, 6, 7, 8; before the 5th/7th-place matches the semifinal winners share 5th, losers 7th."""
    b = single_elimination(list(range(1, 9)), third_place=True, classification=True)
    assert [(m.match_id, m.round_number) for m in b.classification] == [("5S-1", 2), ("5S-2", 2), ("5P", 3), ("7P", 3)]
    b = record_results(b, {m.match_id: min(m.top.pair, m.bottom.pair) for m in b.winners[0]})
    assert [(m.top.pair, m.bottom.pair) for m in b.classification[:2]] == [(8, 5), (6, 7)]
    assert all(m.playable for m in b.classification[:2]) and all(m.playable for m in b.winners[1])
    assert [p.place for p in bracket_placings(b).rows][4:] == [5, 5, 5, 5]
    b = record_results(b, {"5S-1": 5, "5S-2": 6})
    assert [(p.place, p.pair_id) for p in bracket_placings(b).rows][4:] == [(5, 5), (5, 6), (7, 7), (7, 8)]
    b = record_results(b, {"5P": 5, "7P": 7, "W2-1": 1, "W2-2": 2, "W3-1": 1, "3P": 3})
    rows = bracket_placings(b)
    assert [(p.place, p.pair_id) for p in rows.rows] == [(i, i) for i in range(1, 9)] and rows.complete


def test_six_pairs_two_byes_leave_one_classification_match():
    """6 pairs: seeds 1 and 2 have byes, so the quarterfinals 1-bye and 2-bye have no loser: 5-8
    semifinals are bye v L(4-5) and L(3-6) v bye, decided without play; the 5th-place match is then
    L(4-5) v L(3-6), and there is no 7th-place match (nobody left): places 5 and 6."""
    b = single_elimination(list(range(1, 7)), classification=True)
    b = record_results(b, {"W1-2": 4, "W1-3": 3})
    s1, s2, fifth, seventh = b.classification
    assert s1.unplayed and s2.unplayed and (fifth.top.pair, fifth.bottom.pair) == (5, 6) and seventh.unplayed
    b = record_results(b, {"5P": 6, "W2-1": 1, "W2-2": 2, "W3-1": 2})
    assert [(p.place, p.pair_id) for p in bracket_placings(b).rows] == [(1, 2), (2, 1), (3, 3), (3, 4), (5, 6), (6, 5)]


def test_a_knockout_with_places_5_to_8_plays_them_beside_the_semifinals(t, org):
    pairs = f.pairs(t, 8)
    f.seed_in_order(pairs)
    number = {p.pk: int(p.name[1:]) for p in pairs}
    c = client(org)
    r = c.put(f"{API}stage/", {"format": "single_elimination", "classification": True, "third_place": True},
              format="json")
    assert r.status_code == 200 and r.json()["classification"] is True
    c.post(f"{API}rounds/generate/", {}, format="json")

    def play(round_number):
        for m in Match.objects.filter(tournament=t, round__number=round_number, tournament_result__isnull=True):
            decide(c, m, min(m.pair_a_id, m.pair_b_id, key=number.get))

    quarters = list(Match.objects.filter(tournament=t, round__number=1).order_by("table"))
    decide(c, quarters[0], quarters[0].pair_a_id)  # 1 v 8: P1
    decide(c, quarters[1], quarters[1].pair_b_id if number[quarters[1].pair_b_id] == 4 else quarters[1].pair_a_id)
    # two quarterfinals decided: their losers' 5-8 semifinal exists already, in round 2 beside a semifinal
    node = BracketNode.objects.get(stage__tournament=t, code="5S-1")
    assert node.match is not None and node.match.round.number == 2
    assert {number[node.match.pair_a_id], number[node.match.pair_b_id]} == {8, 5}
    play(1)
    assert Match.objects.filter(tournament=t, round__number=2).count() == 4  # 2 semifinals + 2 of places 5-8
    round_2 = c.get(f"{API}rounds/2/").json()
    assert round_2["name"] in ("Semifinals and places 5 to 8",)
    play(2)
    play(3)
    t.refresh_from_db()
    assert t.status == "finished"
    rows = c.get(f"{API}standings/").json()["rows"]
    assert [(r["place"], number[r["pair"]]) for r in rows] == [(i, i) for i in range(1, 9)]
    html = client().get(f"/torneios/{t.slug}/rodadas/3/").content.decode()
    assert "Fifth-place match" in html and "Seventh-place match" in html
    bracket = c.get(f"{API}bracket/").json()
    assert [m["code"] for m in bracket["classification"]] == ["5S-1", "5S-2", "5P", "7P"]
    assert Pair.objects.filter(tournament=t).count() == 8
