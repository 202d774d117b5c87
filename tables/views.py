"""The organizer's side of the table channel: revoke or reissue a match's table link
(``tables.links``) or the card of a physical table for the whole event (``tables.cards``). The round
page lists both beside the matches (``tournaments.public_views``); the round's table cards PDF is a
printing page (``printing.round_views``). Their URLs stay where they were printed
and bookmarked: ``scoring:table-link`` and ``tournaments:table-card`` mount these views."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from draw.models import Match
from events.access import manages
from events.models import Tournament

from . import cards, links


@require_POST
def manage_link(request, pk: int):
    match = get_object_or_404(Match.objects.select_related("tournament"), pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not links.is_organizer(request.user, match):
        raise PermissionDenied(_("Only the tournament's organizer revokes and reissues table links."))
    if request.POST.get("action") == "revoke":
        links.revoke(match, request.user)
        messages.success(request, _("The table link of table %(table)s was revoked.") % {"table": match.table or "—"})
    else:
        links.reissue(match, request.user)
        messages.success(request, _("Table %(table)s has a new link: print its card again; the old one no longer "
                                    "works.") % {"table": match.table or "—"})
    return _back(request)


@require_POST
def manage_card(request, slug: str, table: int):
    """The tournament's organizer only; an anonymous visitor logs in first (back to the dashboard)."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("tournaments:dashboard", kwargs={"slug": slug}))
    if not manages(request.user, tournament):
        raise PermissionDenied(_("Only the tournament's organizer can do this."))
    if request.POST.get("action") == "revoke":
        cards.revoke(tournament, table, request.user)
        messages.success(request, _("The card of table %(table)s was revoked.") % {"table": table})
    else:
        cards.reissue(tournament, table, request.user)
        messages.success(request, _("Table %(table)s has a new card: print the round's table cards again; the old "
                                    "card no longer works.") % {"table": table})
    return _back(request)


def _back(request):
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)
