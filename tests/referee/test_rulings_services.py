"""Rulings on the súmula (referee.services): propose and confirm with the article (art. 24, art. 23,
house rules), escalation steps (warning, tento, match loss), art. 26 cases decided by the organizer,
appeals within and after the window, overturned (new version, signatures voided) and changed."""
from __future__ import annotations

from datetime import timedelta

import pytest

from config.errors import Conflict, Forbidden, ServiceError
from referee import appeals
from referee import services
from referee.models import Appeal, EscalationPolicy, RefereeSettings, Ruling
from scoring import services as scoring
from scoring.models import PenaltyEntry

from .rulings_setup import *  # noqa: F401,F403
from .rulings_setup import PINS, finish, penalties, sign_both

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    """Messages in their English source (the site speaks Portuguese by default)."""
    from django.utils import translation

    with translation.override("en"):
        yield


def guidance(match, by, value=3, **kw):
    """art. 24: seat 0 (team 0) spoke to the partner; team 1 claims the tento in play."""
    return services.propose(match, 1, 0, "guidance_word", {"value": value}, by, **kw)


def test_table_state_from_the_sumula(match, referee):
    scoring.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, referee)
    state = services.table_state(match, {"value": 6, "raised_team": 0, "any_card": True})
    assert state.score == (0, 3) and state.dealer == 1  # art. 4: the deal passed to the right
    assert (state.value, state.raised_team, state.any_card) == (6, 0, True)
    with pytest.raises(ServiceError) as error:
        services.table_state(match, {"value": 4})
    assert error.value.field == "facts.value"


def test_propose_then_confirm_puts_the_ruling_on_the_sumula_with_its_article(match, referee):
    ruling = guidance(match, referee)
    assert ruling.status == "proposed" and ruling.article == "art. 24" and ruling.points == 3
    assert ruling.beneficiary == 1 and "art. 24" not in ruling.message  # the engine's sentence
    assert penalties(match) == []  # nothing on the súmula before the confirmation
    services.confirm(ruling, referee)
    ruling.refresh_from_db()
    assert ruling.status == "confirmed" and ruling.confirmed_at is not None
    [entry] = penalties(match)
    assert entry["article"] == "art. 24" and entry["ruling"] == ruling.pk
    assert entry["points"] == 3 and entry["offender"] == 0 and entry["beneficiary"] == 1
    assert entry["score"] == [0, 3]
    assert [p.pk for p in ruling.penalties()] == [PenaltyEntry.objects.get().pk]


def test_a_ruling_that_costs_nothing_is_still_on_the_sumula(match, referee):
    """art. 23: a card out of turn stays on the table; the ruling is recorded with 0 points."""
    ruling = services.confirm(services.propose(match, 1, 2, "card_out_of_turn", {}, referee), referee)
    [entry] = penalties(match)
    assert (entry["article"], entry["points"], entry["ruling"]) == ("art. 23", 0, ruling.pk)
    assert entry["score"] == [0, 0]


def test_a_house_rule_infraction_cites_its_source(match, referee):
    ruling = services.confirm(services.propose(match, 0, 1, "stolen_card", {}, referee), referee)
    [entry] = penalties(match)
    assert entry["article"] == ruling.article == "regras 4 jogadores, tento, ex. 1"
    assert entry["points"] == 1 and entry["beneficiary"] == 0


def test_the_claim_is_made_by_the_offenders_opponents(match, referee):
    with pytest.raises(ServiceError) as error:
        services.propose(match, 0, 0, "guidance_word", {}, referee)
    assert error.value.field == "claimant_team"


def test_the_engine_refuses_a_claim_out_of_its_moment(match, referee):
    """art. 14: seeing the partner's cards is an infraction only when the pair faces a raise."""
    with pytest.raises(ServiceError) as error:
        services.propose(match, 1, 0, "saw_partner_cards", {"value": 1}, referee)
    assert "art. 14" in error.value.message
    ruling = services.propose(match, 1, 0, "saw_partner_cards", {"value": 1, "raised_team": 0}, referee)
    assert ruling.points == 1


def test_unknown_code_is_refused(match, referee):
    with pytest.raises(ServiceError) as error:
        services.propose(match, 1, 0, "sneezed", {}, referee)
    assert error.value.field == "code"


def test_escalation_warning_then_tento_then_match_loss(match, referee, organizer, tournament):
    """The nth confirmed ruling of a code against the same pair takes step n of the policy."""
    appeals.set_policy(tournament, organizer, "guidance_word", ["warning", "tento", "match_loss"])
    first = services.confirm(guidance(match, referee), referee)
    assert (first.step, first.step_number, first.points) == ("warning", 1, 0)
    second = services.confirm(guidance(match, referee), referee)
    assert (second.step, second.step_number, second.points) == ("tento", 2, 3)
    third = services.confirm(guidance(match, referee), referee)
    assert (third.step, third.step_number) == ("match_loss", 3)
    match.refresh_from_db()
    assert match.winner == 1  # the offender (team 0) lost the match
    entries = penalties(match)
    assert [e["points"] for e in entries] == [0, 3, 9]
    assert all(e["article"] == "art. 24" for e in entries)
    assert [e["ruling"] for e in entries] == [first.pk, second.pk, third.pk]


def test_match_loss_in_a_best_of_three_wins_every_game_needed(match3, referee, organizer, tournament):
    appeals.set_policy(tournament, organizer, "guidance_word", ["match_loss"])
    ruling = services.confirm(services.propose(match3, 1, 0, "guidance_word", {}, referee), referee)
    match3.refresh_from_db()
    assert match3.winner == 1 and (match3.games_a, match3.games_b) == (0, 2)
    assert [(e["points"], e["ruling"]) for e in penalties(match3)] == [(12, ruling.pk), (12, ruling.pk)]


def test_an_overturned_ruling_does_not_count_for_escalation(match, referee, organizer, tournament):
    appeals.set_policy(tournament, organizer, "guidance_word", ["warning", "tento"])
    first = services.confirm(guidance(match, referee), referee)
    first.status = Ruling.Status.OVERTURNED
    first.save()
    assert guidance(match, referee).step == "warning"


def test_escalation_counts_the_pair_across_matches_and_the_code_only(match, referee, organizer, tournament,
                                                                     pairs):
    appeals.set_policy(tournament, organizer, "guidance_word", ["warning", "tento"])
    services.confirm(guidance(match, referee), referee)
    other = scoring.create_match(pair_a=pairs[0], pair_b=pairs[2], tournament=tournament, referee=referee,
                                 by=organizer)
    assert services.propose(other, 1, 2, "guidance_word", {}, referee).step == "tento"  # same pair (A)
    assert services.propose(other, 0, 1, "guidance_word", {}, referee).step == "warning"  # the other pair
    assert services.propose(other, 1, 2, "stolen_card", {}, referee).step == ""  # no policy: the engine's


def test_art_26_case_goes_to_the_organizer(match, referee, organizer):
    ruling = services.propose(match, 1, 0, "not_covered", {"description": "Celular tocou na mesa"}, referee)
    assert ruling.article == "art. 26"
    with pytest.raises(Conflict):
        services.confirm(ruling, referee)
    ruling = services.escalate(ruling, referee, "Não previsto no regulamento")
    assert ruling.status == "escalated" and penalties(match) == []
    with pytest.raises(Forbidden):
        services.decide_escalated(ruling, referee, 1, 1, "Tento")
    ruling = services.decide_escalated(ruling, organizer, 1, 1, "Um tento à dupla adversária")
    assert ruling.status == "confirmed" and ruling.decided_by == organizer
    [entry] = penalties(match)
    assert (entry["article"], entry["points"], entry["beneficiary"], entry["ruling"]) == ("art. 26", 1, 1, ruling.pk)
    with pytest.raises(Conflict):  # the organizer's decision is final
        appeals.appeal(ruling, 0, ruling.match.pair_a.first_player, pin=PINS["Ana Souza"], reason="Injusto")


def test_not_covered_needs_a_description(match, referee):
    with pytest.raises(ServiceError) as error:
        services.propose(match, 1, 0, "not_covered", {}, referee)
    assert error.value.field == "facts.description"


def test_appeal_within_the_window(match, referee, players):
    ruling = services.confirm(guidance(match, referee), referee)
    appeal = appeals.appeal(ruling, 0, players["a"], pin=PINS["Ana Souza"], reason="Não foi orientação")
    assert appeal.team == 0 and appeal.decision == ""
    with pytest.raises(Conflict):  # one open appeal per ruling
        appeals.appeal(ruling, 1, players["b"], pin=PINS["Caio Reis"], reason="Outro")


def test_appeal_after_the_window_is_refused(match, referee, players, tournament):
    RefereeSettings.objects.create(tournament=tournament, appeal_window_minutes=5)
    ruling = services.confirm(guidance(match, referee), referee)
    Ruling.objects.filter(pk=ruling.pk).update(confirmed_at=ruling.confirmed_at - timedelta(minutes=6))
    with pytest.raises(Conflict) as error:
        appeals.appeal(ruling, 0, players["a"], pin=PINS["Ana Souza"], reason="Tarde")
    assert "5 minutes" in error.value.message


def test_appeal_needs_a_player_of_the_pair_with_the_right_pin(match, referee, players):
    ruling = services.confirm(guidance(match, referee), referee)
    with pytest.raises(Forbidden):
        appeals.appeal(ruling, 0, players["a"], pin="0000", reason="x")
    with pytest.raises(Forbidden):  # a player of pair B appealing for pair A
        appeals.appeal(ruling, 0, players["b"], pin=PINS["Caio Reis"], reason="x")
    with pytest.raises(Forbidden):  # a player of a third pair
        appeals.appeal(ruling, 1, players["c"], pin="1234", reason="x")
    assert not Appeal.objects.exists()


def test_an_appeal_upheld_changes_nothing(match, referee, organizer, players):
    ruling = services.confirm(guidance(match, referee), referee)
    appeal = appeals.appeal(ruling, 0, players["a"], pin=PINS["Ana Souza"], reason="x")
    before = penalties(match)
    appeal = appeals.decide_appeal(appeal, organizer, "upheld", "A palavra foi ouvida pelo árbitro")
    assert appeal.decision == "upheld" and penalties(match) == before
    ruling.refresh_from_db()
    assert ruling.status == "confirmed"


def test_overturned_makes_a_new_version_and_voids_the_signatures(match, referee, organizer, players):
    ruling = services.confirm(guidance(match, referee), referee)
    finish(match, referee, team=1)
    sign_both(match)
    version = scoring.current_version(match)
    assert version.number == 1 and version.signatures.count() == 2
    appeal = appeals.appeal(ruling, 0, players["a"], pin=PINS["Ana Souza"], reason="Não houve orientação")
    with pytest.raises(Forbidden):
        appeals.decide_appeal(appeal, referee, "overturned", "x")
    appeals.decide_appeal(appeal, organizer, "overturned", "Testemunhas: não houve orientação")
    ruling.refresh_from_db()
    match.refresh_from_db()
    assert ruling.status == "overturned" and not ruling.penalties().exists()
    current = scoring.current_version(match)
    assert current.number == 2 and match.status == "open"
    assert penalties(match) == []
    assert "Não houve" not in current.reason and "Testemunhas" in current.content["corrections"][-1]["reason"]
    assert all(s.digest != current.digest for s in version.signatures.all())  # voided, kept
    assert version.signatures.count() == 2


def test_changed_replaces_the_value(match, referee, organizer, players):
    ruling = services.confirm(guidance(match, referee, value=6), referee)
    scoring.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, referee)
    appeal = appeals.appeal(ruling, 0, players["a"], pin=PINS["Ana Souza"], reason="Valia 3")
    with pytest.raises(ServiceError):
        appeals.decide_appeal(appeal, organizer, "changed", "x")  # no new value
    appeals.decide_appeal(appeal, organizer, "changed", "O tento em jogo era 3", new_points=3)
    ruling.refresh_from_db()
    assert ruling.status == "changed" and ruling.points == 3
    [entry] = penalties(match)
    assert (entry["points"], entry["ruling"], entry["article"], entry["score"]) == (3, ruling.pk, "art. 24", [0, 3])
    assert scoring.current_version(match).number == 1  # the correction's version


def test_history_of_a_pair(match, referee, pairs):
    mine = services.confirm(guidance(match, referee), referee)
    theirs = services.propose(match, 0, 1, "stolen_card", {}, referee)
    assert list(services.history(pairs[0])) == [mine, theirs]
    assert list(services.history(pairs[2])) == []


def test_policy_and_settings_are_the_organizers(tournament, organizer, referee):
    with pytest.raises(Forbidden):
        appeals.set_policy(tournament, referee, "guidance_word", ["warning"])
    with pytest.raises(ServiceError):
        appeals.set_policy(tournament, organizer, "guidance_word", ["shout"])
    appeals.set_policy(tournament, organizer, "guidance_word", ["warning"])
    assert EscalationPolicy.objects.get().steps == ["warning"]
    appeals.set_policy(tournament, organizer, "guidance_word", [])
    assert not EscalationPolicy.objects.exists()
    assert appeals.settings_of(tournament).appeal_window_minutes == 30
    with pytest.raises(Forbidden):
        appeals.set_settings(tournament, referee, 10)
    assert appeals.set_settings(tournament, organizer, 10).appeal_window_minutes == 10


def test_a_player_claims_for_their_pair_with_their_pin(match, players):
    ruling = services.propose(match, 0, 1, "guidance_word", {}, None, player=players["a2"], pin=PINS["Beto Lima"])
    assert ruling.claimed_by_player == players["a2"] and ruling.referee is None
    with pytest.raises(Forbidden):  # a player of pair A claiming for pair B
        services.propose(match, 1, 0, "guidance_word", {}, None, player=players["a"], pin=PINS["Ana Souza"])
    with pytest.raises(Forbidden):  # nobody
        services.propose(match, 1, 0, "guidance_word", {}, None)


def test_wrong_pins_are_logged_and_lock_the_pair_out(match, players):
    from scoring.models import MatchEvent

    for _ in range(5):
        with pytest.raises(Forbidden):
            services.propose(match, 0, 1, "guidance_word", {}, None, player=players["a"], pin="0000")
    assert MatchEvent.objects.filter(match=match, kind="signature_refused").count() == 5
    with pytest.raises(Forbidden) as error:
        services.propose(match, 0, 1, "guidance_word", {}, None, player=players["a"], pin=PINS["Ana Souza"])
    assert "10 minutes" in error.value.message


def test_the_database_keeps_a_ruling_claimed_by_the_opponents_and_one_open_appeal(match, referee, players):
    from django.db import IntegrityError, transaction

    ruling = services.confirm(guidance(match, referee), referee)
    with pytest.raises(IntegrityError), transaction.atomic():
        Ruling.objects.filter(pk=ruling.pk).update(claimant_team=0)
    Appeal.objects.create(ruling=ruling, team=0, player=players["a"], reason="x")
    with pytest.raises(IntegrityError), transaction.atomic():
        Appeal.objects.create(ruling=ruling, team=1, player=players["b"], reason="y")


def test_wrong_card_count_asks_the_dealers_answer(match, referee):
    """art. 6: the dealer (seat 0 deals the first hand) was trucado and accepted: pays three."""
    with pytest.raises(ServiceError) as error:
        services.propose(match, 1, 0, "wrong_card_count", {}, referee)
    assert error.value.field == "facts.outcome"
    ruling = services.propose(match, 1, 0, "wrong_card_count", {"outcome": "accepted"}, referee)
    assert (ruling.article, ruling.points, ruling.offender_team, ruling.beneficiary) == ("art. 6", 3, 0, 1)


def test_appeal_deadline(match, referee, organizer):
    ruling = guidance(match, referee)
    assert appeals.appeal_deadline(ruling) is None
    ruling = services.confirm(ruling, referee)
    assert appeals.appeal_deadline(ruling) == ruling.confirmed_at + timedelta(minutes=30)


def test_confirm_records_the_hand_being_played_then(match, referee):
    ruling = guidance(match, referee)
    scoring.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, referee)
    ruling = services.confirm(ruling, referee)
    assert (ruling.game_number, ruling.hand_number) == (1, 2)
