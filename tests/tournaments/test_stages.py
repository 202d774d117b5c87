"""A tournament as an ordered list of stages, each with its format, tiebreaks and
qualifiers rule, and the match format per stage and per round; played through the REST API."""
from collections import defaultdict

import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client as client
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import AuditEntry, Pair, Result, Round, Stage

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


def number(pair_id):
    """The pair's number ("P7" is 7). Not memoized: a rolled-back test's ids come back in the next one."""
    return int(Pair.objects.get(pk=pair_id).name[1:])


def open_matches(t):
    return list(Match.objects.filter(tournament=t, tournament_result__isnull=True).order_by("table", "pk"))


def result_body(match, winner_id, loser_points):
    """A consistent result (games to 12): the winner takes every game it needs 12 to ``loser_points``
    and, in a best of 3 or 5, loses one game 11-12."""
    need = match.best_of // 2 + 1
    lost = 1 if match.best_of > 1 else 0
    won_points, lost_points = 12 * need + 11 * lost, loser_points * need + 12 * lost
    a_won = winner_id == match.pair_a_id
    return {"winner": winner_id, "games": [need, lost] if a_won else [lost, need],
            "points": [won_points, lost_points] if a_won else [lost_points, won_points], "reason": "test"}


def play_round(t, c, loser_points=lambda winner, loser: 5, favourite=min):
    for m in open_matches(t):
        winner = m.pair_a_id if favourite(number(m.pair_a_id), number(m.pair_b_id)) == number(m.pair_a_id) \
            else m.pair_b_id
        loser = m.pair_b_id if winner == m.pair_a_id else m.pair_a_id
        response = c.post(f"{API}matches/{m.pk}/result/", result_body(m, winner, loser_points(winner, loser)),
                          format="json")
        assert response.status_code == 200, response.json()


def test_swiss_of_24_pairs_then_top_8_knockout_best_of_3_semifinals_and_final(t, org):
    pairs = f.pairs(t, 24)
    f.seed_in_order(pairs)
    c = client(org)
    assert c.put(f"{API}stage/", {"format": "swiss", "swiss_rounds": 5}, format="json").status_code == 200
    response = c.post(f"{API}stages/", {"name": "Top 8", "format": "single_elimination", "qualifiers": 8,
                                        "round_best_of": {"-2": 3, "-1": 3}}, format="json")
    assert response.status_code == 201, response.json()
    stages = c.get(f"{API}stages/").json()
    assert [(s["position"], s["format"], s["state"]) for s in stages] == [
        (1, "swiss", "waiting"), (2, "single_elimination", "waiting")]
    assert client().post(f"{API}stages/", {"format": "swiss"}, format="json").status_code in (401, 403)

    # the Swiss: the lower-numbered pair wins, the loser scoring (its number mod 12) tentos per game
    c.post(f"{API}rounds/generate/", {}, format="json")
    points = lambda winner, loser: number(loser) % 12  # noqa: E731
    for _round in range(1, 6):
        play_round(t, c, points)
        response = c.post(f"{API}rounds/next/")
        assert response.status_code == 201, response.json()
    knockout_round = Round.objects.get(tournament=t, number=6)
    assert knockout_round.phase == "bracket" and knockout_round.stage.position == 2

    # the qualifiers: the Swiss standings computed here by hand (matches won, Buchholz, head-to-head,
    # point difference, points scored), top 8
    results = list(Result.objects.filter(match__round__stage__position=1))
    won, opponents, diff = defaultdict(int), defaultdict(list), defaultdict(int)
    for r in results:
        won[r.winner_id] += 1
        opponents[r.pair_a_id].append(r.pair_b_id)
        opponents[r.pair_b_id].append(r.pair_a_id)
        diff[r.pair_a_id] += r.points_a - r.points_b
        diff[r.pair_b_id] += r.points_b - r.points_a
    buchholz = {p.pk: sum(won[o] for o in opponents[p.pk]) for p in pairs}
    key = {p.pk: (won[p.pk], buchholz[p.pk], diff[p.pk]) for p in pairs}
    top = sorted(key, key=lambda p: key[p], reverse=True)[:8]
    knockout = Stage.objects.get(tournament=t, position=2)
    assert set(knockout.entrants) == set(top)
    swiss_rows = c.get(f"{API}stages/1/standings/").json()["rows"]
    assert [r["pair"] for r in swiss_rows][:8] == knockout.entrants  # seeded from the Swiss standings
    assert [key[r["pair"]] for r in swiss_rows] == sorted(key.values(), reverse=True)

    # the knockout: quarterfinals best of 1, semifinals and final best of 3
    quarterfinals = open_matches(t)
    assert len(quarterfinals) == 4 and {m.best_of for m in quarterfinals} == {1}
    seeds = knockout.entrants
    assert {frozenset((m.pair_a_id, m.pair_b_id)) for m in quarterfinals} == {
        frozenset((seeds[i], seeds[7 - i])) for i in range(4)}
    play_round(t, c)
    semifinals = open_matches(t)
    assert len(semifinals) == 2 and {m.best_of for m in semifinals} == {3}
    play_round(t, c)
    (final,) = open_matches(t)
    assert final.best_of == 3 and final.round.name == "Final"
    play_round(t, c)
    assert {m.best_of for m in Match.objects.filter(round__stage=knockout.pk)} == {1, 3}  # each kept its format
    bracket = c.get(f"{API}bracket/").json()
    champion = min(seeds, key=number)
    assert bracket["champion"] == champion and bracket["complete"]
    t.refresh_from_db()
    assert t.status == "finished"
    rows = c.get(f"{API}standings/").json()["rows"]
    assert rows[0]["pair"] == champion and [r["place"] for r in rows][:9] == [1, 2, 3, 3, 5, 5, 5, 5, 9]
    assert {r["pair"] for r in rows[:8]} == set(seeds)
    assert [r["pair"] for r in rows][8:] == [r["pair"] for r in swiss_rows][8:]  # the rest in Swiss order
    assert [(s["position"], s["state"]) for s in c.get(f"{API}stages/").json()] == [(1, "complete"),
                                                                                     (2, "complete")]
    assert AuditEntry.objects.filter(action="stage_started").count() == 1
    page = client().get(f"/torneios/{t.slug}/chave/").content.decode()
    assert "2–1" in page  # the best-of-3 matches read in games, each by its own format


def test_groups_then_knockout_as_two_stages_seeded_from_hand_computed_group_tables(t, org):
    """Groups (snake): A = P1 P4 P5 P8, B = P2 P3 P6 P7. The lower number wins every match; in
    group A losers score 6 tentos, in group B 0. By hand: A1 = P1 (3 won, +18), A2 = P4 (2 won),
    B1 = P2 (3 won, +36), B2 = P3. Group winners seeded by record: P2 (+36) seed 1, P1 seed 2;
    crossed: P2 v P4 (B1 v A2) and P1 v P3 (A1 v B2)."""
    pairs = f.pairs(t, 8)
    f.seed_in_order(pairs)
    ids = {p.name: p.pk for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin", "group_count": 2}, format="json")
    response = c.post(f"{API}stages/", {"format": "single_elimination", "qualification": "per_group",
                                        "qualifiers_per_group": 2, "third_place": True}, format="json")
    assert response.status_code == 201, response.json()
    c.post(f"{API}rounds/generate/", {}, format="json")
    group_a = {ids[n] for n in ("P1", "P4", "P5", "P8")}
    points = lambda winner, loser: 6 if winner in group_a else 0  # noqa: E731
    for _ in range(3):
        play_round(t, c, points)
        assert c.post(f"{API}rounds/next/").status_code == 201
    qualifiers = c.get(f"{API}stages/2/qualifiers/").json()
    assert qualifiers["names"] == ["P2", "P1", "P3", "P4"] and qualifiers["problems"] == []
    semis = {frozenset((m.pair_a_id, m.pair_b_id)) for m in open_matches(t)}
    assert semis == {frozenset((ids["P2"], ids["P4"])), frozenset((ids["P1"], ids["P3"]))}
    groups = c.get(f"{API}standings/").json()["groups"]
    assert [(g["name"], [r["pair_name"] for r in g["rows"]]) for g in groups] == [
        ("A", ["P1", "P4", "P5", "P8"]), ("B", ["P2", "P3", "P6", "P7"])]
    assert [r["point_difference"] for r in groups[0]["rows"]][:1] == [18]
    assert [r["point_difference"] for r in groups[1]["rows"]][:1] == [36]
    play_round(t, c)
    play_round(t, c)
    rows = c.get(f"{API}standings/").json()["rows"]
    # the knockout's placings, then the groups stage's table: P5 (1 won, -6), P6 (1 won, -12),
    # P8 (0 won, -18), P7 (0 won, -36)
    assert [r["pair_name"] for r in rows] == ["P1", "P2", "P3", "P4", "P5", "P6", "P8", "P7"]


def test_match_format_per_stage_and_per_round(t, org):
    f.pairs(t, 4)
    c = client(org)
    c.put(f"{API}stage/", {"format": "swiss", "swiss_rounds": 3, "best_of": 3, "round_best_of": {"-1": 5}},
          format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    assert {m.best_of for m in open_matches(t)} == {3}
    play_round(t, c)
    c.post(f"{API}rounds/next/")
    assert {m.best_of for m in open_matches(t)} == {3}
    play_round(t, c)
    c.post(f"{API}rounds/next/")
    assert {m.best_of for m in open_matches(t)} == {5}  # the last round
    assert sorted(Match.objects.filter(tournament=t).values_list("best_of", flat=True)) == [3, 3, 3, 3, 5, 5]
    bad = c.patch(f"{API}stages/2/", {"best_of": 2}, format="json")
    assert bad.status_code == 404
    response = c.post(f"{API}stages/", {"format": "single_elimination", "best_of": 2}, format="json")
    assert response.status_code == 400 and "best_of" in str(response.json())
    response = c.post(f"{API}stages/", {"format": "single_elimination", "round_best_of": {"0": 3}},
                      format="json")
    assert response.status_code == 400 and "round_best_of" in str(response.json())


def test_double_round_robin_meets_every_pair_twice_home_and_away(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", legs=2)
    c = client(org)
    c.post(f"{API}rounds/generate/", {}, format="json")
    for _ in range(5):
        play_round(t, c)
        assert c.post(f"{API}rounds/next/").status_code == 201
    play_round(t, c)
    assert c.post(f"{API}rounds/next/").status_code == 409
    t.refresh_from_db()
    assert t.status == "finished"
    meetings = defaultdict(list)
    for m in Match.objects.filter(tournament=t):
        meetings[frozenset((m.pair_a_id, m.pair_b_id))].append((m.pair_a_id, m.pair_b_id))
    assert len(meetings) == 6 and all(len(v) == 2 and v[0] == v[1][::-1] for v in meetings.values())


def test_consolation_bracket_for_places_5_to_8(t, org):
    """An 8-pair knockout, then a knockout of its quarterfinal losers for places 5-8."""
    pairs = f.pairs(t, 8)
    f.seed_in_order(pairs)
    c = client(org)
    c.put(f"{API}stage/", {"format": "single_elimination", "third_place": True}, format="json")
    c.post(f"{API}stages/", {"name": "Places 5-8", "format": "single_elimination", "third_place": True,
                             "qualify_from": 5, "qualifiers": 4}, format="json")
    c.post(f"{API}rounds/generate/", {}, format="json")
    for _ in range(3):
        play_round(t, c)
    response = c.post(f"{API}rounds/next/")
    assert response.status_code == 201, response.json()
    consolation = Stage.objects.get(tournament=t, position=2)
    assert sorted(number(p) for p in consolation.entrants) == [5, 6, 7, 8]
    for _ in range(2):
        play_round(t, c)
    rows = c.get(f"{API}standings/").json()["rows"]
    assert [r["pair_name"] for r in rows] == [f"P{i}" for i in range(1, 9)]
    assert [r["place"] for r in rows] == list(range(1, 9))


def test_stages_can_be_changed_and_removed_until_they_start(t, org):
    f.pairs(t, 4)
    c = client(org)
    assert c.post(f"{API}stages/", {"format": "swiss"}, format="json").status_code == 409  # no first stage
    c.put(f"{API}stage/", {"format": "swiss", "swiss_rounds": 1}, format="json")
    c.post(f"{API}stages/", {"format": "single_elimination", "qualifiers": 4}, format="json")
    response = c.patch(f"{API}stages/2/", {"qualifiers": 2, "name": "Final"}, format="json")
    assert response.status_code == 200 and response.json()["qualifiers"] == 2
    assert c.delete(f"{API}stages/1/").status_code == 409
    c.post(f"{API}rounds/generate/", {}, format="json")
    assert c.patch(f"{API}stages/1/", {"swiss_rounds": 2}, format="json").status_code == 409
    play_round(t, c)
    assert c.post(f"{API}stages/next/", {}, format="json").status_code == 201
    assert c.delete(f"{API}stages/2/").status_code == 409
    assert c.patch(f"{API}stages/2/", {"qualifiers": 3}, format="json").status_code == 409
    schema = client().get("/api/schema/").content.decode()
    assert "/api/tournaments/{slug}/stages/" in schema and "/api/tournaments/{slug}/stages/next/" in schema


def test_best_third_placed_pairs_across_groups_fill_an_8_pair_knockout(t, org):
    """3 groups of 3 (snake: A = P1 P6 P7, B = P2 P5 P8, C = P3 P4 P9) feed an 8-pair knockout: the
    top 2 of each group and the best 2 thirds. The lower number wins, the loser scoring its number
    of tentos: the thirds P7, P8, P9 lost twice, by hand P7 -10, P8 -8, P9 -6: P9 and P8 go through."""
    pairs = f.pairs(t, 9)
    f.seed_in_order(pairs)
    ids = {p.name: p.pk for p in pairs}
    c = client(org)
    c.put(f"{API}stage/", {"format": "round_robin", "group_count": 3}, format="json")
    response = c.post(f"{API}stages/", {"format": "single_elimination", "qualification": "per_group",
                                        "qualifiers_per_group": 2, "qualifiers": 2}, format="json")
    assert response.status_code == 201, response.json()
    c.post(f"{API}rounds/generate/", {}, format="json")
    points = lambda winner, loser: number(loser) % 12  # noqa: E731
    for _ in range(2):
        play_round(t, c, points)
        assert c.post(f"{API}rounds/next/").status_code == 201
    play_round(t, c, points)
    qualifiers = c.get(f"{API}stages/2/qualifiers/").json()
    assert qualifiers["problems"] == [] and len(qualifiers["names"]) == 8
    assert set(qualifiers["names"][:3]) == {"P1", "P2", "P3"} and set(qualifiers["names"][3:6]) == {"P4", "P5", "P6"}
    assert qualifiers["names"][6:] == ["P9", "P8"]
    assert c.post(f"{API}rounds/next/").status_code == 201
    knockout = Stage.objects.get(tournament=t, position=2)
    assert knockout.entrants == [ids[n] for n in qualifiers["names"]] and len(open_matches(t)) == 4
