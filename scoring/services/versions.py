"""Versions of the súmula: issuing a version when the match is decided (or after a correction),
and the version it currently stands at.
"""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Forbidden

from .. import access, integrity
from ..content import build_document, correction_document, corrections_of, load_games
from ..models import Match, MatchEvent, SumulaVersion
from .base import _event, _is_user, _lock


def _issue_version(match: Match, by, reason: str = "") -> SumulaVersion:
    versions = list(match.versions.select_related("created_by").order_by("number"))
    corrections = corrections_of(versions)
    games = load_games(match)
    if versions and not reason:
        same = build_document(match, versions[-1].number, corrections, games)
        if same["digest"] == versions[-1].digest:
            return versions[-1]
    now = timezone.now()
    number = versions[-1].number + 1 if versions else 1
    if reason:
        corrections.append(correction_document(number, reason, by if _is_user(by) else None, now))
    document = build_document(match, number, corrections, games)
    version = SumulaVersion.objects.create(
        match=match, number=number, content=document, digest=document["digest"], reason=reason,
        created_by=by if _is_user(by) else None, created_at=now,
        **integrity.seal(match.pk, number, document["digest"]),
    )
    _event(match, MatchEvent.Kind.VERSION, by, version=number, digest=version.digest, reason=reason)
    return version


def issue_version(match: Match, by, reason: str = "") -> SumulaVersion:
    """Snapshot the súmula as a new version (or return the current one when nothing changed)."""
    with transaction.atomic():
        match = _lock(match)
        if not access.can_enter(by, match):
            raise Forbidden(_("Only the match's referee or the tournament's organizer enters the súmula."))
        return _issue_version(match, by, (reason or "").strip())


def current_version(match: Match) -> SumulaVersion | None:
    return match.versions.select_related("created_by").order_by("-number").first()
