"""The organizer's side of the table cards (one per physical table for the whole event): revoke or
reissue the card of a physical table (``tournaments.table_cards``); the round page lists them beside
the matches."""
from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import table_cards
from .view_helpers import organizer_only


@require_POST
@organizer_only
def manage_card(request, tournament, table: int):
    if request.POST.get("action") == "revoke":
        table_cards.revoke(tournament, table, request.user)
        messages.success(request, _("The card of table %(table)s was revoked.") % {"table": table})
    else:
        table_cards.reissue(tournament, table, request.user)
        messages.success(request, _("Table %(table)s has a new card: print the round's table cards again; the old "
                                    "card no longer works.") % {"table": table})
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)
