"""A key ring for the súmulas' seals (scoring/integrity.py): each seal records its key
id; old public keys stay verifiable after a rotation (``SUMULA_SIGNING_OLD_KEYS``, or the ``.old`` file
``rotate_signing_key`` keeps beside a key file); a blank seal is refused on a version issued after
seals existed; a seal key made on first use fails the system check in production."""
from __future__ import annotations

import base64
import io
import json
import os

import pytest
from django.core.management import call_command
from django.test import override_settings
from rest_framework.test import APIClient

from scoring import checks, integrity
from scoring.content import build_document, corrections_of, digest, load_games
from scoring.models import Match, SumulaVersion

from .sumula_setup import *  # noqa: F401,F403
from .test_tamper import raw, verify_command


def new_key() -> str:
    return base64.b64encode(os.urandom(32)).decode()


@pytest.fixture
def env_key(settings):
    settings.SUMULA_SIGNING_KEY = new_key()
    settings.SUMULA_SIGNING_OLD_KEYS = []
    return settings


OK, BAD = 'class="panel verdict-ok"', 'class="panel verdict-bad"'  # the verdict's panel (the style names both)


def public_verdict(client, version) -> tuple[dict, str]:
    """What anyone checking the súmula's code sees: the API's answer and the public page (English)."""
    body = APIClient().get(f"/api/scoring/verify/{version.digest}/").json()
    page = client.get(f"/sumulas/verificar/{version.digest}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    return body, page


def test_an_old_key_in_the_ring_still_verifies(env_key, received, client):
    version = received.versions.get()
    old_public = integrity.public_key_b64()
    assert version.server_key == integrity.key_id()
    env_key.SUMULA_SIGNING_KEY = new_key()  # rotated without keeping the old key: "altered"
    assert integrity.seal_holds(version) is False
    body, page = public_verdict(client, version)  # a genuine súmula read "✗ seal does not hold"
    assert body["intact"] is False and BAD in page and OK not in page
    env_key.SUMULA_SIGNING_OLD_KEYS = [old_public]
    assert integrity.seal_holds(version) is True
    assert verify_command() == (True, "checked: 1; altered: 0\n")
    body, page = public_verdict(client, version)  # the public page and the API agree with the command
    assert body["intact"] is True and body["server_seal"] is True, body
    assert OK in page and BAD not in page
    page = integrity.key_ring()
    assert version.server_key in page and integrity.key_id() in page


def test_rotating_a_key_file_keeps_the_old_seals(settings, tmp_path, match, referee, organizer):
    settings.SUMULA_SIGNING_KEY = ""
    settings.SUMULA_SIGNING_OLD_KEYS = []
    settings.SUMULA_SIGNING_KEY_FILE = str(tmp_path / "seal.key")
    sealed = integrity.seal(1, 1, "d" * 64)
    old_id = integrity.key_id()
    out = io.StringIO()
    call_command("rotate_signing_key", stdout=out)
    assert integrity.key_id() != old_id and old_id in out.getvalue()
    assert (tmp_path / "seal.key.old").read_text().strip() == base64.b64encode(
        integrity.key_ring()[old_id].public_bytes_raw()).decode()
    version = SumulaVersion(match_id=1, number=1, digest="d" * 64, **sealed)
    assert integrity.seal_holds(version) is True  # the old seal, with the new key in use
    assert integrity.seal(1, 1, "d" * 64)["server_key"] != old_id  # new seals use the new key


def test_rotating_a_key_from_the_environment_prints_what_to_set(env_key, db):
    old_public = integrity.public_key_b64()
    out = io.StringIO()
    call_command("rotate_signing_key", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines() if line.startswith("SUMULA_"))
    assert lines["SUMULA_SIGNING_OLD_KEYS"].split(",") == [old_public]
    assert len(base64.b64decode(lines["SUMULA_SIGNING_KEY"])) == 32


def test_a_blank_seal_after_seals_existed_is_not_accepted(env_key, received, pairs, tournament, referee, organizer):
    from scoring import services

    second = services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, referee=referee,
                                   by=organizer)
    play(second, referee, 0, 1, 0, 0, 0)  # a second súmula, issued later
    later = Match.objects.get(pk=second.pk).versions.order_by("number").last()
    assert later is not None and integrity.seal_holds(later) is True
    raw("UPDATE scoring_sumulaversion SET server_seal = '', server_key = '' WHERE id = %s", (later.pk,),
        "scoring_sumulaversion")
    later = SumulaVersion.objects.get(pk=later.pk)
    assert integrity.seal_holds(later) is False  # not "issued before seals existed"
    Match.objects.filter(pk=second.pk).update(status=Match.Status.SIGNED)
    ok, out = verify_command()
    assert not ok and "no server seal: not verifiable" in out
    first = received.versions.get()
    raw("UPDATE scoring_sumulaversion SET server_seal = '', server_key = '' WHERE id = %s", (first.pk,),
        "scoring_sumulaversion")
    assert integrity.seal_holds(SumulaVersion.objects.get(pk=first.pk)) is False  # the oldest too
    env_key.SUMULA_UNSEALED_UNTIL = {"version": str(first.pk)}  # an upgraded install names its older rows
    assert integrity.seal_holds(SumulaVersion.objects.get(pk=first.pk)) is None


def test_a_full_rewrite_with_a_blank_seal_is_not_verifiable_never_intact(env_key, received, client):
    """Hand flipped, document rebuilt, digests and signature digests recomputed and the seal
    blanked, on the install's only súmula (no sealed version before it)."""
    version = received.versions.get()
    games = "(SELECT id FROM scoring_game WHERE match_id = %s)"
    raw("UPDATE scoring_handentry SET winner = 1 - winner, score_a = score_b, score_b = score_a WHERE game_id IN "
        + games, (received.pk,), "scoring_handentry")  # every hand flipped: 3-12
    raw("UPDATE scoring_game SET winner = 1 - winner, score_a = score_b, score_b = score_a WHERE id IN " + games,
        (received.pk,))
    raw("UPDATE scoring_match SET winner = 1 - winner, games_a = games_b, games_b = games_a WHERE id = %s",
        (received.pk,))
    match = Match.objects.get(pk=received.pk)
    content = build_document(match, version.number, corrections_of([version]), load_games(match))
    content["header"] = version.content.get("header", content.get("header"))
    content["digest"] = new_digest = digest(content)
    assert content["result"]["winner"] == 1
    raw("UPDATE scoring_sumulaversion SET content = %s, digest = %s, server_seal = '', server_key = '' "
        "WHERE id = %s", (json.dumps(content), new_digest, version.pk), "scoring_sumulaversion")
    raw("UPDATE scoring_signature SET digest = %s, server_seal = '', server_key = '' WHERE version_id = %s",
        (new_digest, version.pk), "scoring_signature")
    ok, out = verify_command()
    assert not ok and "no server seal: not verifiable" in out and "altered: 1" in out
    body = APIClient().get(f"/api/scoring/verify/{new_digest}/").json()
    assert body["intact"] is False and body["server_seal"] is False
    assert any("not verifiable" in p for p in body["problems"])
    assert APIClient().get(f"/api/scoring/matches/{received.pk}/").json()["integrity"]["intact"] is False
    page = client.get(f"/sumulas/verificar/{new_digest}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert BAD in page and OK not in page and "before server seals existed" not in page
    assert "emitida antes de existirem os selos" not in page


@pytest.mark.parametrize("hosts, debug, key, chosen, fails", [
    (["truco.example.org"], False, "", False, True),
    (["truco.example.org"], False, "", True, False),
    (["truco.example.org"], False, "x", False, False),
    (["localhost", "127.0.0.1"], False, "", False, False),
    (["truco.example.org"], True, "", False, False),
])
def test_the_system_check_wants_the_key_from_the_environment_in_production(hosts, debug, key, chosen, fails):
    with override_settings(ALLOWED_HOSTS=hosts, DEBUG=debug, SUMULA_SIGNING_KEY=key,
                           SUMULA_SIGNING_KEY_FILE_CHOSEN=chosen, SUMULA_SIGNING_OLD_KEYS=[]):
        ids = [error.id for error in checks.seal_key()]
    assert ("scoring.E001" in ids) is fails


def test_a_bad_old_key_is_named_by_the_check():
    with override_settings(SUMULA_SIGNING_OLD_KEYS=["not-a-key"], DEBUG=True):
        assert [error.id for error in checks.seal_key()] == ["scoring.E002"]


# ---- signatures and the status against the audit trail


def test_a_deleted_signature_is_reported(received):
    version = received.versions.get()
    raw("DELETE FROM scoring_signature WHERE version_id = %s AND role = 'team1'", (version.pk,), "scoring_signature")
    ok, out = verify_command()
    assert not ok and "the team1 signature is in the audit trail, not in the rows (deleted)" in out


def test_a_forged_signature_and_status_are_reported(env_key, pairs, tournament, referee, organizer):
    from scoring import services

    match = services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, referee=referee,
                                  by=organizer)
    play(match, referee, 0, 1, 0, 0, 0)
    version = match.versions.get()
    for role, player in (("team0", match.pair_a.first_player), ("team1", match.pair_b.first_player)):
        raw("INSERT INTO scoring_signature (version_id, role, player_id, method, digest, signed_at, server_seal, "
            "server_key) VALUES (%s, %s, %s, 'pin', %s, CURRENT_TIMESTAMP, '', '')",
            (version.pk, role, player.pk, version.digest),
            "scoring_signature")
    raw("UPDATE scoring_match SET status = 'signed' WHERE id = %s", (match.pk,))
    ok, out = verify_command()
    assert not ok and "the team0 signature has no audit event (added in the rows)" in out
    assert "status: signed, but the audit trail says open" in out


def test_a_status_set_back_to_open_stays_in_the_check(received):
    raw("UPDATE scoring_match SET status = 'open' WHERE id = %s", (received.pk,))
    ok, out = verify_command()
    assert not ok and "status: open, but the audit trail says received for version 1 (moved backwards)" in out


def test_each_signature_is_sealed_and_a_forged_one_is_reported(received):
    version = received.versions.get()
    assert all(integrity.signature_seal_holds(s, version) is True for s in version.signatures.all())
    raw("UPDATE scoring_signature SET player_id = %s WHERE version_id = %s AND role = 'team1'",
        (received.pair_b.first_player.pk, version.pk), "scoring_signature")  # another player "signed"
    ok, out = verify_command()
    assert not ok and "the server's seal of the team1 signature does not hold" in out


# ---- the key differs between processes (scoring.E004; E003 is the missing key)


def production_check():
    with override_settings(ALLOWED_HOSTS=["truco.example.org"], DEBUG=False, SUMULA_SIGNING_KEY_FILE_CHOSEN=True):
        return [(error.id, error.msg) for error in checks.seal_key_in_use()]


def test_a_process_with_another_key_fails_the_check_in_production(env_key, db):
    from scoring.models import SealKeyInUse

    first = integrity.key_id()
    assert production_check() == []  # the first start records its key's id (never the key)
    assert list(SealKeyInUse.objects.values_list("key_id", "reason")) == [(first, "first start")]
    assert integrity.public_key_b64() in SealKeyInUse.objects.get().public_key
    assert production_check() == []
    env_key.SUMULA_SIGNING_KEY = new_key()  # another machine, without the same variable
    [(code, message)] = production_check()
    assert code == "scoring.E004" and f"not the key the database was sealed with ({first})" in message
    with override_settings(DEBUG=True):
        assert checks.seal_key_in_use() == []  # a developer's machine: no check


def test_after_a_rotation_a_process_left_on_the_old_key_fails_the_check(env_key, db):
    old = env_key.SUMULA_SIGNING_KEY
    assert production_check() == []
    out = io.StringIO()
    call_command("rotate_signing_key", stdout=out)
    lines = dict(line.split("=", 1) for line in out.getvalue().splitlines() if line.startswith("SUMULA_"))
    [(code, message)] = production_check()  # this process still has the old key
    assert code == "scoring.E004" and "an earlier key" in message
    env_key.SUMULA_SIGNING_KEY, env_key.SUMULA_SIGNING_OLD_KEYS = (lines["SUMULA_SIGNING_KEY"],
                                                                   lines["SUMULA_SIGNING_OLD_KEYS"].split(","))
    assert production_check() == []
    assert old != env_key.SUMULA_SIGNING_KEY


def test_a_rotation_by_hand_is_adopted_when_the_old_key_is_listed(env_key, db):
    """A new key file or Docker secret (compose.yaml): the old public key among the old keys."""
    old_public = integrity.public_key_b64()
    assert production_check() == []
    env_key.SUMULA_SIGNING_KEY = new_key()
    assert [code for code, _ in production_check()] == ["scoring.E004"]  # not listed: another key
    env_key.SUMULA_SIGNING_OLD_KEYS = [old_public]
    assert production_check() == []  # adopted: recorded as the current key
    from scoring.models import SealKeyInUse

    assert SealKeyInUse.objects.order_by("pk").last().key_id == integrity.key_id()
