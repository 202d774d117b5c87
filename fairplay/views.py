"""The fair-play report's page, ``/torneios/<slug>/jogo-limpo/``: for the event's organizers and referees only
(anyone else, logged in or not, gets the same 404 as a page that does not exist); every signed-in request,
shown or refused, is audited (``fairplay.report.record_access``). Thin: the report is ``fairplay.report``'s."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from tournaments.models import Tournament

from . import flags, report


@never_cache
@require_GET
def event_report(request, slug: str):
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)
    allowed = request.user.is_authenticated and report.may_read(request.user, tournament)
    if request.user.is_authenticated:  # an anonymous visitor is refused unrecorded: anyone could fill the log
        report.record_access(request.user, tournament, allowed)
    if not allowed:
        raise Http404(_("No such page."))
    return render(request, "fairplay/report.html", {
        "tournament": tournament, "report": report.event_report(tournament),
        "fast_game_seconds": int(flags.FAST_GAME_SECONDS), "q": flags.RUNS_Q})
