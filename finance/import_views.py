"""The statement import page, ``/torneios/<slug>/painel/dinheiro/extrato/``: upload the bank's
statement, see each credit matched, ambiguous or unmatched, and confirm. Thin: reading and matching
are ``finance.statement_import``; the lines go from the preview to the confirmation signed (the
organizer cannot alter an amount between the two)."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.errors import ServiceError
from events import access
from tournaments.view_helpers import tournament_of

from . import bank, statement_import
from .services import MoneyRefused

SALT = "finance.statement"
MAX_BYTES = 2 * 1024 * 1024


def _picks(post, proposals) -> dict[str, int | None]:
    picks: dict[str, int | None] = {}
    for p in proposals:
        chosen = post.get("pick-" + p.line.key, "")
        if p.state == statement_import.MATCHED and chosen:
            picks[p.line.key] = p.entry.pk
        elif p.state == statement_import.AMBIGUOUS and chosen.isdigit() and int(chosen) in {e.pk for e in p.choices}:
            picks[p.line.key] = int(chosen)
        elif p.state == statement_import.UNMATCHED and chosen == "seen":
            picks[p.line.key] = None
    return picks


@never_cache
@require_http_methods(["GET", "POST"])
def statement(request, slug: str):
    tournament = tournament_of(slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not access.manages(request.user, tournament):
        raise PermissionDenied(_("Only the event's organizers see and touch its money."))
    context, status = {"tournament": tournament}, 200
    try:
        if request.method == "POST" and request.POST.get("action") == "confirm":
            try:
                data = signing.loads(request.POST.get("lines", ""), salt=SALT, max_age=6 * 3600)
            except signing.BadSignature:
                raise MoneyRefused(_("The preview expired: upload the statement again."), "statement") from None
            lines = [bank.BankLine.from_json(x) for x in data]
            proposals = statement_import.propose(tournament, request.user, lines)
            made = statement_import.confirm(tournament, request.user, lines, _picks(request.POST, proposals))
            messages.success(request, _("Statement imported: %(n)s payment(s) recorded.") % {"n": len(made)})
            return redirect(reverse("finance:money", kwargs={"slug": slug}) + "#paid")
        if request.method == "POST":
            upload = request.FILES.get("statement")
            if upload is None:
                raise MoneyRefused(_("Choose the statement's file."), "statement")
            if upload.size > MAX_BYTES:
                raise MoneyRefused(_("The file is larger than 2 MB."), "statement")
            lines = statement_import.read(upload.name, upload.read())
            proposals = statement_import.propose(tournament, request.user, lines)
            context.update(proposals=proposals, file_name=upload.name,
                           signed=signing.dumps([x.as_json() for x in lines], salt=SALT, compress=True),
                           counts={s: sum(1 for p in proposals if p.state == s) for s in (
                               statement_import.MATCHED, statement_import.AMBIGUOUS, statement_import.UNMATCHED,
                               statement_import.DONE)},
                           matched_total=statement_import.total(proposals, statement_import.MATCHED))
    except ServiceError as error:
        messages.error(request, error.message)
        status = error.status
    return render(request, "finance/statement.html", context, status=status)
