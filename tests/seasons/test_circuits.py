"""Circuits: a season of one organizer's tournaments ranked per player and per pair
from the stages' final placings, best N of M stages, with the tiebreaks of
draw/pairing/circuit.py. The done-when test plays three stages of 16 players who change
partners, every match an official result, and checks the ranking against a hand computation."""
from __future__ import annotations

import datetime

import pytest

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401  (autouse: messages in English)
from tests.tournaments.pages_fixtures import open_matches
from tournaments import services
from tournaments.models import Pair, Player, Tournament
from seasons.models import CircuitPlacing
from seasons.services import circuits

pytestmark = pytest.mark.django_db

# Each stage: 8 pairs in seed order (player numbers); the better seed wins every match, so the
# places are seeds 1, 2, 3 (third-place match), 4, and seeds 5-8 share 5th.
STAGES = [
    [(1, 2), (3, 4), (5, 6), (7, 8), (9, 10), (11, 12), (13, 14), (15, 16)],
    [(9, 16), (1, 3), (10, 15), (2, 4), (5, 7), (6, 8), (11, 13), (12, 14)],
    [(2, 9), (5, 6), (1, 10), (3, 11), (4, 12), (13, 16), (7, 14), (8, 15)],  # 5 and 6 together again
]
POINTS = [100, 80, 65, 55, 45]  # best 2 of 3 stages

# The hand computation. Stage points per player (1st 100, 2nd 80, 3rd 65, 4th 55, 5th 45):
#   p1 100 80 65 -> best two 180, all 245        p9  45 100 100 -> 200, 245
#   p2 100 55 100 -> 200, 255                    p10 45 65 65  -> 130, 175
#   p3 80 80 55  -> 160, 215                     p11 45 45 55  -> 100, 145 (places 5 5 4)
#   p4 80 55 45  -> 135, 180                     p12 45 45 45  -> 90, 135
#   p5 65 45 80  -> 145, 190 (places 3 5 2)      p13 45 45 45  -> 90, 135
#   p6 65 45 80  -> 145, 190 (places 3 5 2)      p14 45 45 45  -> 90, 135
#   p7 55 45 45  -> 100, 145 (places 4 5 5)      p15 45 65 45  -> 110, 155
#   p8 55 45 45  -> 100, 145 (places 4 5 5)      p16 45 100 45 -> 145, 190 (places 5 1 5)
# 200: p2 above p9 on all points (255 > 245); 180 p1; 160 p3; 145: p16 has a 1st place
# (countback) above p5 and p6, who are equal in everything (shared 6th); 135 p4; 130 p10; 110 p15;
# 100: p11 was 4th in the last stage, p7 and p8 5th (recency), p7 and p8 share 12th; 90: shared 14th.
EXPECTED_PLAYERS = [
    (1, 2, 200), (2, 9, 200), (3, 1, 180), (4, 3, 160), (5, 16, 145), (6, 5, 145), (6, 6, 145), (8, 4, 135),
    (9, 10, 130), (10, 15, 110), (11, 11, 100), (12, 7, 100), (12, 8, 100), (14, 12, 90), (14, 13, 90),
    (14, 14, 90),
]
# Per pair (a pair is its two players): 5+6 played twice (65 + 80 = 145) and leads; the 100s by
# recency (stage 3's winners, then stage 2's, then stage 1's), then 80s, 65s, 55s likewise; the
# 45s of one stage share a place.
EXPECTED_PAIRS_TOP = [
    (1, {5, 6}, 145), (2, {2, 9}, 100), (3, {9, 16}, 100), (4, {1, 2}, 100), (5, {1, 3}, 80), (6, {3, 4}, 80),
    (7, {1, 10}, 65), (8, {10, 15}, 65), (9, {3, 11}, 55), (10, {2, 4}, 55), (11, {7, 8}, 55),
]


def organizer(username: str):
    """An organizer (not staff): may create tournaments, so circuits too."""
    from django.contrib.auth.models import Permission

    user = f.user(username)
    user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


def play_stage(org, players: dict[int, Player], number: int, seeds, circuit) -> Tournament:
    """Stage 1 joins the circuit before it is played (its placings count once it finishes), the
    others once finished (their placings are copied when they join)."""
    t = f.tournament(org, slug=f"etapa-{number}", date=datetime.date(2026, 3, number))
    if number == 1:
        circuits.add_circuit_stage(circuit, t, org)
    pairs = [Pair.objects.create(tournament=t, name=f"{a}+{b}", first_player=players[a], second_player=players[b])
             for a, b in seeds]
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="single_elimination", third_place=True, seeding="order")
    services.generate_first_round(t, org)
    seed = {p.pk: i for i, p in enumerate(pairs)}
    while matches := open_matches(t):
        if number == 1:
            assert not CircuitPlacing.objects.filter(stage__tournament=t).exists()  # not final yet
        for m in matches:
            winner = m.pair_a if seed[m.pair_a_id] < seed[m.pair_b_id] else m.pair_b
            a_won = winner.pk == m.pair_a_id
            services.set_result(m, org, winner=winner.pk, games=[1, 0] if a_won else [0, 1],
                                points=[12, 6] if a_won else [6, 12], reason="etapa")
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    if number > 1:
        circuits.add_circuit_stage(circuit, t, org)
    return t


@pytest.fixture
def season():
    org = organizer("org")
    players = {n: Player.objects.create(name=f"Jogador {n:02d}") for n in range(1, 17)}
    circuit = circuits.create_circuit(org, name="Circuito", season="2026", points=POINTS, best_of=2)
    for number, seeds in enumerate(STAGES, start=1):
        play_stage(org, players, number, seeds, circuit)
    return circuit, players


def test_three_stage_circuit_of_16_players_changing_partners_matches_the_hand_computation(season):
    circuit, players = season
    number = {p.pk: n for n, p in players.items()}
    ranking = circuits.circuit_ranking_of(circuit)
    assert [s.number for s in ranking.stages] == [1, 2, 3]
    assert all(s.final_at is not None for s in ranking.stages)
    assert [(r.line.rank, number[r.line.entrant], r.line.counted_points) for r in ranking.players] \
        == EXPECTED_PLAYERS
    p2 = ranking.players[0].line
    assert [(s.stage, s.place, s.points, s.counted) for s in p2.stages] == [
        (1, 1, 100, True), (2, 4, 55, False), (3, 1, 100, True)]
    assert [(r.line.rank, {number[i] for i in r.line.entrant}, r.line.counted_points)
            for r in ranking.pairs[:11]] == EXPECTED_PAIRS_TOP
    assert len(ranking.pairs) == 23
    assert {r.line.rank for r in ranking.pairs[11:15]} == {12}
    assert [r.line.decided_by for r in ranking.players[:2]] == [None, "total_points"]


def test_circuit_pages_exports_and_stage_list(season, client):
    circuit, players = season
    page = client.get(f"/circuitos/{circuit.slug}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('data-testid="circuit-row"') == 16
    assert "Jogador 02" in html.split('data-testid="circuit-row"')[1]  # first: p2, 200 points
    assert "(55)" in html  # p2's stage 2 does not count
    pairs = client.get(f"/circuitos/{circuit.slug}/?por=duplas").content.decode()
    assert pairs.count('data-testid="circuit-row"') == 23
    assert client.get(f"/circuitos/{circuit.slug}/telao/").content.decode().count("<li>") == 16
    stages = client.get(f"/circuitos/{circuit.slug}/etapas/").content.decode()
    assert stages.count('data-testid="circuit-stage"') == 3
    first = stages.split('data-testid="circuit-stage"')[1]
    assert "Jogador 01 / Jogador 02</small></td><td class=\"num\">100<" in first
    csv = client.get(f"/circuitos/{circuit.slug}/ranking.csv")
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().splitlines()
    assert lines[0] == "rank,entrant,players,counted_points,total_points,stages_played,decided_by,stage_1,stage_2,stage_3"
    assert lines[1] == f"1,{players[2].pk},Jogador 02,200,255,3,,100,(55),100"
    data = client.get(f"/circuitos/{circuit.slug}/ranking.json?por=duplas").json()
    assert data["by"] == "pair" and data["best_of"] == 2 and len(data["rows"]) == 23
    assert data["rows"][0]["counted_points"] == 145
    assert client.get(f"/circuitos/{circuit.slug}/ranking.xml").status_code == 404


def test_circuit_rules_and_stages_are_checked():
    org, other = organizer("org"), organizer("other")
    with pytest.raises(services.Forbidden):
        circuits.create_circuit(f.user("player"), name="C")
    with pytest.raises(services.TournamentError) as e:
        circuits.create_circuit(org, name="C", points=[50, 80])
    assert e.value.field == "points"
    with pytest.raises(services.TournamentError) as e:
        circuits.create_circuit(org, name="C", points=[50], best_of=0)
    assert e.value.field == "best_of"
    circuit = circuits.create_circuit(org, name="C")
    t = f.tournament(other, slug="de-outro")
    with pytest.raises(services.Forbidden):  # not the circuit's organizer
        circuits.add_circuit_stage(circuit, t, other)
    with pytest.raises(services.TournamentError) as e:
        circuits.add_circuit_stage(circuit, t, org)
    assert e.value.field == "tournament"
    mine = f.tournament(org, slug="minha")
    circuits.add_circuit_stage(circuit, mine, org)
    with pytest.raises(services.TournamentError):
        circuits.add_circuit_stage(circuit, mine, org)


def test_a_place_set_by_hand_after_the_end_reaches_the_circuit():
    org = organizer("org")
    players = {n: Player.objects.create(name=f"J{n}") for n in range(1, 17)}
    circuit = circuits.create_circuit(org, name="C", points=POINTS)
    t = play_stage(org, players, 1, STAGES[0], circuit)
    last = Pair.objects.get(tournament=t, name="15+16")
    assert CircuitPlacing.objects.get(pair=last).place == 5
    services.override_placing(t, org, pair=last.pk, place=1, reason="decisão da comissão (art. 26)")
    assert CircuitPlacing.objects.get(pair=last).place == 1


def test_the_organizer_creates_a_circuit_and_adds_a_stage_on_its_pages(client):
    org, other = organizer("org"), organizer("other")
    assert client.get("/circuitos/novo/").status_code == 302  # login first
    client.force_login(org)
    bad = client.post("/circuitos/novo/", {"name": "Circuito", "points": "50, 80", "beyond_points": 0})
    assert bad.status_code == 400 and "points" in bad.context["form"].errors
    made = client.post("/circuitos/novo/", {"name": "Circuito", "season": "2026", "points": "100; 80, 60",
                                            "beyond_points": 5, "best_of": 3})
    assert made.status_code == 302 and made["Location"] == "/circuitos/circuito-2026/"
    circuit = circuits.Circuit.objects.get(slug="circuito-2026")
    assert (circuit.points, circuit.beyond_points, circuit.best_of, circuit.organizer) == ([100, 80, 60], 5, 3, org)
    mine = f.tournament(org, slug="minha")
    f.tournament(other, slug="alheia")
    page = client.get("/circuitos/circuito-2026/etapas/").content.decode()
    assert 'value="minha"' in page and 'value="alheia"' not in page
    client.post("/circuitos/circuito-2026/etapas/nova/", {"tournament": "minha"})
    assert list(circuit.stages.values_list("tournament__slug", "number")) == [("minha", 1)]
    assert 'data-testid="stage-not-final"' in client.get("/circuitos/circuito-2026/etapas/").content.decode()
    refused = client.post("/circuitos/circuito-2026/etapas/nova/", {"tournament": "alheia"}, follow=True)
    assert "tournament:" in refused.content.decode() and circuit.stages.count() == 1
    client.force_login(other)
    assert client.post("/circuitos/circuito-2026/etapas/nova/", {"tournament": "alheia"}).status_code == 403
    assert mine.circuit_stages.count() == 1
