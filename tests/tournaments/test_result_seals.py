"""The official result and the standings derived from it, held to the sealed súmula, the W.O. or the
organizer's decision (tournaments/result_seals.py, ``manage.py verify_results``). Each
case tampers with the rows in SQL first, as someone with the database's credentials would."""
from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from scoring import services as scoring
from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import result_seals, services
from tournaments.models import Result

pytestmark = pytest.mark.django_db


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


def verified(*args) -> str:
    """The summary line of a run that found nothing (the ratings may be said not checked: a sync is due)."""
    ok, out = verify(*args)
    assert ok, out
    return out.splitlines()[-1]


@pytest.fixture
def league(t, org):
    """A round robin of four: round 1 played through súmulas (P1 and P2 win), one walkover, one result
    set by the organizer in round 2."""
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    first = list(Match.objects.filter(tournament=t, round__number=1).order_by("table"))
    for match in first:
        winner = next(p for p in pairs[:2] if p.pk in (match.pair_a_id, match.pair_b_id)) \
            if {match.pair_a_id, match.pair_b_id} & {pairs[0].pk, pairs[1].pk} else match.pair_a
        f.play(match, winner, org, loser_points=3)
    services.generate_next_round(t, org)
    second = list(Match.objects.filter(tournament=t, round__number=2).order_by("table"))
    services.record_walkover(second[0], second[0].pair_b_id, org, reason="Não compareceu")
    services.set_result(second[1], org, winner=second[1].pair_a_id, games=[1, 0], points=[12, 7],
                        reason="Decisão da organização")
    return {"t": t, "pairs": pairs, "first": first, "second": second}


def test_every_result_written_is_sealed_and_holds(league):
    assert not Result.objects.filter(server_seal="").exists()
    assert Result.objects.filter(kind="sumula").exclude(sumula_version=None).count() == 2
    assert verified() == "checked: 4; altered: 0"


def test_a_result_changed_in_sql_is_reported_with_the_standings_it_moves(league):
    match = league["first"][0]
    result = Result.objects.get(match=match)
    loser = result.pair_b_id if result.winner_id == result.pair_a_id else result.pair_a_id
    before = [row.pair.pk for row in services.standings(league["t"]).rows]
    a_won = result.winner_id == result.pair_a_id
    sql("UPDATE tournaments_result SET winner_id = %s, games_a = %s, games_b = %s, points_a = points_b, "
        "points_b = points_a WHERE match_id = %s", (loser, 0 if a_won else 1, 1 if a_won else 0, match.pk))
    assert [row.pair.pk for row in services.standings(league["t"]).rows] != before  # what the public sees
    ok, out = verify()
    assert not ok
    assert f"match {match.pk}: result: the server's seal of the result does not hold" in out
    assert f"match {match.pk}: result: winner: the result says {loser}, the sealed súmula (version 1) " \
           f"{result.winner_id}" in out
    assert f"tournament {league['t'].slug}: its standings count results that do not hold" in out


def test_a_status_moved_backwards_hides_nothing(league):
    match = league["first"][1]
    sql("UPDATE scoring_match SET status = 'open' WHERE id = %s", (match.pk,))
    sql("UPDATE tournaments_result SET points_b = 0 WHERE match_id = %s", (match.pk,))
    ok, out = verify()
    assert not ok and f"match {match.pk}: result: the server's seal of the result does not hold" in out
    sql("DELETE FROM tournaments_result WHERE match_id = %s", (match.pk,))
    ok, out = verify()
    assert not ok and (f"match {match.pk}: result: the súmula was received (audit trail) but the match has no "
                       "official result") in out


def test_a_blank_seal_is_not_verifiable(league):
    match = league["second"][0]
    sql("UPDATE tournaments_result SET server_seal = '', server_key = '' WHERE match_id = %s", (match.pk,))
    ok, out = verify()
    assert not ok and f"match {match.pk}: result: no server seal: not verifiable" in out


def test_a_walkover_and_an_organizers_result_are_sealed_the_same_way(league):
    walkover, manual = league["second"]
    sql("UPDATE tournaments_result SET reason = 'Outra razão' WHERE match_id = %s", (manual.pk,))
    sql("UPDATE tournaments_result SET absent_id = pair_a_id, winner_id = pair_b_id, games_a = 0, games_b = 1, "
        "points_a = 0, points_b = 12 WHERE match_id = %s", (walkover.pk,))
    ok, out = verify()
    assert not ok
    assert f"match {walkover.pk}: result: the server's seal of the result does not hold" in out
    assert f"match {manual.pk}: result: the organizer's result is not the one the audit log recorded" in out
    sql("DELETE FROM tournaments_result WHERE match_id = %s", (manual.pk,))
    assert f"match {manual.pk}: result: the organizer set a result (audit log) but the match has none" in verify()[1]


def test_a_result_copied_from_another_sealed_version_is_named(league, org):
    """The row re-sealed by the server itself, but copying numbers the sealed súmula does not say."""
    match = league["first"][0]
    result = Result.objects.get(match=match)
    result.points_a, result.points_b = result.points_b, result.points_a
    result_seals.seal_result(result)  # as if the seal key leaked too: the source check still holds
    sql("UPDATE tournaments_result SET points_a = %s, points_b = %s, server_seal = %s WHERE match_id = %s",
        (result.points_a, result.points_b, result.server_seal, match.pk))
    problems = result_seals.check_result(Result.objects.get(match=match))
    assert [p for p in problems if p.startswith("points: the result says")] and len(problems) == 1


def test_a_correction_received_again_is_followed_and_checked(t, org):
    pairs = f.pairs(t, 2)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    match = Match.objects.get(tournament=t)
    f.play(match, pairs[0], org)
    team = 0 if match.pair_a_id == pairs[1].pk else 1
    scoring.correct(match, [{"op": "replace_hand", "game": 1, "hand": 1, "winner": team, "ended_by": "tricks",
                             "value": 12}], "Mão anotada para a dupla errada", org)
    assert verify()[0]  # reopened: the result still counts version 1, the last received
    f.sign_and_receive(match, org)
    result = Result.objects.get(match=match)
    assert (result.winner_id, result.sumula_version) == (pairs[1].pk, 2)
    assert verified() == "checked: 1; altered: 0"
    sql("UPDATE tournaments_result SET sumula_version = 1, winner_id = %s, games_a = games_b, games_b = games_a "
        "WHERE match_id = %s", (pairs[0].pk, match.pk))
    ok, out = verify()
    assert not ok and "version 2 of the súmula was received later; the result still counts version 1" in out


def test_an_upgraded_install_names_its_results_older_than_the_seals(league, settings):
    """Rows written before this release have no seal and no version: named outside the database, they
    are held to the last received súmula only."""
    match = league["first"][0]
    sql("UPDATE tournaments_result SET server_seal = '', server_key = '', sumula_version = NULL")
    assert not verify()[0]
    settings.SUMULA_UNSEALED_UNTIL = {"result": str(max(Result.objects.values_list("pk", flat=True)))}
    assert verified() == "checked: 4; altered: 0"
    sql("UPDATE tournaments_result SET points_b = 0 WHERE match_id = %s", (match.pk,))
    ok, out = verify()
    assert not ok and f"match {match.pk}: result: points: the result says" in out


def test_a_double_walkover_is_sealed_and_verifies(db):
    """A double W.O. (both pairs absent) is an official result like any other: sealed as it is
    built, so verify_results finds it intact, and altered when changed in SQL."""
    from tests.tournaments import factories as f
    from tournaments import services
    from tournaments.models import Result
    from tournaments.result_seals import check_result

    org = f.user("org-dwo")
    t = f.tournament(org, slug="dupla-ausencia")
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    match = t.matches.filter(tournament_result__isnull=True).first()
    result = services.record_double_walkover(match, org, reason="nenhuma compareceu")
    assert result.kind == Result.Kind.DOUBLE_WALKOVER and check_result(Result.objects.get(pk=result.pk)) == []
    Result.objects.filter(pk=result.pk).update(reason="uma dupla veio")  # tampered in SQL
    assert check_result(Result.objects.get(pk=result.pk))
