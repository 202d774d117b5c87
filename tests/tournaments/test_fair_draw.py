"""Tournaments fair to the last place, through the REST API: a top cut added to a finished
event, a correction refused only when it changes the qualifiers or a played meeting,
the best thirds seeded inside the crossing and compared without their byes."""
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
    need = match.best_of // 2 + 1
    body = {"winner": winner_id, "games": [need, 0] if a_won else [0, need],
            "points": [12 * need, loser_points * need] if a_won else [loser_points * need, 12 * need],
            "reason": reason}
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


# ---- point 6: withdrawals

def test_two_withdrawn_pairs_no_longer_stall_a_league_and_rank_last(t, org):
    """A league of 6, FIDE's Berger table (rd 1: 1-6 2-5 3-4; 2: 6-4 5-3 1-2; 3: 2-6 3-1 4-5; 4: 6-5 1-4 2-3;
    5: 3-6 4-2 5-1), the lower number wins. P1 and P4 withdraw after round 3 (P1 had won 3, P4 2): their
    round-4 match becomes a double W.O. (no winner, a loss each), P1-P5 and P4-P2 in round 5 are W.O.,
    and the league ends. By the tiebreaks alone P1 (3 wins, beat P3) would be 2nd and P4 (2, beat P5) 4th;
    withdrawn pairs rank below every pair still in: P1 and P4 are 5th and 6th."""
    pairs = f.pairs(t, 6)
    f.seed_in_order(pairs)
    ids = {p.name: p.pk for p in pairs}
    number = {p.pk: int(p.name[1:]) for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin"}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")

    def play():
        for m in open_matches(t):
            decide(c, m, min(m.pair_a_id, m.pair_b_id, key=number.get))

    play()
    for _ in range(2):
        assert c.post(f"{API}rounds/next/").status_code == 201
        play()
    for name in ("P1", "P4"):
        assert c.post(f"{API}pairs/{ids[name]}/withdraw/", {"reason": "went home"}, format="json").status_code == 200
    for _ in range(2):
        assert c.post(f"{API}rounds/next/").status_code == 201
        play()
    t.refresh_from_db()
    assert t.status == "finished"
    double = Result.objects.get(kind="double_walkover")
    assert {double.pair_a_id, double.pair_b_id} == {ids["P1"], ids["P4"]} and double.winner_id is None
    assert double.match.round.number == 4 and double.match.table is None
    rows = c.get(f"{API}standings/").json()["rows"]
    assert [(r["pair_name"], r["won"], r["lost"]) for r in rows] == [
        ("P2", 4, 1), ("P3", 3, 2), ("P5", 2, 3), ("P6", 0, 5), ("P1", 3, 2), ("P4", 2, 3)]
    assert [r["rank"] for r in rows] == [1, 2, 3, 4, 5, 6]
    for r in rows:
        assert r["played"] == r["won"] + r["lost"] == 5  # the double W.O. is played and lost by both
    # the option off: by the tiebreaks alone (P1 beat P3, P4 beat P5: head-to-head)
    Stage.objects.filter(tournament=t).update(withdrawn_last=False)
    rows = c.get(f"{API}standings/").json()["rows"]
    assert [r["pair_name"] for r in rows] == ["P2", "P1", "P3", "P4", "P5", "P6"]


def test_the_organizer_records_a_double_walkover_with_a_reason_not_in_a_bracket(t, org):
    f.pairs(t, 4)
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin"}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    m = open_matches(t)[0]
    assert c.post(f"{API}matches/{m.pk}/double-walkover/", {}, format="json").status_code == 400
    response = c.post(f"{API}matches/{m.pk}/double-walkover/", {"reason": "neither came"}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["result"]["kind"] == "double_walkover" and response.json()["result"]["winner"] is None
    assert c.post(f"{API}matches/{m.pk}/double-walkover/", {"reason": "again"}, format="json").status_code == 409
    rows = {r["pair"]: r for r in c.get(f"{API}standings/").json()["rows"]}
    assert (rows[m.pair_a_id]["played"], rows[m.pair_a_id]["lost"], rows[m.pair_a_id]["won"]) == (1, 1, 0)
    page = client().get(f"/torneios/{t.slug}/rodadas/1/").content.decode()
    assert "W.O. × W.O." in page


def test_a_double_walkover_is_refused_in_a_bracket(t, org):
    f.pairs(t, 4)
    c = client(org)
    c.put(f"{API}stage/", {"format": "single_elimination"}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    m = open_matches(t)[0]
    response = c.post(f"{API}matches/{m.pk}/double-walkover/", {"reason": "neither came"}, format="json")
    assert response.status_code == 409 and response.json()["field"] == "match"


def test_a_disqualified_pair_leaves_like_a_withdrawn_one_and_says_so(t, org):
    pairs = f.pairs(t, 4)
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin"}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    assert c.post(f"{API}pairs/{pairs[0].pk}/disqualify/", {}, format="json").status_code == 400  # a reason
    response = c.post(f"{API}pairs/{pairs[0].pk}/disqualify/", {"reason": "art. 5: false name"}, format="json")
    assert response.status_code == 200 and response.json()["disqualified"] is True
    assert response.json()["status"] == "withdrawn"
    entry = AuditEntry.objects.get(action="pair_disqualified")
    assert entry.reason == "art. 5: false name" and entry.after["disqualified"] is True
    assert Result.objects.filter(kind="walkover", absent=pairs[0]).count() == 1  # its round-1 match
    rows = c.get(f"{API}standings/").json()["rows"]
    assert rows[-1]["pair"] == pairs[0].pk and rows[-1]["withdrawn"]
    assert "(disqualified)" in client().get(f"/torneios/{t.slug}/classificacao/").content.decode()
    assert c.post(f"{API}pairs/{pairs[0].pk}/reinstate/", {"reason": "mistake"}, format="json").status_code == 200
    assert Pair.objects.get(pk=pairs[0].pk).disqualified is False


def test_the_organizer_sets_a_final_place_by_hand_with_a_reason(t, org):
    """A league of 4, the lower number wins: P1 P2 P3 P4. The organizer puts P4 third (a tie decided
    by a play-off outside the system): P1 P2 P4 P3, P4's row says why; then takes it back."""
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    number = {p.pk: int(p.name[1:]) for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin"}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    while open_matches(t) or c.post(f"{API}rounds/next/").status_code == 201:
        for m in open_matches(t):
            decide(c, m, min(m.pair_a_id, m.pair_b_id, key=number.get))
    body = {"pair": pairs[3].pk, "place": 3, "reason": "play-off for third"}
    assert client().post(f"{API}placings/override/", body, format="json").status_code in (401, 403)
    assert c.post(f"{API}placings/override/", {**body, "reason": ""}, format="json").status_code == 400
    assert c.post(f"{API}placings/override/", {**body, "place": 5}, format="json").status_code == 400
    response = c.post(f"{API}placings/override/", body, format="json")
    assert response.status_code == 200, response.json()
    rows = response.json()["rows"]
    assert [(r["pair_name"], r["rank"]) for r in rows] == [("P1", 1), ("P2", 2), ("P4", 3), ("P3", 4)]
    assert rows[2]["decided_by"] == "organizer" and rows[2]["override_reason"] == "play-off for third"
    entry = AuditEntry.objects.get(action="placing_overridden")
    assert entry.reason == "play-off for third" and entry.after["placing"]["place"] == 3
    page = client().get(f"/torneios/{t.slug}/classificacao/").content.decode()
    assert "placed by the organizer: play-off for third" in page
    response = c.post(f"{API}placings/override/", {**body, "place": None, "reason": "undone"}, format="json")
    assert [r["pair_name"] for r in response.json()["rows"]] == ["P1", "P2", "P3", "P4"]
    assert AuditEntry.objects.filter(action="placing_overridden").count() == 2



# ---- point 7: formats per match

def test_the_third_place_match_has_its_own_format_and_label(t, org):
    """A knockout of 4, the final best of 3 ("-1": 3), the third-place match best of 1 (its own
    setting): the round holding both is "Final and third-place match", and each match says which
    it is on the round page, the wall sheet and the projector."""
    from public import live_pages

    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    number = {p.pk: int(p.name[1:]) for p in pairs}
    c = client(org)
    response = c.put(f"{API}stage/", {"format": "single_elimination", "third_place": True,
                                     "round_best_of": {"-1": 3}, "third_place_best_of": 1}, format="json")
    assert response.status_code == 200 and response.json()["third_place_best_of"] == 1
    assert c.patch(f"{API}stage/", {"third_place_best_of": 2}, format="json").status_code == 400
    c.post(f"{API}rounds/generate/", {}, format="json")
    for m in open_matches(t):
        assert m.best_of == 1
        decide(c, m, min(m.pair_a_id, m.pair_b_id, key=number.get))
    final_round = open_matches(t)
    by_section = {m.bracket_node.section: m for m in final_round}
    assert by_section["winners"].best_of == 3 and by_section["third_place"].best_of == 1
    rnd = by_section["winners"].round
    assert rnd.name == "Final and third-place match"
    lines = live_pages.wall_sheet_rows(rnd)
    labels = {line.pair: line.label for line in lines}
    assert labels["P1"] == "Final" and labels["P3"] == "Third-place match"
    page = client().get(f"/torneios/{t.slug}/rodadas/{rnd.number}/").content.decode()
    assert "Final and third-place match" in page and "Third-place match" in page
    projector = client().get(f"/torneios/{t.slug}/telao/").content.decode()
    assert 'data-testid="third-place"' in projector


def test_a_double_elimination_grand_final_and_its_reset_share_the_final_format(t, org):
    """Double elimination of 4 with a reset and {"-1": 3}: "-1" is the grand final, so the first grand
    final and the reset are both best of 3 (the reset alone was before); the earlier rounds best of 1."""
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    number = {p.pk: int(p.name[1:]) for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "double_elimination", "grand_final_reset": True, "round_best_of": {"-1": 3}},
          format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    formats = {}
    while open_matches(t):
        for m in open_matches(t):
            node = m.bracket_node
            formats[(node.section, node.bracket_round)] = m.best_of
            if node.section == "grand_final" and node.bracket_round == 1:
                winner = max(m.pair_a_id, m.pair_b_id, key=number.get)  # the losers' bracket side: a reset
            else:
                winner = min(m.pair_a_id, m.pair_b_id, key=number.get)
            decide(c, m, winner)
    assert formats[("grand_final", 1)] == 3 and formats[("grand_final", 2)] == 3
    assert {v for k, v in formats.items() if k[0] != "grand_final"} == {1}


# ---- point 8: byes per stage

def test_a_round_robin_of_three_with_byes_worth_half_and_counted_as_played(t, org):
    """3 pairs, one rests each round. A bye worth half (a draw) and counted as played: each pair played
    3 (2 matches and its bye), P = W + D + L; P1 (2 wins) 2.5 points, P2 1.5, P3 0.5."""
    pairs = f.pairs(t, 3)
    f.seed_in_order(pairs)
    number = {p.pk: int(p.name[1:]) for p in pairs}
    c = client(org)
    response = c.put(f"{API}stage/", {"format": "round_robin", "bye_value": "draw", "bye_played": True,
                                     "tiebreaks": ["match_points", "head_to_head"]}, format="json")
    assert response.status_code == 200 and response.json()["bye_value"] == "draw"
    assert c.patch(f"{API}stage/", {"bye_value": "loss"}, format="json").status_code == 400
    c.post(f"{API}rounds/generate/", {}, format="json")
    while open_matches(t) or c.post(f"{API}rounds/next/").status_code == 201:
        for m in open_matches(t):
            decide(c, m, min(m.pair_a_id, m.pair_b_id, key=number.get))
    table = c.get(f"{API}standings/").json()
    assert table["bye_value"] == "draw" and table["bye_played"] is True
    rows = table["rows"]
    assert [(r["pair_name"], r["played"], r["won"], r["drawn"], r["lost"], r["byes"], r["tiebreaks"]["match_points"])
            for r in rows] == [("P1", 3, 2, 1, 0, 1, 2.5), ("P2", 3, 1, 1, 1, 1, 1.5), ("P3", 3, 0, 1, 2, 1, 0.5)]
    page = client().get(f"/torneios/{t.slug}/rodadas/1/").content.decode()
    assert "Bye (counts as half a win)" in page


def test_two_successive_withdrawals_in_a_round_make_their_match_a_double_walkover(t, org):
    """A league of 4 (Berger rd 1: 1-4, 2-3). P1 withdraws: P1-P4 is a W.O. for P4. P4 withdraws in
    the same round: neither played that match, so it becomes a double W.O. (no winner, a loss each,
    docs/tournaments.md), not a win for P4; P4's other matches are W.O.s for its opponents."""
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    ids = {p.name: p.pk for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin"}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    (m14,) = [m for m in open_matches(t) if {m.pair_a_id, m.pair_b_id} == {ids["P1"], ids["P4"]}]
    assert c.post(f"{API}pairs/{ids['P1']}/withdraw/", {"reason": "ill"}, format="json").status_code == 200
    assert Result.objects.get(match=m14).winner_id == ids["P4"]
    assert c.post(f"{API}pairs/{ids['P4']}/withdraw/", {"reason": "left"}, format="json").status_code == 200
    result = Result.objects.get(match=m14)
    assert result.kind == "double_walkover" and result.winner_id is None and result.absent_id is None
    rows = {r["pair_name"]: r for r in c.get(f"{API}standings/").json()["rows"]}
    assert (rows["P4"]["won"], rows["P4"]["lost"], rows["P1"]["won"], rows["P1"]["lost"]) == (0, 1, 0, 1)
    # the league runs to its end: every later match of P1 and P4 is a W.O. or their double W.O.
    (m23,) = open_matches(t)
    decide(c, m23, ids["P2"])
    for _ in range(2):
        assert c.post(f"{API}rounds/next/").status_code == 201
        for m in open_matches(t):
            decide(c, m, min(m.pair_a_id, m.pair_b_id))
    t.refresh_from_db()
    assert t.status == "finished"
    rows = {r["pair_name"]: r for r in c.get(f"{API}standings/").json()["rows"]}
    assert (rows["P2"]["won"], rows["P3"]["won"], rows["P1"]["won"], rows["P4"]["won"]) == (3, 2, 0, 0)
    assert Result.objects.filter(kind="double_walkover").count() == 1
