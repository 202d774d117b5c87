"""Issue 24: tournaments fair to the last place, through the REST API: a top cut added to a finished
event (point 4), a correction refused only when it changes the qualifiers or a played meeting
(point 5), the best thirds seeded inside the crossing and compared without their byes (points 1-2)."""
import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client as client
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments.models import AuditEntry, Pair, Result, Stage

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


def open_matches(t):
    return list(Match.objects.filter(tournament=t, tournament_result__isnull=True).order_by("round__number", "pk"))


def decide(c, match, winner_id, loser_points=0, *, expect=200, reason="test"):
    a_won = winner_id == match.pair_a_id
    body = {"winner": winner_id, "games": [1, 0] if a_won else [0, 1],
            "points": [12, loser_points] if a_won else [loser_points, 12], "reason": reason}
    response = c.post(f"{API}matches/{match.pk}/result/", body, format="json")
    assert response.status_code == expect, response.json()
    return response


def names(t, ids):
    by_id = dict(Pair.objects.filter(tournament=t).values_list("pk", "name"))
    return [by_id[p] for p in ids]


# ---- point 4: a top cut added to a finished event reopens it

def test_a_top_cut_added_to_a_finished_swiss_reopens_it(t, org):
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    c = client(org)
    assert c.put(f"{API}stage/", {"format": "swiss", "swiss_rounds": 2}, format="json").status_code == 200
    c.post(f"{API}rounds/generate/", {}, format="json")
    for _ in range(2):
        for m in open_matches(t):
            decide(c, m, min(m.pair_a_id, m.pair_b_id))
        c.post(f"{API}rounds/next/")
    t.refresh_from_db()
    assert t.status == "finished"
    response = c.post(f"{API}stages/", {"name": "Final", "format": "single_elimination", "qualifiers": 2},
                      format="json")
    assert response.status_code == 201, response.json()
    t.refresh_from_db()
    assert t.status == "in_progress"
    assert AuditEntry.objects.filter(action="stage_configured", after__reopened=True).count() == 1
    top = c.get(f"{API}stages/2/qualifiers/").json()["qualifiers"]
    assert top[0] == pairs[0].pk and len(top) == 2  # P1 won both rounds
    assert c.post(f"{API}rounds/next/").status_code == 201
    (final,) = open_matches(t)
    assert {final.pair_a_id, final.pair_b_id} == set(top)
    decide(c, final, top[1])
    t.refresh_from_db()
    assert t.status == "finished" and c.get(f"{API}bracket/").json()["champion"] == top[1]


# ---- point 5: a correction refused only when it changes the qualifiers or a played meeting

# A round robin of six, then the top 4 in a knockout. By hand (12-0 unless said):
# P1 beats everyone; P2 beats P4 P5 P6; P3 beats P2 P5 (12-5) P6; P4 beats P3 P5 (12-10) P6; P5 beats P6.
# P2, P3, P4 have 3 wins each and beat each other in a cycle (head-to-head 1 each), so the saldo decides:
# P2 +36 -24 = +12, P3 +36 -5 -24 = +7, P4 +36 -10 -24 = +2. Seeds P1 P2 P3 P4: semifinals P1 v P4, P2 v P3.
WINS = {("P1", x): 0 for x in ("P2", "P3", "P4", "P5", "P6")} | {
    ("P2", "P4"): 0, ("P2", "P5"): 0, ("P2", "P6"): 0, ("P3", "P2"): 0, ("P3", "P5"): 5, ("P3", "P6"): 0,
    ("P4", "P3"): 0, ("P4", "P5"): 10, ("P4", "P6"): 0, ("P5", "P6"): 0}


def _six_then_top_four(t, org):
    pairs = f.pairs(t, 6)
    f.seed_in_order(pairs)
    ids = {p.name: p.pk for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin"}, format="json")
    assert c.post(f"{API}stages/", {"format": "single_elimination", "qualifiers": 4},
                  format="json").status_code == 201
    c.post(f"{API}rounds/generate/", {}, format="json")
    for _ in range(5):
        for m in open_matches(t):
            a, b = names(t, [m.pair_a_id, m.pair_b_id])
            winner, loser = (a, b) if (a, b) in WINS else (b, a)
            decide(c, m, ids[winner], WINS[(winner, loser)])
        assert c.post(f"{API}rounds/next/").status_code == 201
    knockout = Stage.objects.get(tournament=t, position=2)
    assert names(t, knockout.entrants) == ["P1", "P2", "P3", "P4"]
    semis = open_matches(t)
    assert sorted(sorted(names(t, [m.pair_a_id, m.pair_b_id])) for m in semis) == [["P1", "P4"], ["P2", "P3"]]
    first = next(m for m in semis if ids["P1"] in (m.pair_a_id, m.pair_b_id))
    decide(c, first, ids["P1"])
    return c, ids, knockout


def _group_match(t, ids, first, second):
    return Match.objects.get(round__stage__position=1, pair_a_id__in=[ids[first], ids[second]],
                             pair_b_id__in=[ids[first], ids[second]])


def test_a_tentos_correction_that_swaps_seeds_2_and_3_is_accepted(t, org):
    """P2 v P6 corrected from 12-0 to 12-8: P2's saldo +4, below P3's +7: seeds P1 P3 P2 P4, and the
    semifinals are still P1 v P4 (played) and P3 v P2."""
    c, ids, knockout = _six_then_top_four(t, org)
    match = _group_match(t, ids, "P2", "P6")
    decide(c, match, ids["P2"], 8, reason="tentos miscounted")
    result = Result.objects.get(match=match)
    assert (result.points_a, result.points_b) in ((12, 8), (8, 12))
    assert c.get(f"{API}stages/2/qualifiers/").json()["names"] == ["P1", "P3", "P2", "P4"]
    knockout.refresh_from_db()
    assert names(t, knockout.entrants) == ["P1", "P2", "P3", "P4"]  # the bracket stays as drawn
    assert Result.objects.filter(match__round__stage=knockout).count() == 1  # the semifinal played stays


def test_a_correction_that_changes_a_played_semifinal_is_refused(t, org):
    """P4's loss to P1 corrected from 0-12 to 11-12: P4's saldo +13, above P2's +12: seeds P1 P4 P2 P3
    would make the semifinals P1 v P3 and P4 v P2, but P1 v P4 was played: refused, 409 naming the
    knockout and the seeding."""
    c, ids, knockout = _six_then_top_four(t, org)
    match = _group_match(t, ids, "P1", "P4")
    response = decide(c, match, ids["P1"], 11, expect=409)
    assert response.json()["field"] == "stage" and "seeding" in response.json()["message"]
    result = Result.objects.get(match=match)
    assert 11 not in (result.points_a, result.points_b)


# ---- point 2: the option of a later stage

def test_the_unequal_groups_rule_is_an_option_of_the_stage(t, org):
    f.pairs(t, 9)
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin", "group_count": 2}, format="json")
    response = c.post(f"{API}stages/", {"format": "single_elimination", "qualification": "per_group",
                                        "qualifiers_per_group": 1, "qualifiers": 2}, format="json")
    assert response.status_code == 201 and response.json()["unequal_groups"] == "drop_last"
    response = c.patch(f"{API}stages/2/", {"unequal_groups": "per_match"}, format="json")
    assert response.status_code == 200 and response.json()["unequal_groups"] == "per_match"
    response = c.patch(f"{API}stages/2/", {"unequal_groups": "bye"}, format="json")
    assert response.status_code == 400 and "unequal_groups" in str(response.json())


# ---- point 3: the final placings table explains every row

def test_swiss_then_top_4_each_row_has_the_figures_of_the_stage_that_placed_it(t, org):
    """Swiss of 8 (3 rounds, the lower number wins, the loser scoring its number of tentos) -> top 4.
    Places 5-8 are the Swiss's: their wins, Buchholz and saldo are recomputed here from the Swiss
    results alone and must be in the Swiss order; places 1-4 are the bracket's, with the knockout's
    own wins. The CSV names each row's stage, and ?stage=1 gives the Swiss table alone."""
    pairs = f.pairs(t, 8)
    f.seed_in_order(pairs)
    c = client(org)
    c.put(f"{API}stage/", {"format": "swiss", "swiss_rounds": 3}, format="json")
    c.post(f"{API}stages/", {"name": "Top 4", "format": "single_elimination", "qualifiers": 4}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    number = {p.pk: int(p.name[1:]) for p in pairs}
    while open_matches(t) or c.post(f"{API}rounds/next/").status_code == 201:
        for m in open_matches(t):
            winner, loser = sorted((m.pair_a_id, m.pair_b_id), key=number.get)
            decide(c, m, winner, number[loser] % 12)
    t.refresh_from_db()
    assert t.status == "finished"
    swiss = list(Result.objects.filter(match__round__stage__position=1))
    won, opponents, diff = {p.pk: 0 for p in pairs}, {p.pk: [] for p in pairs}, {p.pk: 0 for p in pairs}
    for r in swiss:
        won[r.winner_id] += 1
        opponents[r.pair_a_id].append(r.pair_b_id)
        opponents[r.pair_b_id].append(r.pair_a_id)
        diff[r.pair_a_id] += r.points_a - r.points_b
        diff[r.pair_b_id] += r.points_b - r.points_a
    buchholz = {p: sum(won[o] for o in opponents[p]) for p in won}
    table = c.get(f"{API}standings/").json()
    rows = table["rows"]
    assert [(s["position"], s["decided_by"]) for s in table["stages"]] == [(1, "standings"), (2, "bracket")]
    assert [r["stage"] for r in rows] == [2] * 4 + [1] * 4
    for r in rows[4:]:
        assert (r["won"], r["tiebreaks"]["buchholz"], r["point_difference"]) == (
            won[r["pair"]], buchholz[r["pair"]], diff[r["pair"]])
        assert r["played"] == 3 and r["decided_by"] == "standings" and r["stage_name"] == "Swiss system"
    keys = [(r["won"], r["tiebreaks"]["buchholz"]) for r in rows[4:]]
    assert keys == sorted(keys, reverse=True)  # the figures shown agree with the order
    knockout = Result.objects.filter(match__round__stage__position=2)
    ko_won = {p: sum(1 for r in knockout if r.winner_id == p) for p in won}
    assert [r["won"] for r in rows[:4]] == [ko_won[r["pair"]] for r in rows[:4]] and rows[0]["won"] == 2
    response = c.get(f"{API}exports/standings/?format=csv")
    header, first = response.content.decode().splitlines()[:2]
    assert header.split(",")[15:18] == ["stage", "stage_name", "decided_by"]
    assert first.split(",")[15:18] == ["2", "Top 4", "bracket"]
    own = c.get(f"{API}exports/standings/?stage=1").json()
    assert own["stage"] == 1 and "stage" not in own["columns"]
    assert [r["pair_id"] for r in own["rows"]][4:] == [r["pair"] for r in rows[4:]]
    assert c.get(f"{API}exports/standings/?stage=9").status_code == 404
    page = client().get(f"/torneios/{t.slug}/classificacao/").content.decode()
    assert "Decided in" in page and 'data-testid="standings-legend"' in page and "?stage=1&amp;format=csv" in page
