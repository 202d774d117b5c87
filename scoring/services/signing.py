"""Signing (art. 25): one-time codes, a pair's signature with a PIN or a code, and the referee's
countersignature.
"""
from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Conflict, Forbidden

from .. import access, holds, integrity, pins
from ..models import Match, MatchEvent, Signature, SigningCode, SumulaVersion
from ..words import pair_names
from .base import (
    CODE_LIFETIME,
    ScoringError,
    _check_team,
    _event,
    _is_user,
    _lock,
    _locked_error,
    _player_model,
)
from .versions import current_version


def _signable_version(match: Match) -> SumulaVersion:
    if match.status == Match.Status.RECEIVED:
        raise Conflict(_("The súmula was already received by the organizer (art. 25)."), "status")
    if match.winner is None:
        raise Conflict(_("The match is not over: the súmula is signed when the match ends (art. 25)."), "match")
    version = current_version(match)
    if version is None:  # cannot happen: a decided match always has a version
        raise Conflict(_("No version of the súmula was issued yet."), "match")
    return version


def issue_code(match: Match, team: int, by) -> tuple[SigningCode, str]:
    """A one-time code for a player of ``team`` without a PIN: 6 digits, valid 10 minutes, single use.
    Only its keyed hash is stored; the code itself is returned once, to be shown on screen."""
    _check_team(team, "team")
    with transaction.atomic():
        match = _lock(match)
        if not access.can_enter(by, match):
            raise Forbidden(_("Only the match's referee or the tournament's organizer gives one-time codes."))
        _signable_version(match)
        if match.status != Match.Status.OPEN:
            raise _locked_error()
        code = f"{secrets.randbelow(10**6):06d}"
        now = timezone.now()
        record = SigningCode.objects.create(match=match, team=team, code_hash=pins.hash_code(code, secrets.token_hex(8)),
                                            created_by=by if _is_user(by) else None, created_at=now,
                                            expires_at=now + CODE_LIFETIME)
        _event(match, MatchEvent.Kind.CODE, by, team=team, expires_at=record.expires_at.isoformat())
        return record, code


def _role_team(role: object) -> int:
    if role not in ("team0", "team1"):
        raise ScoringError(_("A pair signs as \"team0\" (pair A) or \"team1\" (pair B)."), "role")
    return 0 if role == "team0" else 1


def sign(match: Match, role: str, player, *, pin: str | None = None, code: str | None = None,
         digest: str | None = None, client: str | None = None, by=None) -> Signature:
    """A player of the pair signs the current version for their team (art. 25) with their PIN or a
    one-time code. Nobody signs for the other pair. When both pairs signed, the súmula is locked.
    The state is checked before the PIN; the PIN or code is checked by ``scoring.pins`` (counted per
    player and ``client``). ``by``: the credential the signature came through (a table link, a user's
    session), recorded in the audit events."""
    team = _role_team(role)
    if bool(pin) == bool(code):
        raise ScoringError(_("Sign with your PIN or with a one-time code (one of them)."), "pin")
    with transaction.atomic():
        signer, version = _may_sign(_lock(match), team, role, player, digest)
    pins.require(signer, client=client, pin=pin, code=code, match=match, team=team)
    with transaction.atomic():
        match = _lock(match)
        signer, version = _may_sign(match, team, role, player, digest)
        now = timezone.now()
        method = Signature.Method.PIN if pin else Signature.Method.CODE
        signature = Signature.objects.create(version=version, role=role, player=signer, method=method,
                                             digest=version.digest, signed_at=now,
                                             **integrity.signature_seal(version, role, signer.pk, method, now))
        _event(match, MatchEvent.Kind.SIGNATURE, by, role=role, player=signer.pk, method=method,
               version=version.number, digest=version.digest)
        roles = set(version.signatures.values_list("role", flat=True))
        if {"team0", "team1"} <= roles:
            match.status, match.signed_at = Match.Status.SIGNED, now
            match.save(update_fields=["status", "signed_at", "updated_at"])
            _event(match, MatchEvent.Kind.LOCKED, by, version=version.number, digest=version.digest)
        return signature


def _may_sign(match: Match, team: int, role: str, player, digest: str | None):
    """The signer of ``team`` and the version to sign, or the refusal (no PIN looked at)."""
    pair = match.pair(team)
    players = access.pair_players(pair)
    player_id = player.pk if isinstance(player, _player_model()) else player
    signer = next((p for p in players if p.pk == player_id), None)
    other = match.pair(1 - team)
    if signer is not None and any(p.pk == player_id for p in access.pair_players(other)):
        raise Forbidden(_("%(player)s is registered in both pairs of this match and cannot confirm for "
                          "either (art. 25).") % {"player": signer.name}, "player")
    if signer is None:
        if any(p.pk == player_id for p in access.pair_players(other)):
            raise Forbidden(_("A player of %(other)s cannot sign for %(pair)s: each pair confirms and signs "
                              "only for itself (art. 25).") % {"other": other.name, "pair": pair.name}, "player")
        raise Forbidden(pair_names.contract(_("Only a player of %(pair)s signs for it (art. 25).") % {"pair": pair.name},
                                            pair.name), "player")
    if match.status == Match.Status.SIGNED:
        raise Conflict(_("Both pairs already signed: the súmula is locked (art. 25)."), "status")
    version = _signable_version(match)
    holds.refuse_if_held(match)  # a disputed entry is not agreed to
    if digest is not None and digest != version.digest:
        raise Conflict(_("The súmula changed while you were reading it: read version %(number)s and sign again.")
                       % {"number": version.number}, "digest")
    if version.signatures.filter(role=role).exists():
        raise Conflict(ngettext("%(pair)s already signed version %(number)s.",
                                "%(pair)s already signed version %(number)s.", pair_names.number(pair.name))
                       % {"pair": pair.name, "number": version.number}, "role")
    return signer, version


def countersign(match: Match, by, digest: str | None = None, reason: str = "") -> Signature:
    """The match's referee countersigns the version both pairs signed. When the referee is gone, the
    organizer countersigns in their place with a ``reason`` (kept in the match's audit trail)."""
    reason = " ".join(str(reason or "").split())[:300]
    with transaction.atomic():
        match = _lock(match)
        in_place = not access.is_referee(by, match)
        if in_place and not (access.is_organizer(by, match) and reason):
            raise Forbidden(_("Only the match's referee countersigns its súmula (or the organizer in the referee's "
                              "place, giving the reason)."), "reason" if access.is_organizer(by, match) else "")
        if match.status != Match.Status.SIGNED:
            raise Conflict(_("The referee countersigns after both pairs signed (art. 25)."), "status")
        holds.refuse_if_held(match)
        version = current_version(match)
        if digest is not None and digest != version.digest:
            raise Conflict(_("The súmula changed while you were reading it: read version %(number)s and sign again.")
                           % {"number": version.number}, "digest")
        if version.signatures.filter(role=Signature.Role.REFEREE).exists():
            raise Conflict(_("The referee already countersigned version %(number)s.") % {"number": version.number},
                           "role")
        now = timezone.now()
        signature = Signature.objects.create(
            version=version, role=Signature.Role.REFEREE, user=by, method=Signature.Method.SESSION,
            digest=version.digest, signed_at=now,
            **integrity.signature_seal(version, Signature.Role.REFEREE, by.pk, Signature.Method.SESSION, now))
        extra = {"in_place_of": match.referee_id, "reason": reason} if in_place else {}
        _event(match, MatchEvent.Kind.SIGNATURE, by, role="referee", version=version.number, digest=version.digest,
               **extra)
        return signature
