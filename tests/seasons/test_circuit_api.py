"""The API of circuits and ratings: the circuits with their rules, one circuit's ranking
per player and per pair, a player's rating history; documented in the OpenAPI schema."""
import pytest

from tests.people.helpers import event
from tests.tournaments import factories as f
from people.models import Player
from scoring.models import Match
from tournaments import services
from tournaments.models import Pair
from seasons.models import Circuit, CircuitPlacing, CircuitStage
from seasons.services import ratings

pytestmark = pytest.mark.django_db


def second_stage(org, ana):
    """Ana with a new partner beats new rivals (pairs made directly: the registration rules are not tested here)."""
    t = f.tournament(org, "etapa-2")
    mine = Pair.objects.create(tournament=t, name="Ana e Nova", first_player=ana,
                               second_player=Player.objects.create(name="Nova Parceira"))
    rivals = Pair.objects.create(tournament=t, name="Rivais 2", first_player=Player.objects.create(name="R1"),
                                 second_player=Player.objects.create(name="R2"))
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t)
    services.set_result(match, org, winner=mine.pk, games=[1, 0],
                        points=[12, 7] if match.pair_a_id == mine.pk else [7, 12], reason="test")
    return t, mine, rivals, match


def test_circuits_ranking_and_a_players_rating_history():
    org = f.user("org")
    t1, ana1, rivals1, match1 = event(org, "etapa-1", {"name": "Ana Souza"})
    t2, ana2, rivals2, match2 = second_stage(org, ana1.first_player)
    circuit = Circuit.objects.create(name="Circuito", season="2026", slug="circuito-2026", organizer=org,
                                     points=[100, 80], best_of=1)
    for number, (t, win, lose) in enumerate([(t1, ana1, rivals1), (t2, ana2, rivals2)], 1):
        stage = CircuitStage.objects.create(circuit=circuit, tournament=t, number=number)
        CircuitPlacing.objects.create(stage=stage, pair=win, place=1)
        CircuitPlacing.objects.create(stage=stage, pair=lose, place=2)
    client = f.api_client()
    listed = client.get("/api/circuits/").json()
    assert [c["slug"] for c in listed] == ["circuito-2026"]
    assert listed[0]["points"] == [100, 80] and [s["number"] for s in listed[0]["stages"]] == [1, 2]
    detail = client.get("/api/circuits/circuito-2026/").json()
    ana = ana1.first_player
    top = detail["players"][0]
    assert top["players"] == [{"id": ana.pk, "name": "Ana Souza"}]
    assert (top["rank"], top["counted_points"], top["total_points"], top["stages_played"]) == (1, 100, 200, 2)
    assert [s["counted"] for s in top["stages"]].count(True) == 1  # best 1 of 2
    assert len(detail["pairs"]) == 4  # Ana changed partners: two pairs; the rivals two more
    assert "pairs" not in client.get("/api/circuits/circuito-2026/?by=player").json()
    assert client.get("/api/circuits/nada/").status_code == 404

    ratings.sync_ratings()
    history = client.get(f"/api/people/players/{ana.pk}/ratings/").json()
    assert history["matches"] == 2 and [h["match"] for h in history["history"]] == [match1.pk, match2.pk]
    assert history["rating"] == history["history"][-1]["rating"] and history["method"] == "match"
    newcomer = client.get(f"/api/people/players/{rivals1.first_player.pk}/ratings/").json()
    assert newcomer["matches"] == 1 and newcomer["rating"] < history["rating"]

    schema = client.get("/api/schema/?format=json").json()
    for address in ("/api/circuits/", "/api/circuits/{slug}/", "/api/people/players/{player_id}/ratings/"):
        assert "get" in schema["paths"][address], address
