"""Table links: the table's own key to its match, the way Tabbycat's private URLs give
each participant a key and a landing page without an account.

Every match of a round has one active link (none once revoked, until a reissue): an unguessable
token (``secrets.token_urlsafe``) whose URL is printed as a QR code on the table card and on the
blank súmula of the organizer and the match's referee. Whoever holds it may enter hands of that
match, undo the hands a table link entered, and act for the pairs with their PINs (sign, claim,
appeal, call the referee), until the organizer receives the súmula
(art. 25: the receipt revokes the link, so a later correction does not revive it) or revokes the
link. It never countersigns, corrects, receives nor sees another match (``scoring.access``).

The API takes it as ``Authorization: Table <token>`` (:class:`TableAuthentication`); the table
page takes it from its URL. Either way the actor is a :class:`TableCredential`. The database keeps only
the token's keyed digest, which a request is looked up by, and its sealed text, which a reprint reads
(``tables.token_keys``, :func:`lookup`). This module owns the
:class:`~tables.models.TableLink` rows: issued, revoked and reissued by the organizer, closed by the
match's result (``scoring``'s receipt and W.O., ``tournaments``' results), reopened. A link shown on a
page is :func:`table_path` on the site's address (``scoring.site.absolute``).
"""
from __future__ import annotations

import secrets

from django.contrib.auth.models import AnonymousUser
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.authentication import BaseAuthentication, SessionAuthentication, get_authorization_header
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import BasePermission

from config.errors import Forbidden
from draw.models import Match
from events.access import active_user, manages

from . import token_keys
from .models import TableLink

SCHEME = b"table"
TOKEN_BYTES = 24  # 32 URL-safe characters, 192 bits


class TableCredential(AnonymousUser):
    """The table acting through its link: not a user (nothing is ``created_by`` it), but the link is
    recorded on what it enters."""

    def __init__(self, link: TableLink) -> None:
        super().__init__()
        self.table_link = link

    def __str__(self) -> str:
        return f"table:{self.table_link.pk}"

    @property
    def label(self) -> str:
        table = self.table_link.match.table if self.table_link.match_id else None
        return _("Table %(table)s (link)") % {"table": table} if table else _("The table (link)")


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def lookup(rows, token: str):
    """``rows`` (a queryset of links or cards) narrowed to the one ``token`` names, by its digest under each
    key (``token_keys``): an index lookup, never a scan nor a comparison of tokens. A token of an impossible
    length finds nothing."""
    if not token or len(token) > 64:
        return rows.none()
    return rows.filter(digest__in=token_keys.digests(token))


def found(row, token: str):
    """The row found, when its digest is ``token``'s (compared in constant time), else None."""
    return row if row is not None and token_keys.matches(token, row.digest) else None


def active_link(match: Match) -> TableLink | None:
    return match.table_links.filter(revoked_at__isnull=True).first()


def ensure_links(matches) -> dict[int, TableLink]:
    """The active link of every match given, created for a match that never had one; ``{match_id: link}``.

    A match whose links were all revoked (the organizer's "revoke", a received súmula, a W.O.) stays
    without one, also when a correction reopens it: only :func:`reissue` gives it a new link
    (docs/table-links.md). Such a match is absent from the answer."""
    matches = list(matches)
    ids = [m.pk for m in matches]
    links = {link.match_id: link for link in TableLink.objects.filter(match_id__in=ids, revoked_at__isnull=True)}
    had = set(TableLink.objects.filter(match_id__in=[pk for pk in ids if pk not in links])
              .values_list("match_id", flat=True).distinct()) if len(links) < len(set(ids)) else set()
    missing = [TableLink(match_id=pk, token=new_token())
               for pk in dict.fromkeys(ids) if pk not in links and pk not in had]
    if missing:
        TableLink.objects.bulk_create(missing, ignore_conflicts=True)
        links = {link.match_id: link
                 for link in TableLink.objects.filter(match_id__in=ids, revoked_at__isnull=True)}
    return links


def is_organizer(user, match: Match) -> bool:
    """``user`` organizes the match's tournament (``events.access.manages``; ``scoring.access.is_organizer``
    is the same rule, for the súmula)."""
    return active_user(user) and manages(user, match.tournament if match.tournament_id else None)


def reissue(match: Match, by) -> TableLink:
    """The organizer revokes the table's link and issues a new one (a lost or leaked card)."""
    if not is_organizer(by, match):
        raise Forbidden(_("Only the tournament's organizer revokes and reissues table links."))
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        now = timezone.now()
        match.table_links.filter(revoked_at__isnull=True).update(revoked_at=now, revoked_by=by)
        Match.objects.filter(pk=match.pk).update(updated_at=now)  # the round page shows the links: it is stale
        try:
            with transaction.atomic():
                return TableLink.objects.create(match=match, token=new_token(), created_by=by, created_at=now)
        except IntegrityError:  # another reissue won the race: keep its link
            return active_link(match)


def revoke(match: Match, by) -> int:
    """The organizer revokes the table's link without a new one; the number of links revoked."""
    if not is_organizer(by, match):
        raise Forbidden(_("Only the tournament's organizer revokes and reissues table links."))
    now = timezone.now()
    Match.objects.filter(pk=match.pk).update(updated_at=now)  # the round page shows the links: it is stale
    return match.table_links.filter(revoked_at__isnull=True).update(revoked_at=now, revoked_by=by)


def close(match: Match, by, closed_as: str) -> int:
    """Revoke the match's links because its result was decided without the súmula (a W.O., an organizer's
    result) or its súmula was received: closed to entries, and ``closed_as`` says why (a table
    refused is told so). The caller checked who may; how many were active."""
    return close_all([match.pk], by, closed_as)


def close_all(match_ids, by, closed_as: str) -> int:
    """:func:`close` for many matches at once (the walkovers of a withdrawn pair, of a generated round). A
    match that never had a link gets one already revoked, so that none is minted for it later
    (:func:`ensure_links`): a blank súmula or a card printed after the W.O. carries no live link, whatever
    path printed it, and shows the W.O. instead (``walkover_ids``; a W.O. generated without a table has no
    card of a physical table either). The match's closed links all say ``closed_as``."""
    ids = list(dict.fromkeys(match_ids))
    if not ids:
        return 0
    now, who = timezone.now(), by if getattr(by, "is_authenticated", False) else None
    closed = TableLink.objects.filter(match_id__in=ids, revoked_at__isnull=True).update(revoked_at=now,
                                                                                        revoked_by=who)
    # every closed link of the match says why now (a link the organizer had revoked before a W.O. too)
    TableLink.objects.filter(match_id__in=ids, revoked_at__isnull=False).update(closed_as=closed_as)
    had = set(TableLink.objects.filter(match_id__in=ids).values_list("match_id", flat=True))
    TableLink.objects.bulk_create([TableLink(match_id=pk, token=new_token(), created_at=now, revoked_at=now,
                                             revoked_by=who, closed_as=closed_as) for pk in ids if pk not in had])
    return closed


def walkover_ids(match_ids) -> set[int]:
    """The matches among ``match_ids`` closed by a W.O. (art. 26) and not reopened since (no active link):
    their table is told so, and their card and blank súmula show the W.O. instead of a QR code. One query."""
    ids = list(match_ids)
    if not ids:
        return set()
    closed = set(TableLink.objects.filter(match_id__in=ids, closed_as=TableLink.ClosedAs.WALKOVER)
                 .values_list("match_id", flat=True))
    if not closed:
        return set()
    return closed - set(TableLink.objects.filter(match_id__in=closed, revoked_at__isnull=True)
                        .values_list("match_id", flat=True))


def refusal(token: str) -> str:
    """Why ``token`` no longer works, in the table's words (its refusal): a W.O. says so and
    cites its article; anything else the general rule. Only read on a refusal (never on an accepted entry)."""
    return walkover_refusal() if closed_by_walkover(token) else general_refusal()


def closed_by_walkover(token: str) -> bool:
    """``token`` is a link of a match decided by W.O. (art. 26), not reopened since."""
    link = found(lookup(TableLink.objects.filter(closed_as=TableLink.ClosedAs.WALKOVER), token)
                  .only("match_id", "digest").first(), token)
    return link is not None and link.match_id in walkover_ids([link.match_id])


def walkover_refusal() -> str:
    return _("This match was decided by W.O. (art. 26): it is not played, so this table link takes no hands "
             "nor signatures. Ask the organizing table which match is at this table now.")


def general_refusal() -> str:
    return _("This table link is not valid: it was revoked, or the súmula was already received (art. 25).")


def reopen(match: Match, by) -> TableLink:
    """A match to be played again after all (a W.O. taken back with a pair's reinstatement): a new active link
    (the old one stays dead), which its table's card then opens."""
    return active_link(match) or TableLink.objects.create(
        match=match, token=new_token(), created_by=by if getattr(by, "is_authenticated", False) else None)


def resolve(token: str) -> TableLink | None:
    """The active link of ``token`` whose súmula is not received yet (it stops working then), or None.

    Every request of a table runs it: one query, the link with its match. Inside a transaction (a
    table's write) the match is locked by the same query, and ``match.locked`` says so: the entry
    that follows does not lock and read it again (``services.hand_entry``)."""
    locked = transaction.get_connection().in_atomic_block
    links = lookup(TableLink.objects.select_related("match").filter(revoked_at__isnull=True), token).order_by()
    if locked:
        links = links.select_for_update(of=("match",))
    link = found(next(iter(links[:1]), None), token)
    if link is None or link.match.status == Match.Status.RECEIVED:
        return None
    link.match.locked = locked
    return link


def table_path(link: TableLink) -> str:
    return reverse("table:page", kwargs={"token": link.token})


# --------------------------------------------------------------------------------- the API


class TableAuthentication(BaseAuthentication):
    """``Authorization: Table <token>``: the link's last path segment. A revoked link or a received
    súmula is refused (401)."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower() != SCHEME:
            return None
        if len(parts) != 2:
            raise AuthenticationFailed(_("Send the table link's token: \"Authorization: Table <token>\"."))
        token = parts[1].decode("ascii", "replace")
        link = resolve(token)
        if link is None:   # a W.O. says so (art. 26); a revoked link or a received súmula the general rule
            raise AuthenticationFailed(refusal(token))
        return TableCredential(link), link

    def authenticate_header(self, request) -> str:
        return "Table"


class SessionUnlessTable(SessionAuthentication):
    """The session, except on a request that names its table (``Authorization: Table``): the table page
    sends its cookies (the device cookie counts PIN failures per phone, scoring/pins.py), and a phone
    also logged in stays the table there, not a session request needing a CSRF token (a cross-site
    page cannot send that header without the API's consent)."""

    def authenticate(self, request):
        parts = get_authorization_header(request).split()
        if parts and parts[0].lower() == SCHEME:
            return None
        return super().authenticate(request)


def table_of(request) -> TableLink | None:
    return getattr(request.user, "table_link", None)


class IsUserOrTable(BasePermission):
    """A logged-in user, or a table through its link; a table only on its own match
    (the view's ``table_match_id(request)``)."""

    message = "Log in, or send the table link (Authorization: Table <token>)."

    def has_permission(self, request, view) -> bool:
        link = table_of(request)
        if link is not None:
            return TableScope().has_permission(request, view)
        return bool(request.user and request.user.is_authenticated)


class TableScope(BasePermission):
    """A table sees and acts on its own match only; users and anonymous requests pass through."""

    message = "This table link is for another match."

    def has_permission(self, request, view) -> bool:
        link = table_of(request)
        if link is None:
            return True
        getter = getattr(view, "table_match_id", None)
        return getter is not None and getter(request) == link.match_id



try:  # the OpenAPI schema documents the scheme (drf-spectacular)
    from drf_spectacular.authentication import SessionScheme
    from drf_spectacular.extensions import OpenApiAuthenticationExtension

    class SessionUnlessTableScheme(SessionScheme):
        """The session, as drf-spectacular documents Django's (``cookieAuth``)."""

        target_class = SessionUnlessTable

    class TableAuthenticationScheme(OpenApiAuthenticationExtension):
        target_class = TableAuthentication
        name = "tableLink"

        def get_security_definition(self, auto_schema):
            return {"type": "apiKey", "in": "header", "name": "Authorization",
                    "description": "`Table <token>`: the table link's last path segment (docs/table-links.md)."}
except ImportError:  # pragma: no cover
    pass
