"""Tamper evidence (art. 25; scoring/integrity.py): whatever is changed in the database after the
pairs signed — the stored version, the match's rows, or all of them with the digests — is detected
and named; on PostgreSQL the append-only tables refuse UPDATE and DELETE outright."""
from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from scoring import integrity, row_check
from scoring.content import digest
from scoring.models import HandEntry, MatchEvent, Signature, SumulaVersion

from .sumula_setup import *  # noqa: F401,F403


def raw(sql: str, params=(), table: str = "") -> None:
    """An attacker with SQL access (on PostgreSQL, a superuser who switches the triggers off first)."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql" and table:
            cursor.execute("SET session_replication_role = replica")
        cursor.execute(sql, params)
        if connection.vendor == "postgresql" and table:
            cursor.execute("SET session_replication_role = origin")


def verify_command(*args) -> tuple[bool, str]:
    out = io.StringIO()
    try:
        call_command("verify_sumulas", *args, stdout=out)
    except CommandError:
        return False, out.getvalue()
    return True, out.getvalue()


def test_an_intact_sumula_verifies_everywhere(received):
    version = received.versions.get()
    assert integrity.seal_holds(version) is True and row_check.check_match(received) == []
    assert verify_command() == (True, "checked: 1; altered: 0\n")
    body = APIClient().get(f"/api/scoring/verify/{version.digest}/").json()
    assert body["intact"] and body["server_seal"] and body["public_key"] == integrity.public_key_b64()
    assert APIClient().get(f"/api/scoring/matches/{received.pk}/").json()["integrity"] == {"intact": True,
                                                                                             "problems": []}


def test_a_game_score_changed_in_the_stored_version_is_detected(received, client):
    version = received.versions.get()
    content = copy.deepcopy(version.content)
    content["games"][0]["score"] = [12, 9]  # the digest does not chain it: the entries still say 12-3
    assert digest(content) == version.digest
    raw("UPDATE scoring_sumulaversion SET content = %s WHERE id = %s", (json.dumps(content), version.pk),
        "scoring_sumulaversion")
    body = APIClient().get(f"/api/scoring/verify/{version.digest}/").json()
    assert body["intact"] is False and any("games[0].score" in p for p in body["problems"])
    page = client.get(f"/sumulas/verificar/{version.digest}/").content.decode()
    assert "games[0].score" in page and 'class="panel verdict-bad"' in page
    ok, out = verify_command()
    assert not ok and f"match {received.pk}" in out and "games[0].score" in out


def test_a_hand_flipped_in_the_rows_after_receipt_is_named(received, client, referee):
    hand = HandEntry.objects.filter(game__match=received).order_by("position").first()
    raw("UPDATE scoring_handentry SET winner = 1 WHERE id = %s", (hand.pk,))
    problems = row_check.check_match(received)
    assert any("games[0].entries[0].winner: signed 0, rows say 1" in p for p in problems), problems
    assert APIClient().get(f"/api/scoring/matches/{received.pk}/").json()["integrity"]["intact"] is False
    client.force_login(referee)
    assert "altered" in client.get(f"/sumulas/partida/{received.pk}/assinar/").content.decode()
    ok, out = verify_command(str(received.pk))
    assert not ok and "entries[0].winner" in out


def test_rewriting_rows_version_digest_and_signatures_together_breaks_the_seal(received):
    version = received.versions.get()
    content = copy.deepcopy(version.content)
    content["result"]["winner"] = 1  # the result reversed, every digest recomputed to match
    content["digest"] = new_digest = digest(content)
    raw("UPDATE scoring_sumulaversion SET content = %s, digest = %s WHERE id = %s",
        (json.dumps(content), new_digest, version.pk), "scoring_sumulaversion")
    raw("UPDATE scoring_signature SET digest = %s WHERE version_id = %s", (new_digest, version.pk),
        "scoring_signature")
    raw("UPDATE scoring_match SET winner = 1 WHERE id = %s", (received.pk,))
    version = SumulaVersion.objects.get(pk=version.pk)
    assert integrity.seal_holds(version) is False
    assert "the server's seal does not hold" in " ".join(row_check.check_match(received))
    body = APIClient().get(f"/api/scoring/verify/{new_digest}/").json()
    assert body["intact"] is False and body["server_seal"] is False


def test_the_seal_needs_the_servers_key(received, settings):
    version = received.versions.get()
    import base64
    settings.SUMULA_SIGNING_KEY = base64.b64encode(b"\x01" * 32).decode()  # another server's key
    assert integrity.seal_holds(version) is False


def test_append_only_tables_refuse_updates_and_deletes_in_the_database(received):
    if connection.vendor != "postgresql":
        pytest.skip("the triggers are PostgreSQL's; SQLite keeps the Python guard and the row check")
    version = received.versions.get()
    for statement in ("UPDATE scoring_sumulaversion SET reason = 'x' WHERE id = %s",
                      "DELETE FROM scoring_signature WHERE version_id = %s",
                      "UPDATE scoring_matchevent SET data = '{}' WHERE match_id = (SELECT match_id FROM "
                      "scoring_sumulaversion WHERE id = %s)"):
        with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(statement, (version.pk,))
    with pytest.raises(IntegrityError), transaction.atomic():
        SumulaVersion.objects.filter(pk=version.pk).update(reason="rewritten")
    with pytest.raises(IntegrityError), transaction.atomic():
        MatchEvent.objects.filter(match=received).delete()
    assert Signature.objects.filter(version=version).count() == 3


def test_a_deleted_round_only_unlinks_its_audit_entries(received, organizer):
    """The one change the audit log's trigger allows: Django's SET_NULL of a deleted row's link."""
    if connection.vendor != "postgresql":
        pytest.skip("the triggers are PostgreSQL's")
    from tournaments.models import AuditEntry

    entry = AuditEntry.objects.create(tournament=received.tournament, actor=organizer, action="stage_configured",
                                      round=received.round, match=None)
    with connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_auditentry SET round_id = NULL WHERE id = %s", (entry.pk,))
    with pytest.raises(IntegrityError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_auditentry SET action = 'x', round_id = NULL WHERE id = %s", (entry.pk,))
