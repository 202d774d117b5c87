"""REST API at /api/tournaments/: rounds (generate, next, regenerate), matches (walkover,
result, pairing, tables: overrides with a reason), standings, bracket and audit log."""
import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client as client
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import AuditEntry, Result

pytestmark = pytest.mark.django_db
API = "/api/tournaments/copa/"


def test_generate_the_draw_and_read_the_round(t, org):
    f.pairs(t, 6)
    services.configure_stage(t, org, format="single_elimination", seeding="lot")
    assert client(f.user("x")).post(f"{API}rounds/generate/", {}, format="json").status_code == 403
    assert client().post(f"{API}rounds/generate/", {}, format="json").status_code in (401, 403)
    response = client(org).post(f"{API}rounds/generate/", {"seed": 77}, format="json")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert (body["number"], body["lot_seed"], body["phase"], body["matches"]) == (1, 77, "bracket", 2)
    assert [m["table"] for m in body["match_list"]] == [1, 2]
    assert body["match_list"][0]["bracket_code"] == "W1-2" and body["match_list"][0]["result"] is None
    response = client(org).post(f"{API}rounds/generate/", {}, format="json")
    assert response.status_code == 409 and response.json()["field"] == "round"
    rounds = client().get(f"{API}rounds/").json()
    assert [r["number"] for r in rounds] == [1]
    assert client().get(f"{API}rounds/1/").json()["match_list"][1]["pair_a"]["name"].startswith("P")
    assert client().get(f"{API}rounds/9/").status_code == 404


def test_next_round_and_regenerate(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss", swiss_rounds=2)
    c = client(org)
    assert c.post(f"{API}rounds/next/").status_code == 409
    c.post(f"{API}rounds/generate/", {}, format="json")
    response = c.post(f"{API}rounds/1/regenerate/", {"reason": "mesa trocada"}, format="json")
    assert response.status_code == 200 and response.json()["number"] == 1
    response = c.post(f"{API}rounds/1/regenerate/", {"seed": 3}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "seed"
    assert c.post(f"{API}rounds/next/").status_code == 409
    for m in Match.objects.filter(round__number=1):
        response = c.post(f"{API}matches/{m.pk}/walkover/", {"absent": m.pair_b_id}, format="json")
        assert response.status_code == 200 and response.json()["result"]["kind"] == "walkover"
    response = c.post(f"{API}rounds/1/regenerate/", {}, format="json")
    assert response.status_code == 409
    response = c.post(f"{API}rounds/next/")
    assert response.status_code == 201 and response.json()["number"] == 2
    assert client(f.user("x")).post(f"{API}rounds/2/regenerate/", {}, format="json").status_code == 403
    rounds = client().get(f"{API}rounds/").json()
    assert [(r["number"], r["matches"], r["official"]) for r in rounds] == [(1, 2, 2), (2, 2, 0)]


def test_match_overrides_need_a_reason_and_are_audited(t, org):
    pairs = f.pairs(t, 5)
    f.seed_in_order([pairs[0], pairs[2], pairs[1], pairs[3], pairs[4]])  # round one: P1-P2, P3-P4, bye P5
    services.configure_stage(t, org, format="swiss", swiss_rounds=3)
    services.generate_first_round(t, org)
    m1, m2 = Match.objects.filter(round__number=1).order_by("table")
    c = client(org)
    response = c.post(f"{API}matches/{m1.pk}/pairing/", {"pair_a": pairs[0].pk, "pair_b": pairs[2].pk},
                      format="json")
    assert response.status_code == 400 and "reason" in response.json()
    response = c.post(f"{API}matches/{m1.pk}/pairing/", {"pair_a": pairs[0].pk, "pair_b": pairs[2].pk,
                                                         "reason": "   "}, format="json")
    assert response.status_code == 400
    response = c.post(f"{API}matches/{m1.pk}/pairing/", {"pair_a": pairs[0].pk, "pair_b": pairs[2].pk,
                                                         "reason": "Pai e filho"}, format="json")
    assert response.status_code == 200 and len(response.json()) == 2
    response = c.post(f"{API}matches/{m1.pk}/swap-tables/", {"other": m2.pk, "reason": "Luz"}, format="json")
    assert response.status_code == 200
    assert {m["id"]: m["table"] for m in response.json()} == {m1.pk: 2, m2.pk: 1}
    response = c.post(f"{API}matches/{m1.pk}/result/", {"winner": pairs[0].pk, "games": [1, 0], "reason": ""},
                      format="json")
    assert response.status_code == 400
    response = c.post(f"{API}matches/{m1.pk}/result/", {"winner": pairs[0].pk, "games": [1, 0],
                                                        "points": [12, 7], "reason": "Súmula perdida"},
                      format="json")
    assert response.status_code == 200
    assert response.json()["result"] == {**response.json()["result"], "kind": "manual", "games": [1, 0],
                                         "points": [12, 7], "reason": "Súmula perdida"}
    stranger = client(f.user("x"))
    assert stranger.post(f"{API}matches/{m2.pk}/result/", {"winner": m2.pair_a_id, "games": [1, 0],
                                                           "reason": "x"}, format="json").status_code == 403
    assert stranger.get(f"{API}audit/").status_code == 403
    assert client().get(f"{API}audit/").status_code in (401, 403)
    audit = c.get(f"{API}audit/").json()
    overrides = [(e["action"], e["reason"]) for e in audit if e["action"] in AuditEntry.OVERRIDES]
    assert overrides == [("pairing_changed", "Pai e filho"), ("tables_swapped", "Luz"),
                         ("result_set", "Súmula perdida")]
    assert audit[-1]["actor"] == "org" and audit[-1]["after"]["winner"] == pairs[0].pk
    response = c.post(f"{API}matches/{m1.pk}/walkover/", {"absent": pairs[0].pk}, format="json")
    assert response.status_code == 409
    assert c.post(f"{API}matches/999999/walkover/", {"absent": 1}, format="json").status_code == 404


def test_matches_standings_and_bracket(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    anonymous = client()
    assert anonymous.get(f"{API}bracket/").status_code == 404
    services.generate_first_round(t, org)
    semi1, semi2 = Match.objects.filter(round__number=1).order_by("table")
    f.play(semi1, semi1.pair_a, org)
    services.record_walkover(semi2, semi2.pair_b, org)
    matches = anonymous.get(f"{API}matches/").json()
    assert [m["round"] for m in matches] == [1, 1, 2]
    assert matches[0]["result"]["kind"] == "sumula" and matches[1]["result"]["absent"] == semi2.pair_b_id
    assert anonymous.get(f"{API}matches/?round=2").json()[0]["bracket_code"] == "W2-1"
    assert anonymous.get(f"{API}matches/?round=x").status_code == 400
    final = Match.objects.get(round__number=2)
    assert anonymous.get(f"{API}matches/{final.pk}/").json()["pair_a"]["id"] == pairs[0].pk
    f.play(final, final.pair_b, org)
    bracket = anonymous.get(f"{API}bracket/").json()
    assert bracket["champion"] == final.pair_b_id and bracket["complete"]
    assert bracket["winners"][1][0]["result"]["kind"] == "sumula"
    assert bracket["winners"][0][0]["top"]["name"] == "P1"
    standings = anonymous.get(f"{API}standings/").json()
    assert standings["tiebreaks"] == ["matches_won", "head_to_head", "point_difference", "points_scored"]
    assert standings["rows"][0]["pair"] == final.pair_b_id and standings["rows"][0]["won"] == 2
    assert Result.objects.count() == 3


def test_swiss_standings_over_the_api(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss", swiss_rounds=1, tiebreaks=["matches_won", "buchholz"])
    services.generate_first_round(t, org)
    for m in Match.objects.all():
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], points=[12, 3], reason="t")
    rows = client().get(f"{API}standings/").json()["rows"]
    assert [r["won"] for r in rows] == [1, 1, 0, 0]
    assert set(rows[0]["tiebreaks"]) == {"matches_won", "buchholz"}
