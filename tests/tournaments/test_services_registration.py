"""Registration, withdrawal and check-in (tournaments.services)."""
import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import AuditEntry, Bye, CheckIn, Pair, Player, Result, Tournament
from draw.models.stages import stage_in_play

pytestmark = pytest.mark.django_db


def person(name, **extra):
    return {"name": name, **extra}


def test_register_pair_with_new_players_and_a_substitute(t, org):
    pair = services.register_pair(t, org, name="  Os   Zaps ", first_player=person("Ana", nickname="Aninha", club="AABB"),
                                  second_player=person("Bia", contact="11 9999-0000"),
                                  substitute=person("Caio"), rating=1500, seed=2)
    assert pair.name == "Os Zaps" and pair.status == Pair.Status.CONFIRMED
    assert (pair.first_player.nickname, pair.first_player.club.name) == ("Aninha", "AABB")
    assert pair.substitute.name == "Caio" and (pair.rating, pair.seed) == (1500, 2)
    assert AuditEntry.objects.get(tournament=t).action == AuditEntry.Action.PAIR_REGISTERED


def test_a_player_with_the_same_name_and_contact_is_reused(t, org):
    first = services.register_pair(t, org, name="A", first_player=person("Ana", contact="ana@x.br"),
                                   second_player=person("Bia"))
    other = f.tournament(org, slug="outra")
    second = services.register_pair(other, org, name="A", first_player=person("ANA", contact="ana@x.br"),
                                    second_player=person("Duda"))
    assert second.first_player_id == first.first_player_id
    assert Player.objects.filter(name__iexact="ana").count() == 1


@pytest.mark.parametrize("data, field", [
    ({"name": ""}, "name"),
    ({"first_player": None}, "first_player"),
    ({"second_player": {"name": " "}}, "second_player.name"),
    ({"second_player": {"name": "x" * 121}}, "second_player.name"),
    ({"second_player": {"name": "B", "age": 3}}, "second_player.age"),
    ({"rating": -1}, "rating"),
    ({"seed": 0}, "seed"),
    ({"status": "withdrawn"}, "status"),
    ({"first_player": 999999}, "first_player"),
])
def test_bad_registration_names_the_field(t, org, data, field):
    values = {"name": "Dupla", "first_player": person("Ana"), "second_player": person("Bia"), **data}
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, **values)
    assert error.value.field == field
    assert not Pair.objects.exists()


def test_same_person_twice_or_in_two_pairs_is_refused(t, org):
    ana = Player.objects.create(name="Ana")
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, name="A", first_player=ana, second_player=ana.pk)
    assert error.value.field == "second_player"
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, name="A", first_player=ana, second_player=person("Bia"), substitute=ana.pk)
    assert error.value.field == "substitute"
    services.register_pair(t, org, name="A", first_player=ana, second_player=person("Bia"))
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, name="B", first_player=person("Caio"), second_player=ana.pk)
    assert error.value.field == "second_player" and "A" in error.value.message


def test_duplicate_pair_name_and_seed_are_refused(t, org):
    services.register_pair(t, org, name="Zap", first_player=person("A"), second_player=person("B"), seed=1)
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, name="ZAP", first_player=person("C"), second_player=person("D"))
    assert error.value.field == "name"
    with pytest.raises(services.TournamentError) as error:
        services.register_pair(t, org, name="Copas", first_player=person("C"), second_player=person("D"), seed=1)
    assert error.value.field == "seed"


def test_only_the_organizer_or_staff_registers(t, org):
    stranger = f.user("stranger")
    with pytest.raises(services.Forbidden):
        services.register_pair(t, stranger, name="A", first_player=person("A"), second_player=person("B"))
    with pytest.raises(services.Forbidden):
        services.register_pair(t, None, name="A", first_player=person("A"), second_player=person("B"))
    staff = f.operator("staff")
    services.register_pair(t, staff, name="A", first_player=person("A"), second_player=person("B"))


def test_registration_closes_at_the_draw_except_in_a_swiss(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    with pytest.raises(services.Conflict):
        services.register_pair(t, org, name="Late", first_player=person("A"), second_player=person("B"))
    swiss = f.tournament(org, slug="suico")
    f.pairs(swiss, 4)
    services.configure_stage(swiss, org, format="swiss", swiss_rounds=3)
    services.generate_first_round(swiss, org)
    late = services.register_pair(swiss, org, name="Late", first_player=person("A"), second_player=person("B"))
    assert late.status == Pair.Status.CONFIRMED


def test_update_pair_and_pending_pairs_are_not_drawn(t, org):
    pairs = f.pairs(t, 4)
    services.update_pair(pairs[3], org, status="pending", rating=10, substitute={"name": "Zé"})
    pairs[3].refresh_from_db()
    assert pairs[3].status == "pending" and pairs[3].substitute.name == "Zé"
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    playing = {p for m in Match.objects.filter(round=rnd) for p in (m.pair_a_id, m.pair_b_id)}
    playing |= set(Bye.objects.filter(round=rnd).values_list("pair_id", flat=True))
    assert playing == {p.pk for p in pairs[:3]}


def test_withdrawal_needs_a_reason_and_turns_open_matches_into_walkovers(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    with pytest.raises(services.TournamentError) as error:
        services.withdraw_pair(pairs[0], org, "  ")
    assert error.value.field == "reason"
    match = Match.objects.get(round=rnd, pair_a=pairs[0]) if Match.objects.filter(
        round=rnd, pair_a=pairs[0]).exists() else Match.objects.get(round=rnd, pair_b=pairs[0])
    walkovers = services.withdraw_pair(pairs[0], org, "Viajou")
    pairs[0].refresh_from_db()
    assert pairs[0].status == "withdrawn" and pairs[0].withdrawal_reason == "Viajou" and pairs[0].withdrawn_at
    assert [w.match_id for w in walkovers] == [match.pk]
    result = Result.objects.get(match=match)
    assert result.kind == "walkover" and result.absent_id == pairs[0].pk and result.winner_id != pairs[0].pk
    audit = AuditEntry.objects.get(action=AuditEntry.Action.PAIR_WITHDRAWN)
    assert audit.reason == "Viajou" and audit.after["walkovers"] == [match.pk]
    with pytest.raises(services.Conflict):
        services.withdraw_pair(pairs[0], org, "again")


def test_withdrawn_pair_later_round_robin_matches_are_walkovers_without_table(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    for m in Match.objects.filter(round=rnd):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], reason="test")
    services.withdraw_pair(pairs[1], org, "Doente")
    rnd2 = services.generate_next_round(t, org)
    matches = list(Match.objects.filter(round=rnd2))
    wo = [m for m in matches if pairs[1].pk in (m.pair_a_id, m.pair_b_id)]
    assert len(wo) == 1 and wo[0].table is None
    assert Result.objects.get(match=wo[0]).kind == "walkover"
    assert sorted(m.table for m in matches if m not in wo) == [1]


def test_withdrawn_pair_is_not_paired_in_the_next_swiss_round(t, org):
    pairs = f.pairs(t, 6)
    services.configure_stage(t, org, format="swiss", swiss_rounds=3)
    rnd = services.generate_first_round(t, org)
    for m in Match.objects.filter(round=rnd):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], reason="test")
    services.withdraw_pair(pairs[0], org, "Foi embora")
    rnd2 = services.generate_next_round(t, org)
    playing = {p for m in Match.objects.filter(round=rnd2) for p in (m.pair_a_id, m.pair_b_id)}
    playing |= set(Bye.objects.filter(round=rnd2).values_list("pair_id", flat=True))
    assert pairs[0].pk not in playing and len(playing) == 5


def test_check_in_filters_the_draw_when_required(t, org):
    t.check_in_required = True
    t.save()
    pairs = f.pairs(t, 6)
    services.configure_stage(t, org, format="single_elimination")
    rnd = services.upcoming_round(t, org)
    assert rnd.number == 1 and not rnd.is_generated
    for p in pairs[:4]:
        services.check_in(rnd, p, org)
    with pytest.raises(services.Conflict):
        services.check_in(rnd, pairs[0], org)
    services.undo_check_in(rnd, pairs[3], org)
    services.check_in(rnd, pairs[4].pk, org)
    services.generate_first_round(t, org)
    t.refresh_from_db()
    seeds = set(stage_in_play(t).bracket_seeds)
    assert seeds == {pairs[i].pk for i in (0, 1, 2, 4)}
    with pytest.raises(services.Conflict):
        services.check_in(rnd, pairs[5], org)


def test_without_enough_check_ins_there_is_no_draw(t, org):
    t.check_in_required = True
    t.save()
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss")
    services.check_in(services.upcoming_round(t, org), pairs[0], org)
    with pytest.raises(services.Conflict) as error:
        services.generate_first_round(t, org)
    assert error.value.field == "pairs"


def test_swiss_rounds_pair_only_the_pairs_checked_in_for_them(t, org):
    t.check_in_required = True
    t.save()
    pairs = f.pairs(t, 6)
    services.configure_stage(t, org, format="swiss", swiss_rounds=3)
    first = services.upcoming_round(t, org)
    for p in pairs:
        services.check_in(first, p, org)
    rnd = services.generate_first_round(t, org)
    for m in Match.objects.filter(round=rnd):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], reason="test")
    second = services.upcoming_round(t, org)
    assert second.number == 2
    for p in pairs[:4]:
        services.check_in(second, p, org)
    assert services.generate_next_round(t, org).pk == second.pk
    playing = {p for m in Match.objects.filter(round=second) for p in (m.pair_a_id, m.pair_b_id)}
    assert playing == {p.pk for p in pairs[:4]} and not Bye.objects.filter(round=second).exists()
    assert CheckIn.objects.filter(round=second).count() == 4


def test_check_in_of_a_withdrawn_or_foreign_pair_is_refused(t, org):
    pairs = f.pairs(t, 2)
    other = f.tournament(org, slug="outra")
    foreign = f.pairs(other, 1)[0]
    rnd = services.upcoming_round(t, org)
    services.withdraw_pair(pairs[0], org, "x")
    with pytest.raises(services.Conflict):
        services.check_in(rnd, pairs[0], org)
    with pytest.raises(services.TournamentError) as error:
        services.check_in(rnd, foreign, org)
    assert error.value.field == "pair"
    with pytest.raises(services.Forbidden):
        services.check_in(rnd, pairs[1], f.user("x"))
    assert Tournament.objects.get(pk=t.pk).status == "registration"
