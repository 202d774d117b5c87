"""Confirming and signing (art. 25): each pair signs only for itself, with a PIN or a one-time code;
both signatures lock the súmula; the referee countersigns; the organizer receives it and only then is
the result official."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import services
from scoring.models import Match, MatchEvent, Signature, SigningCode

from .sumula_setup import *  # noqa: F401,F403


@pytest.fixture
def over(match, referee):
    play(match, referee, 0, 1, 0, 0, 0)  # 12-3: Os Zaps win
    return Match.objects.get(pk=match.pk)


def sign_both(match):
    services.sign(match, "team0", match.pair_a.first_player, pin=PINS["Ana Souza"])
    return services.sign(match, "team1", match.pair_b.second_player, pin=PINS["Duda Melo"])


def test_pin_is_stored_only_as_a_hash(pairs):
    ana = pairs[0].first_player
    # The stored value is a salted hash: never the PIN itself. (A random hash may contain
    # "1111" among its hex digits, so the check is that the PIN is not what is stored.)
    assert ana.pin_hash and ana.pin_hash != "1111" and "$" in ana.pin_hash
    assert ana.check_pin("1111") and not ana.check_pin("1112")
    ana.set_pin(None)
    assert not ana.has_pin and not ana.check_pin("1111")


def test_both_pairs_sign_and_the_sumula_locks(over, referee):
    version = over.versions.get()
    first = services.sign(over, "team0", over.pair_a.first_player, pin="1111", digest=version.digest)
    assert first.digest == version.digest and first.method == "pin"
    assert Match.objects.get(pk=over.pk).status == "open"
    second = services.sign(over, "team1", over.pair_b.first_player, pin="3333")
    assert second.digest == version.digest
    over = Match.objects.get(pk=over.pk)
    assert over.status == "signed" and over.is_locked and over.signed_at and not over.is_official
    for attempt in (lambda: play(over, referee, 0),
                    lambda: services.record_penalty(over, 0, 1, "art. 24", "", referee),
                    lambda: services.undo_last(over, referee)):
        with pytest.raises(services.Conflict) as error:
            attempt()
        assert "art. 25" in error.value.message
    with pytest.raises(services.Conflict):
        services.sign(over, "team0", over.pair_a.second_player, pin="2222")


def test_a_pair_never_signs_for_the_other(over):
    for role, player, pin in (("team1", over.pair_a.first_player, "1111"),
                              ("team0", over.pair_b.second_player, "4444")):
        with pytest.raises(services.Forbidden) as error:
            services.sign(over, role, player, pin=pin)
        assert error.value.field == "player" and "art. 25" in error.value.message
    outsider = over.pair_a.tournament.pairs.get(name="Terceira").first_player
    with pytest.raises(services.Forbidden):
        services.sign(over, "team0", outsider.pk, pin="0000")
    assert not Signature.objects.exists()


def test_the_substitute_may_sign_for_their_pair(over):
    substitute = over.pair_a.substitute
    code = services.issue_code(over, 0, over.referee)[1]
    assert services.sign(over, "team0", substitute, code=code).player == substitute


def test_wrong_or_missing_pin_is_refused_and_logged(over):
    with pytest.raises(services.Forbidden) as error:
        services.sign(over, "team0", over.pair_a.first_player, pin="9999")
    assert error.value.field == "pin"
    with pytest.raises(services.ScoringError):
        services.sign(over, "team0", over.pair_a.first_player)
    assert MatchEvent.objects.filter(match=over, kind="signature_refused").count() == 1
    for _ in range(4):
        with pytest.raises(services.Forbidden):
            services.sign(over, "team0", over.pair_a.first_player, pin="9999")
    with pytest.raises(services.Forbidden) as error:  # too many attempts: even the right PIN waits
        services.sign(over, "team0", over.pair_a.first_player, pin="1111")
    assert "10" in error.value.message
    services.sign(over, "team1", over.pair_b.first_player, pin="3333")  # the other pair is not held up


def test_one_time_codes_are_single_use_and_expire(over, referee, outsider):
    with pytest.raises(services.Forbidden):
        services.issue_code(over, 1, outsider)
    record, code = services.issue_code(over, 1, referee)
    assert len(code) == 6 and code.isdigit() and code not in record.code_hash
    assert record.expires_at - record.created_at == timedelta(minutes=10)
    with pytest.raises(services.Forbidden) as error:  # a code for pair B does not sign for pair A
        services.sign(over, "team0", over.pair_a.first_player, code=code)
    assert error.value.field == "code"
    signature = services.sign(over, "team1", over.pair_b.first_player, code=code)
    assert signature.method == "code"
    assert SigningCode.objects.get(pk=record.pk).used_at is not None

    services.correct(over, [{"op": "insert_penalty", "game": 1, "after": 0, "offender": 0, "points": 1,
                             "article": "art. 24", "reason": "Palavra"}], "Tento esquecido", referee)
    with pytest.raises(services.Forbidden) as error:
        services.sign(over, "team1", over.pair_b.first_player, code=code)
    assert "already used" in error.value.message or "usado" in error.value.message

    record, code = services.issue_code(over, 1, referee)
    SigningCode.objects.filter(pk=record.pk).update(created_at=timezone.now() - timedelta(minutes=11),
                                                    expires_at=timezone.now() - timedelta(minutes=1))
    with pytest.raises(services.Forbidden) as error:
        services.sign(over, "team1", over.pair_b.first_player, code=code)
    assert "expired" in error.value.message or "expirou" in error.value.message


def test_codes_and_signatures_wait_for_the_end_of_the_match(match, referee):
    play(match, referee, 0)
    with pytest.raises(services.Conflict):
        services.issue_code(match, 0, referee)
    with pytest.raises(services.Conflict):
        services.sign(match, "team0", match.pair_a.first_player, pin="1111")


def test_a_stale_digest_is_refused(over, referee):
    old = over.versions.get().digest
    services.correct(over, [{"op": "set_first_dealer", "game": 1, "dealer": 2}], "Pé inicial era o 2", referee)
    with pytest.raises(services.Conflict) as error:
        services.sign(over, "team0", over.pair_a.first_player, pin="1111", digest=old)
    assert error.value.field == "digest"


def test_countersign_received_and_official_result(over, referee, organizer):
    with pytest.raises(services.Conflict):
        services.countersign(over, referee)  # the pairs sign first
    sign_both(over)
    with pytest.raises(services.Forbidden):
        services.countersign(over, organizer)  # only the match's referee
    with pytest.raises(services.Conflict):
        services.mark_received(over, organizer)  # the referee has not countersigned
    services.countersign(over, referee)
    with pytest.raises(services.Forbidden):
        services.mark_received(over, referee)  # only the organizer
    assert services.official_result(over) is None
    services.mark_received(over, organizer)
    over = Match.objects.get(pk=over.pk)
    assert over.status == "received" and over.is_official and over.received_by == organizer
    result = services.official_result(over)
    assert result["winner"] == 0 and result["winner_pair_id"] == over.pair_a_id
    assert result["games"] == [1, 0] and result["points"] == [12, 3] and result["version"] == 1
    with pytest.raises(services.Conflict):
        services.mark_received(over, organizer)


def test_a_correction_reopens_voids_signatures_and_asks_for_new_ones(over, referee, organizer):
    sign_both(over)
    services.countersign(over, referee)
    services.mark_received(over, organizer)
    with pytest.raises(services.Forbidden):  # once received, only the organizer corrects
        services.correct(over, [{"op": "remove_entry", "game": 1, "position": 2}], "x", referee)
    v2 = services.correct(over, [{"op": "remove_entry", "game": 1, "position": 2}],
                          "Mão 2 foi anulada pelo árbitro", organizer)
    over = Match.objects.get(pk=over.pk)
    assert over.status == "open" and not over.is_official and over.received_at is None
    assert services.official_result(over) is None
    assert v2.number == 2 and not v2.signatures.exists()
    assert Signature.objects.filter(version__number=1).count() == 3  # kept, voided
    sign_both(over)
    assert Match.objects.get(pk=over.pk).status == "signed"
    assert set(v2.signatures.values_list("role", flat=True)) == {"team0", "team1"}


def test_a_friendly_without_referee_is_received_by_staff(pairs):

    from tests.tournaments.factories import operator

    staff = operator("staff")  # a friendly's organizers are the site's operators
    friendly = services.create_match(pair_a=pairs[0], pair_b=pairs[2], by=staff)
    play(friendly, staff, 0, 0, 0, 0)
    services.sign(friendly, "team0", pairs[0].first_player, pin="1111")
    code = services.issue_code(friendly, 1, staff)[1]
    services.sign(friendly, "team1", pairs[2].second_player, code=code)
    services.mark_received(friendly, staff)
    assert Match.objects.get(pk=friendly.pk).is_official


def test_a_player_registered_in_both_pairs_signs_for_neither(over):
    from tournaments.models import Pair

    Pair.objects.filter(pk=over.pair_b_id).update(substitute=over.pair_a.first_player)
    for role in ("team0", "team1"):
        with pytest.raises(services.Forbidden) as error:
            services.sign(over, role, over.pair_a.first_player, pin="1111")
        assert error.value.field == "player" and "art. 25" in error.value.message


def test_receiving_the_sumula_announces_the_official_result_once(over, referee, organizer, monkeypatch):
    """art. 25: only the received súmula makes the result official; the layer above hears of it then,
    through the one handler registered with ``scoring.hook``."""
    from scoring import hook

    heard = []
    registered = hook.registered()
    monkeypatch.setattr(hook, "_handler", hook.Handler(result_official=lambda match: heard.append(match.pk),
                                                       match_started=registered.match_started))
    sign_both(over)
    services.countersign(over, referee)
    assert heard == []
    services.mark_received(over, organizer)
    assert heard == [over.pk]


def test_a_tournament_match_received_with_no_handler_is_refused_and_nothing_is_written(over, referee, organizer,
                                                                                     monkeypatch):
    """Scoring alone never leaves a tournament behind in silence: no handler, no receipt."""
    from scoring import hook

    assert over.tournament_id is not None
    monkeypatch.setattr(hook, "_handler", hook.Handler())
    sign_both(over)
    services.countersign(over, referee)
    with pytest.raises(hook.HookMissing):
        services.mark_received(over, organizer)
    over.refresh_from_db()
    assert over.status == Match.Status.SIGNED


def test_the_organizer_countersigns_in_the_referees_place_with_a_reason(over, referee, organizer, outsider):
    sign_both(over)
    with pytest.raises(services.Forbidden) as error:  # no reason: refused, nothing written
        services.countersign(over, organizer, reason="  ")
    assert error.value.field == "reason"
    with pytest.raises(services.Forbidden):
        services.countersign(over, outsider, reason="I was there")
    assert not Signature.objects.filter(role="referee").exists()
    signature = services.countersign(over, organizer, reason="The referee left the venue")
    assert signature.user == organizer and signature.role == "referee"
    event = MatchEvent.objects.filter(match=over, kind="signature", data__role="referee").get()
    assert event.by == organizer and event.data["reason"] == "The referee left the venue"
    assert event.data["in_place_of"] == referee.pk
    services.mark_received(over, organizer)
    assert services.official_result(Match.objects.get(pk=over.pk)) is not None
