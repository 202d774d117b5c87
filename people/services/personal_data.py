"""A player's personal data (LGPD, docs/people.md): the link an organizer hands them, the export
(JSON) and the erasure, which anonymises the person and keeps their results.

The link is the credential: 32 random bytes (``secrets.token_urlsafe``), shown once to the organizer
who issues it, kept only as its SHA-256, valid :data:`LINK_DAYS` days, revocable, and it opens this
player's data and nothing else (no súmula, no table, no PIN). Erasing also asks for the player's PIN
when they have one (checked by the page, counted like any PIN), so a link seen over a shoulder does
not erase anybody.
"""
from __future__ import annotations

import datetime
import hashlib
import secrets

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils import translation
from django.utils.translation import gettext as _

from config.errors import Conflict

from .. import sections
from ..models import ClubMembership, DataAccessLink, Player, PlayerMerge
from . import merges

LINK_DAYS = 7


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def issue_link(player: Player, *, by) -> tuple[DataAccessLink, str]:
    """A new link for ``player`` (the caller checks that ``by`` organized an event they entered); returns
    the row and the token, which is not kept and is shown this once."""
    player = merges.canonical(player)
    if player.anonymised_at is not None:
        raise Conflict(_("This player's data was erased."), "player")
    token = secrets.token_urlsafe(32)
    now = timezone.now()
    link = DataAccessLink.objects.create(player=player, token_hash=_digest(token), issued_by=by, issued_at=now,
                                         expires_at=now + datetime.timedelta(days=LINK_DAYS))
    return link, token


def link_for(token: str) -> DataAccessLink | None:
    """The live link with this token (not expired, not revoked), or None."""
    if not isinstance(token, str) or not 20 <= len(token) <= 100:
        return None
    link = DataAccessLink.objects.select_related("player").filter(token_hash=_digest(token)).first()
    if link is None or link.revoked_at is not None or link.expires_at <= timezone.now():
        return None
    if link.player.anonymised_at is not None:
        return None
    return link


def revoke(link: DataAccessLink) -> None:
    DataAccessLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(revoked_at=timezone.now())


def export(player: Player) -> dict:
    """Everything kept about this person (their records merged into one included), as JSON-able data."""
    player = merges.canonical(player)
    ids = merges.person_ids(player)
    return {
        "player": {"id": player.pk, "name": player.name, "nickname": player.nickname,
                   "club": player.club.name if player.club_id else "", "federation_number": player.federation_number,
                   "contact": player.contact, "has_signing_pin": player.has_pin,
                   "records": sorted(ids)},
        "clubs": [{"club": m.club.name, "city": m.club.city, "from": m.since.isoformat() if m.since else None,
                   "to": m.until.isoformat() if m.until else None}
                  for m in ClubMembership.objects.filter(player_id__in=ids).select_related("club").order_by("pk")],
        "merges": [{"kept": m.kept_id, "duplicate": m.duplicate_id, "reason": m.reason,
                    "merged_at": m.merged_at.isoformat(), "undone_at": m.undone_at.isoformat() if m.undone_at else None}
                   for m in PlayerMerge.objects.filter(Q(kept_id__in=ids) | Q(duplicate_id__in=ids))],
        **sections.export_parts(ids),
    }


def anonymous_name(player: Player) -> str:
    """Stored, so in the site's language whoever asked (like a súmula's words): "Jogador anonimizado 7"."""
    with translation.override(settings.LANGUAGE_CODE):
        return _("Anonymised player %(id)s") % {"id": player.pk}


@transaction.atomic
def erase(player: Player) -> Player:
    """The person's data erased (LGPD art. 18, VI): name replaced, nickname, contact, federation number,
    PIN, clubs and links gone; every record merged into them too. Their results, pairs and matches stay
    (under the anonymised name: other players' results depend on them)."""
    player = Player.objects.select_for_update().get(pk=merges.canonical(player).pk)
    if player.anonymised_at is not None:
        return player
    ids = merges.person_ids(player)
    records = list(Player.objects.select_for_update().filter(pk__in=ids))
    old_names = {p.name for p in records} | {p.nickname for p in records if p.nickname}
    new_name = anonymous_name(player)
    now = timezone.now()
    ClubMembership.objects.filter(player_id__in=ids).delete()
    DataAccessLink.objects.filter(player_id__in=ids, revoked_at__isnull=True).update(revoked_at=now)
    Player.objects.filter(pk__in=ids).update(name=new_name, nickname="", contact="", federation_number="",
                                             pin_hash="", entered_by=None, club=None, anonymised_at=now)
    sections.erase_everywhere(ids, old_names, new_name)
    player.refresh_from_db()
    return player
