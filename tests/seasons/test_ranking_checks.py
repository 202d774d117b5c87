"""The numbers that rank people held to the sealed official results by ``manage.py verify_results``
(seasons/ranking_checks.py): a rating or a circuit placing changed in SQL, as someone with the
database's credentials would, is reported naming the player and the match (the stage and the pair).
The public verification page of a súmula names an erased player (LGPD) as they are now."""
from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from people.services import personal_data
from scoring.models import Match, SumulaVersion
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tests.seasons.test_circuits import organizer, play_stage
from tournaments import services
from tournaments.models import Player
from seasons.models import CircuitPlacing, RatingEntry
from seasons.services import circuits, ratings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def sql(statement: str, params=()) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, params)


def verify(*args) -> tuple[bool, str]:
    out = io.StringIO()
    try:
        call_command("verify_results", *args, stdout=out)
    except CommandError:
        return False, out.getvalue()
    return True, out.getvalue()


@pytest.fixture
def rated(t, org):
    """A round robin of four, round 1 played through súmulas, round 2 decided by the organizer; the
    ratings synced."""
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    for match in Match.objects.filter(tournament=t, round__number=1).order_by("table"):
        f.play(match, match.pair_a, org, loser_points=3)
    services.generate_next_round(t, org)
    for match in Match.objects.filter(tournament=t, round__number=2).order_by("table"):
        services.set_result(match, org, winner=match.pair_b_id, games=[0, 1], points=[5, 12], reason="Decisão")
    ratings.sync_ratings(full=True)
    assert RatingEntry.objects.count() == 16
    return t


def test_ratings_in_step_with_the_results_pass(rated):
    ok, out = verify()
    assert ok, out
    assert "rating" not in out


def test_a_rating_raised_in_sql_is_reported_naming_the_player_and_the_match(rated):
    entry = RatingEntry.objects.order_by("sequence", "player_id").first()
    name = Player.objects.get(pk=entry.player_id).name
    sql("UPDATE tournaments_ratingentry SET mu = mu + 5, rating = rating + 200 WHERE id = %s", (entry.pk,))
    ok, out = verify()
    assert not ok
    line = next(x for x in out.splitlines() if x.startswith(f"match {entry.match_id}: rating: player {entry.player_id} "))
    assert f"({name})" in line and "mu " in line and "rating " in line
    ratings.sync_ratings(full=True)  # the sync compares results with what was rated: the row stays changed
    assert not verify()[0]


def test_only_the_mu_changed_is_reported_too(rated):
    entry = RatingEntry.objects.order_by("-sequence", "player_id").first()
    sql("UPDATE tournaments_ratingentry SET mu = mu + 0.5 WHERE id = %s", (entry.pk,))
    ok, out = verify()
    assert not ok
    assert f"match {entry.match_id}: rating: player {entry.player_id} " in out


def test_a_rating_row_deleted_in_sql_is_reported(rated):
    entry = RatingEntry.objects.order_by("sequence", "player_id").first()
    sql("DELETE FROM tournaments_ratingentry WHERE id = %s", (entry.pk,))
    ok, out = verify()
    assert not ok
    assert f"match {entry.match_id}: rating: player {entry.player_id} " in out and "no rating row" in out


def test_ratings_not_yet_synced_are_said_not_checked(t, org):
    f.pairs(t, 2)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t)
    services.set_result(match, org, winner=match.pair_a_id, games=[1, 0], points=[12, 3], reason="Decisão")
    ok, out = verify()  # the decision marked its match; the sync runs after the commit
    assert ok, out
    assert "ratings: not checked, a sync is due" in out


@pytest.fixture
def season():
    org = organizer("org")
    players = {n: Player.objects.create(name=f"Jogador {n:02d}") for n in range(1, 9)}
    circuit = circuits.create_circuit(org, name="Circuito", season="2026", points=[100, 80, 65, 55, 45], best_of=1)
    play_stage(org, players, 1, [(1, 2), (3, 4), (5, 6), (7, 8)], circuit)
    return circuit


def test_a_circuit_place_changed_in_sql_is_reported_with_its_points(season):
    ok, out = verify()
    assert ok, out
    first = CircuitPlacing.objects.get(stage__circuit=season, place=1)
    sql("UPDATE tournaments_circuitplacing SET place = 2 WHERE id = %s", (first.pk,))
    ok, out = verify()
    assert not ok
    assert (f"circuit {season.slug}: stage 1 (etapa-1): pair {first.pair_id} ({first.pair.name}): placed 2 "
            "(80 points), the tournament's final table says 1 (100 points)") in out


def test_a_circuit_placing_added_in_sql_is_reported(season):
    placing = CircuitPlacing.objects.filter(stage__circuit=season).order_by("-place").first()
    sql("DELETE FROM tournaments_circuitplacing WHERE id = %s", (placing.pk,))
    ok, out = verify()
    assert not ok
    assert f"pair {placing.pair_id} ({placing.pair.name}): placed -" in out


def test_an_erased_player_is_named_as_now_on_the_verification_page_and_the_seal_still_holds(t, org, client):
    a, b = f.pairs(t, 2)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t)
    f.play(match, match.pair_a, org, loser_points=2)
    version = SumulaVersion.objects.filter(match=match).order_by("-number").first()
    player = match.pair_a.first_player
    old = player.name
    assert old in str(version.content)
    page = client.get(f"/sumulas/verificar/{version.digest}/")
    assert old in page.content.decode()

    erased = personal_data.erase(player)
    page = client.get(f"/sumulas/verificar/{version.digest}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert old not in html
    assert erased.name in html
    assert match.pair_a.second_player.name in html  # the partner keeps their name
    assert page.context["intact"] and page.context["seal"]
    assert not page.context["problems"]
    assert 'class="panel verdict-ok"' in html and '<p class="seal">✓' in html  # "íntegra", "o selo confere"
    version.refresh_from_db()
    assert old in str(version.content)  # the sealed document itself is unchanged


def test_a_circuits_points_table_raised_in_sql_is_reported(season):
    """Points follow from the place and the circuit's rules: the rules are sealed when the circuit is made."""
    assert verify()[0]
    sql("UPDATE tournaments_circuit SET points = %s WHERE id = %s", ('[300, 80, 65, 55, 45]', season.pk))
    ok, out = verify()
    assert not ok
    assert f"circuit {season.slug}: its rules (points per place [300, 80, 65, 55, 45]" in out
    assert "the server's seal does not hold" in out


@pytest.mark.parametrize("column,value", [("beyond_points", 40), ("best_of", 3)])
def test_the_points_past_the_table_or_the_stages_counted_changed_in_sql_are_reported(season, column, value):
    sql(f"UPDATE tournaments_circuit SET {column} = %s WHERE id = %s", (value, season.pk))
    ok, out = verify()
    assert not ok and f"circuit {season.slug}: its rules" in out


def test_a_stage_moved_to_another_tournament_or_added_in_sql_is_reported(season):
    stage = season.stages.get()
    other = f.tournament(season.organizer, slug="outra-copa")
    sql("UPDATE tournaments_circuitstage SET tournament_id = %s WHERE id = %s", (other.pk, stage.pk))
    ok, out = verify()
    assert not ok and f"circuit {season.slug}: stage 1 (outra-copa): the server's seal does not hold" in out
    sql("UPDATE tournaments_circuitstage SET tournament_id = %s WHERE id = %s", (stage.tournament_id, stage.pk))
    assert verify()[0]
    sql("INSERT INTO tournaments_circuitstage (circuit_id, tournament_id, number, server_seal, server_key) "
        "VALUES (%s, %s, 2, '', '')", (season.pk, other.pk))
    ok, out = verify()
    assert not ok and f"circuit {season.slug}: stage 2 (outra-copa): no server seal: not verifiable" in out


def test_a_circuit_older_than_the_seals_is_accepted_only_when_the_operator_names_it(season, settings):
    sql("UPDATE tournaments_circuit SET server_seal = '', server_key = '' WHERE id = %s", (season.pk,))
    ok, out = verify()
    assert not ok and "no server seal: not verifiable" in out
    settings.SUMULA_UNSEALED_UNTIL = {"circuit": str(season.pk)}
    assert verify()[0]
