"""The organizer's side of the table links: revoke or reissue a table's link. The round
page lists the links (tournaments/views.py ``round_detail``); the round's table cards PDF is a
printing page of tournaments (``tournaments/print_views.py``)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import access, table_links
from .models import Match


@require_POST
def manage_link(request, pk: int):
    match = get_object_or_404(Match.objects.select_related("tournament"), pk=pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not access.is_organizer(request.user, match):
        raise PermissionDenied(_("Only the tournament's organizer revokes and reissues table links."))
    if request.POST.get("action") == "revoke":
        table_links.revoke(match, request.user)
        messages.success(request, _("The table link of table %(table)s was revoked.") % {"table": match.table or "—"})
    else:
        table_links.reissue(match, request.user)
        messages.success(request, _("Table %(table)s has a new link: print its card again; the old one no longer "
                                    "works.") % {"table": match.table or "—"})
    target = request.POST.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)
