"""Results becoming official advance the tournament: brackets to a champion, next rounds,
walkovers, regenerating rounds, and the organizer's overrides (with reasons, audited)."""
import pytest

from scoring import services as scoring
from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import AuditEntry, BracketNode, Bye, Pair, Result, Round, Tournament
from draw.models.stages import stage_in_play

pytestmark = pytest.mark.django_db


def open_matches(t):
    return list(Match.objects.filter(tournament=t, tournament_result__isnull=True).select_related(
        "pair_a", "pair_b").order_by("round__number", "table", "pk"))


def names(matches):
    return [(m.pair_a.name, m.pair_b.name) for m in matches]


def decide_round(rnd, org, winner="a"):
    for m in Match.objects.filter(round=rnd, tournament_result__isnull=True):
        services.set_result(m, org, winner=m.pair_a_id if winner == "a" else m.pair_b_id,
                            games=[1, 0] if winner == "a" else [0, 1], reason="test")


def test_official_sumulas_advance_a_single_elimination_bracket_to_its_champion(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination", third_place=True)
    services.generate_first_round(t, org)
    semi1, semi2 = open_matches(t)
    assert names([semi1, semi2]) == [("P1", "P4"), ("P2", "P3")]
    f.play(semi1, pairs[3], org, loser_points=5)  # P4 beats P1
    assert len(open_matches(t)) == 1  # the final waits for the other semifinal
    f.play(semi2, pairs[1], org)
    final, third = sorted(open_matches(t), key=lambda m: m.table)
    rnd2 = Round.objects.get(tournament=t, number=2)
    assert final.round == rnd2 and rnd2.name == "Final and third-place match" and (final.table, third.table) == (1, 2)
    assert {final.pair_a.name, final.pair_b.name} == {"P4", "P2"}
    assert {third.pair_a.name, third.pair_b.name} == {"P1", "P3"}
    f.play(final, pairs[1], org)
    t.refresh_from_db()
    assert t.status == "in_progress"  # the third-place match is still to play
    f.play(third, pairs[0], org)
    bracket = services.bracket_json(t)
    assert bracket["champion_name"] == "P2" and bracket["complete"]
    assert bracket["third_place"]["winner"] == pairs[0].pk
    t.refresh_from_db()
    assert t.status == "finished"
    result = Result.objects.get(match=semi1)
    assert (result.kind, result.winner_id, result.games_b, result.points_a, result.points_b) == (
        "sumula", pairs[3].pk, 1, 5, 12)


def test_signed_but_not_received_is_not_official(t, org):
    pairs = f.pairs(t, 2)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    (final,) = open_matches(t)
    f.play(final, pairs[0], org, receive_it=False)
    assert not Result.objects.exists() and services.bracket_json(t)["champion"] is None
    f.receive(final, org)
    assert services.bracket_json(t)["champion"] == pairs[0].pk


def test_a_corrected_sumula_received_again_moves_the_bracket(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    semi1, semi2 = open_matches(t)
    f.play(semi1, pairs[0], org)
    assert BracketNode.objects.get(code="W2-1").top_pair_id == pairs[0].pk
    # the organizer corrects the received súmula (the hand was the other pair's): it reopens,
    # and until it is received again its last official result still counts
    team = 1 if semi1.pair_b_id == pairs[3].pk else 0
    scoring.correct(semi1, [{"op": "replace_hand", "game": 1, "hand": 1, "winner": team, "ended_by": "tricks",
                             "value": 12}], "Mão anotada para a dupla errada", org)
    assert services.standings(t).rows[0].pair == pairs[0]
    f.sign_and_receive(semi1, org)
    result = Result.objects.get(match=semi1)
    assert (result.kind, result.winner_id) == ("sumula", pairs[3].pk)
    assert BracketNode.objects.get(code="W2-1").top_pair_id == pairs[3].pk
    assert AuditEntry.objects.get(action="result_official").before["winner"] == pairs[0].pk


def test_recording_the_official_result_is_idempotent(t, org):
    from scoring import hook

    pairs = f.pairs(t, 2)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    (final,) = open_matches(t)
    f.play(final, pairs[1], org)
    hook.result_official(final)  # scoring tells the tournament again
    assert Result.objects.count() == 1 and not AuditEntry.objects.filter(action="result_ignored").exists()


def test_double_elimination_with_reset_to_champion(t, org):
    pairs = f.pairs(t, 4)
    p1, p2, p3, p4 = pairs
    services.configure_stage(t, org, format="double_elimination", grand_final_reset=True)
    services.generate_first_round(t, org)
    # winners' round 1: P1-P4, P2-P3; the top seeds win
    for m in open_matches(t):
        f.play(m, m.pair_a, org)
    pending = names(open_matches(t))
    assert sorted(pending) == sorted([("P1", "P2"), ("P4", "P3")])
    for m in open_matches(t):
        f.play(m, m.pair_a, org)  # P1 wins the winners' final, P4 the losers' round 1
    (losers_final,) = open_matches(t)
    assert names([losers_final]) == [("P4", "P2")]
    f.play(losers_final, p2, org)
    (grand_final,) = open_matches(t)
    assert names([grand_final]) == [("P1", "P2")]
    f.play(grand_final, p2, org)  # the losers' champion wins: the reset is played
    (reset,) = open_matches(t)
    assert reset.round.name == "Grand final reset"
    f.play(reset, p2, org)
    assert services.bracket_view(t).champion == p2
    t.refresh_from_db()
    assert t.status == "finished"


def test_double_elimination_without_the_reset_being_needed(t, org):
    p1, p2 = f.pairs(t, 2)
    services.configure_stage(t, org, format="double_elimination")
    services.generate_first_round(t, org)
    (first,) = open_matches(t)
    f.play(first, p1, org)
    (grand_final,) = open_matches(t)
    f.play(grand_final, p1, org)
    assert open_matches(t) == [] and services.bracket_view(t).champion == p1


def test_walkover_advances_the_bracket_at_once(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    semi1, semi2 = open_matches(t)
    with pytest.raises(services.TournamentError) as error:
        services.record_walkover(semi1, pairs[1], org)
    assert error.value.field == "absent"
    with pytest.raises(services.Forbidden):
        services.record_walkover(semi1, pairs[0], f.user("x"))
    result = services.record_walkover(semi1, pairs[0], org, reason="Não compareceu")
    assert (result.kind, result.winner_id, result.absent_id, result.games_b, result.points_b) == (
        "walkover", pairs[3].pk, pairs[0].pk, 1, 12)
    with pytest.raises(services.Conflict):
        services.record_walkover(semi1, pairs[3], org)
    services.record_walkover(semi2, pairs[2], org)
    (final,) = open_matches(t)
    assert {final.pair_a_id, final.pair_b_id} == {pairs[3].pk, pairs[1].pk}
    assert AuditEntry.objects.filter(action="walkover").count() == 2


def test_a_withdrawn_pair_loses_its_next_bracket_match_by_walkover(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    semi1, semi2 = open_matches(t)
    f.play(semi1, pairs[0], org)
    services.withdraw_pair(pairs[0], org, "Lesionado")
    f.play(semi2, pairs[1], org)
    final = Match.objects.get(round__number=2)
    assert final.table is None and Result.objects.get(match=final).absent_id == pairs[0].pk
    assert services.bracket_view(t).champion == pairs[1]


def test_withdrawal_of_a_bracket_pair_before_its_match(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    services.withdraw_pair(pairs[3], org, "Desistiu")
    semi1 = Match.objects.get(round__number=1, pair_a=pairs[0])
    assert Result.objects.get(match=semi1).winner_id == pairs[0].pk
    assert BracketNode.objects.get(code="W2-1").top_pair_id == pairs[0].pk


def test_next_round_needs_every_result_official(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss", swiss_rounds=2)
    with pytest.raises(services.Conflict):
        services.generate_next_round(t, org)
    rnd = services.generate_first_round(t, org)
    first, second = Match.objects.filter(round=rnd).order_by("table")
    f.play(first, first.pair_a, org)
    with pytest.raises(services.Conflict) as error:
        services.generate_next_round(t, org)
    assert "1 match" in error.value.message
    f.play(second, second.pair_a, org, receive_it=False)
    with pytest.raises(services.Conflict):
        services.generate_next_round(t, org)
    f.receive(second, org)
    rnd2 = services.generate_next_round(t, org)
    assert rnd2.number == 2
    decide_round(rnd2, org)
    with pytest.raises(services.Conflict) as error:
        services.generate_next_round(t, org)
    t.refresh_from_db()
    assert t.status == "finished"   # the last result finished it: the refusal names that rule
    assert "The tournament is finished" in error.value.message


def test_swiss_next_rounds_have_no_rematch_and_one_bye_each(t, org):
    f.pairs(t, 9)
    services.configure_stage(t, org, format="swiss", swiss_rounds=5,
                            tiebreaks=["matches_won", "buchholz", "points_scored"])
    rnd = services.generate_first_round(t, org)
    met = set()
    byes = []
    for number in range(1, 6):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        for m in Match.objects.filter(round=rnd):
            key = frozenset((m.pair_a_id, m.pair_b_id))
            assert key not in met, f"rematch in round {number}"
            met.add(key)
        byes += list(Bye.objects.filter(round=rnd).values_list("pair_id", flat=True))
        decide_round(rnd, org, winner="a" if number % 2 else "b")
    assert len(byes) == 5 and len(set(byes)) == 5
    # round 2 pairs winners with winners
    rnd2 = Round.objects.get(tournament=t, number=2)
    winners_1 = set(Result.objects.filter(match__round__number=1).values_list("winner_id", flat=True))
    bye_1 = set(Bye.objects.filter(round__number=1).values_list("pair_id", flat=True))
    top = winners_1 | bye_1
    assert sum((m.pair_a_id in top) != (m.pair_b_id in top) for m in Match.objects.filter(round=rnd2)) <= 1


def test_round_robin_runs_to_the_end(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    seen = set()
    for number in (1, 2, 3):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        seen |= {frozenset((m.pair_a_id, m.pair_b_id)) for m in Match.objects.filter(round=rnd)}
        decide_round(rnd, org)
    assert len(seen) == 6
    with pytest.raises(services.Conflict):
        services.generate_next_round(t, org)
    t.refresh_from_db()
    assert t.status == "finished"


def test_groups_then_knockout_crosses_the_qualifiers(t, org):
    pairs = f.pairs(t, 8)
    by_name = {p.name: p for p in pairs}
    services.configure_stage(t, org, format="groups_knockout", group_count=2, qualifiers_per_group=2)
    rnd = services.generate_first_round(t, org)
    # group A: P1 P4 P5 P8, group B: P2 P3 P6 P7; the better seed always wins
    seed = {p.pk: int(p.name[1:]) for p in pairs}
    for number in (1, 2, 3):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        for m in Match.objects.filter(round=rnd):
            winner = m.pair_a_id if seed[m.pair_a_id] < seed[m.pair_b_id] else m.pair_b_id
            services.set_result(m, org, winner=winner, games=[1, 0] if winner == m.pair_a_id else [0, 1],
                                reason="test")
    table = services.standings(t)
    assert [(name, [r.pair.name for r in rows]) for name, rows in table.groups] == [
        ("A", ["P1", "P4", "P5", "P8"]), ("B", ["P2", "P3", "P6", "P7"])]
    knockout = services.generate_next_round(t, org)
    assert knockout.number == 4 and knockout.phase == "bracket" and knockout.name == "Semifinals"
    assert names(services.round_matches(knockout)) == [("P1", "P3"), ("P2", "P4")]
    with pytest.raises(services.Conflict):
        services.generate_next_round(t, org)
    for m in Match.objects.filter(round=knockout):
        f.play(m, m.pair_b, org)
    (final,) = open_matches(t)
    assert final.round.number == 5 and names([final]) == [("P3", "P4")]
    f.play(final, by_name["P4"], org)
    t.refresh_from_db()
    assert t.status == "finished" and services.bracket_view(t).champion == by_name["P4"]


def test_regenerate_only_without_results_or_entries(t, org):
    f.pairs(t, 8)
    services.configure_stage(t, org, format="single_elimination", seeding="lot")
    rnd = services.generate_first_round(t, org, seed=1)
    before = names(services.round_matches(rnd))
    rnd = services.regenerate_round(rnd, org, seed=2, reason="sorteio refeito em público")
    after = names(services.round_matches(rnd))
    stage_in_play(t).refresh_from_db()
    assert before != after and rnd.lot_seed == 2 and stage_in_play(t).lot_seed == 2
    entry = AuditEntry.objects.get(action="round_regenerated")
    assert entry.before["lot_seed"] == 1 and entry.after["lot_seed"] == 2
    assert entry.reason == "sorteio refeito em público"
    rnd = services.regenerate_round(rnd, org)
    assert rnd.lot_seed not in (None, 2)
    match = services.round_matches(rnd)[0]
    scoring.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, org)
    with pytest.raises(services.Conflict) as error:
        services.regenerate_round(rnd, org)
    assert "entries" in error.value.message
    scoring.undo_last(match, org)  # the undo stays in the súmula's log: still refused
    with pytest.raises(services.Conflict):
        services.regenerate_round(rnd, org)


def test_regenerate_refused_once_a_result_exists(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="swiss", swiss_rounds=3)
    rnd = services.generate_first_round(t, org)
    services.regenerate_round(rnd, org)
    match = Match.objects.filter(round=rnd).first()
    services.record_walkover(match, match.pair_b_id, org)
    with pytest.raises(services.Conflict) as error:
        services.regenerate_round(rnd, org)
    assert "result" in error.value.message
    decide_round(rnd, org)
    rnd2 = services.generate_next_round(t, org)
    with pytest.raises(services.Conflict) as error:
        services.regenerate_round(rnd, org)
    assert "last round" in error.value.message
    assert services.regenerate_round(rnd2, org).number == 2
    with pytest.raises(services.TournamentError):
        services.regenerate_round(rnd2, org, seed=3)


def test_bracket_rounds_after_the_draw_are_not_regenerated(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    for m in open_matches(t):
        services.record_walkover(m, m.pair_b, org)
    final = Round.objects.get(tournament=t, number=2)
    with pytest.raises(services.Conflict):
        services.regenerate_round(final, org)
    with pytest.raises(services.Conflict):
        services.generate_next_round(t, org)
    assert {m.pair_a_id for m in open_matches(t)} | {m.pair_b_id for m in open_matches(t)} == {
        pairs[0].pk, pairs[1].pk}


def test_set_result_needs_a_reason_is_audited_and_the_bracket_follows(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    semi1, semi2 = open_matches(t)
    with pytest.raises(services.TournamentError) as error:
        services.set_result(semi1, org, winner=pairs[0], games=[1, 0], reason="")
    assert error.value.field == "reason"
    with pytest.raises(services.TournamentError) as error:
        services.set_result(semi1, org, winner=pairs[0], games=[0, 1], reason="x")
    assert error.value.field == "games"
    with pytest.raises(services.TournamentError) as error:
        services.set_result(semi1, org, winner=pairs[1], games=[1, 0], reason="x")
    assert error.value.field == "winner"
    f.play(semi1, pairs[0], org)
    f.play(semi2, pairs[1], org)
    (final,) = open_matches(t)
    # art. 26: the organizer reverses semifinal 1; the final has not started: it follows
    services.set_result(semi1, org, winner=pairs[3], games=[0, 1], points=[3, 12], reason="Art. 26: decisão")
    final.refresh_from_db()
    assert {final.pair_a_id, final.pair_b_id} == {pairs[3].pk, pairs[1].pk}
    entry = AuditEntry.objects.get(action="result_set")
    assert entry.before["kind"] == "sumula" and entry.before["winner"] == pairs[0].pk
    assert entry.after == {"kind": "manual", "winner": pairs[3].pk, "absent": None, "games": [0, 1],
                           "points": [3, 12], "reason": "Art. 26: decisão"}
    assert entry.actor == org and entry.reason == "Art. 26: decisão"
    # once the final is played, the semifinal can no longer change
    f.play(final, pairs[1], org)
    with pytest.raises(services.Conflict):
        services.set_result(semi1, org, winner=pairs[0], games=[1, 0], reason="again")
    assert Result.objects.get(match=semi1).winner_id == pairs[3].pk
    assert services.bracket_view(t).champion == pairs[1]


def test_a_sumula_received_after_the_organizers_decision_does_not_override_it(t, org):
    pairs = f.pairs(t, 2)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    (final,) = open_matches(t)
    services.set_result(final, org, winner=pairs[1], games=[0, 1], reason="Art. 26")
    f.play(final, pairs[0], org)  # the súmula says otherwise: the organizer's decision stands
    assert Result.objects.get(match=final).winner_id == pairs[1].pk
    assert AuditEntry.objects.filter(action="result_ignored").exists()


def test_change_pairing_in_a_swiss_round_swaps_pairs_and_is_audited(t, org):
    pairs = f.pairs(t, 5)
    # Seeded P1, P3, P2, P4, P5: the top half meets the bottom half, P1-P2 and P3-P4, P5 has the bye.
    f.seed_in_order([pairs[0], pairs[2], pairs[1], pairs[3], pairs[4]])
    services.configure_stage(t, org, format="swiss", swiss_rounds=3)
    rnd = services.generate_first_round(t, org)
    m1, m2 = Match.objects.filter(round=rnd).order_by("table")
    assert names([m1, m2]) == [("P1", "P2"), ("P3", "P4")]
    with pytest.raises(services.TournamentError) as error:
        services.change_pairing(m1, org, pair_a=pairs[0], pair_b=pairs[2], reason=" ")
    assert error.value.field == "reason"
    changed = services.change_pairing(m1, org, pair_a=pairs[0], pair_b=pairs[2], reason="Parentes")
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert names([m1, m2]) == [("P1", "P3"), ("P2", "P4")] and len(changed) == 2
    services.change_pairing(m2, org, pair_a=pairs[4], pair_b=pairs[3], reason="Quem folga joga")
    m2.refresh_from_db()
    assert names([m2]) == [("P5", "P4")]
    assert list(Bye.objects.filter(round=rnd).values_list("pair__name", flat=True)) == ["P2"]
    entries = AuditEntry.objects.filter(action="pairing_changed").order_by("id")
    assert [e.reason for e in entries] == ["Parentes", "Quem folga joga"]
    assert entries[0].before["matches"][0]["pair_b"] == pairs[1].pk


def test_change_pairing_is_refused_outside_swiss_and_on_played_matches(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    m = Match.objects.filter(round=rnd).first()
    with pytest.raises(services.Conflict):
        services.change_pairing(m, org, pair_a=pairs[0], pair_b=pairs[1], reason="x")
    swiss = f.tournament(org, slug="suico")
    sp = f.pairs(swiss, 4)
    f.seed_in_order([sp[0], sp[2], sp[1], sp[3]])  # the top half meets the bottom half: sp0-sp1, sp2-sp3
    services.configure_stage(swiss, org, format="swiss")
    rnd = services.generate_first_round(swiss, org)
    m1, m2 = Match.objects.filter(round=rnd).order_by("table")
    scoring.record_hand(m2, {"winner": 0, "ended_by": "tricks", "value": 1}, org)
    with pytest.raises(services.Conflict):
        services.change_pairing(m1, org, pair_a=sp[0], pair_b=sp[2], reason="x")
    m1.refresh_from_db()
    assert (m1.pair_a_id, m1.pair_b_id) == (sp[0].pk, sp[1].pk)
    assert not AuditEntry.objects.filter(action="pairing_changed").exists()


def test_swap_tables_needs_a_reason_and_moves_the_referees(t, org):
    f.pairs(t, 4)
    ref = f.referee_of(t, f.user("ref"))
    services.assign_referee(t, org, table=1, referee=ref)
    services.configure_stage(t, org, format="swiss")
    rnd = services.generate_first_round(t, org)
    m1, m2 = Match.objects.filter(round=rnd).order_by("table")
    with pytest.raises(services.TournamentError):
        services.swap_tables(m1, m2, org, reason="")
    services.swap_tables(m1, m2, org, reason="Mesa 1 sem luz")
    m1.refresh_from_db()
    m2.refresh_from_db()
    assert (m1.table, m1.referee, m2.table, m2.referee) == (2, None, 1, ref)
    entry = AuditEntry.objects.get(action="tables_swapped")
    assert entry.reason == "Mesa 1 sem luz" and entry.before["matches"][0]["table"] == 1
    other = f.tournament(org, slug="outro")
    f.pairs(other, 2)
    services.configure_stage(other, org, format="swiss")
    foreign = Match.objects.get(round=services.generate_first_round(other, org))
    with pytest.raises(services.TournamentError):
        services.swap_tables(m1, foreign, org, reason="x")


def test_tournament_finishes_and_unfinished_is_in_progress(t, org):
    f.pairs(t, 2)
    services.configure_stage(t, org, format="single_elimination")
    services.generate_first_round(t, org)
    assert Tournament.objects.get(pk=t.pk).status == "in_progress"
    (final,) = open_matches(t)
    services.record_walkover(final, final.pair_b_id, org)
    assert Tournament.objects.get(pk=t.pk).status == "finished"
    assert Pair.objects.get(pk=final.pair_a_id) == services.bracket_view(t).champion


def test_the_knockout_of_groups_can_be_built_again_before_it_is_played(t, org):
    f.pairs(t, 6)
    services.configure_stage(t, org, format="groups_knockout", group_count=2, qualifiers_per_group=2,
                             third_place=True)
    rnd = services.generate_first_round(t, org)
    for number in (1, 2, 3):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        decide_round(rnd, org)
    knockout = services.generate_next_round(t, org)
    before = names(services.round_matches(knockout))
    knockout = services.regenerate_round(knockout, org, reason="conferência")
    assert names(services.round_matches(knockout)) == before and knockout.phase == "bracket"
    assert BracketNode.objects.filter(stage=stage_in_play(t)).count() == 4  # 2 semifinals, final, third place
    with pytest.raises(services.Conflict):
        services.regenerate_round(Round.objects.get(tournament=t, number=1), org)
    with pytest.raises(services.Conflict):
        services.update_tournament(t, org, best_of=3)
    assert services.update_tournament(t, org, venue="Salão").venue == "Salão"
