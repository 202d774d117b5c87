"""Public pages of issue 13 §3 (mounted with the other tournament pages, Portuguese paths):

- ``/torneios/<slug>/versao/``: the change marker the live pages poll (ETag, 304; ``tournaments.live``);
- ``/torneios/<slug>/telao/``: the projector view (a 1920×1080 screen across the room), cycling
  between the current round's tables, the bracket and the standings, live;
- ``/torneios/<slug>/duplas/<pair>/``: a pair's page (players, matches, scores, súmulas);
- ``/torneios/<slug>/rodadas/<number>/mural.pdf``: the round's wall sheet (PDF).

Thin: the data comes from ``tournaments.live_pages``; nothing here writes.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.pins import client_of

from . import live, live_pages, pages, services
from .models import Pair, Round, Tournament
from .services import notify, self_check_in


def _tournament(slug: str, request) -> Tournament:
    """The page's tournament; the one ``tournaments.conditional`` read for the ETag when it did."""
    known = getattr(request, "public_tournament", None)
    if known is not None and known.slug == slug:
        return known
    return get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)


@require_GET
def version(request, slug: str):
    return live.version_response(request, slug)


@require_GET
def projector(request, slug: str):
    tournament = _tournament(slug, request)
    context = {"projector": live_pages.projector_slides(tournament), "tournament": tournament,
               "slide_seconds": live_pages.SLIDE_SECONDS}
    context["stage"] = context["projector"].stage
    return live.render_live(request, "tournaments/projector.html", "tournaments/_projector_slides.html", context)


@require_GET
def pair_detail(request, slug: str, pair: int):
    from .where import next_match  # issue 25 §5: where the pair plays now, live

    tournament = _tournament(slug, request)
    if live.wants_fragment(request):  # the live part only: the pair's next match and its table
        found = Pair.objects.filter(tournament=tournament, pk=pair).first()
        if found is None:
            raise Http404(_("This tournament has no such pair."))
        return live.render_live(request, "", "tournaments/_pair_where.html", {"next": next_match(found)})
    stage = pages.stage_of(tournament)
    found = live_pages.pair_page(tournament, pair, stage)
    if found is None:
        raise Http404(_("This tournament has no such pair."))
    return live.render_live(request, "tournaments/pair.html", "tournaments/_pair_where.html", {
        "tournament": tournament, "stage": stage, "links": pages.public_links(tournament, stage), "active": "",
        "can_manage": services.can_manage(request.user, tournament), "pair": found.pair, "matches": found.matches,
        "byes": found.byes, "standing": found.standing, "next": next_match(found.pair),
        "self_check_in": self_check_in.state(tournament, found.pair),
        "notify": {"push": notify.push_configured(), "email": notify.email_configured(),
                   "vapid": settings.WEBPUSH_VAPID_PUBLIC_KEY}})


@require_POST
def arrived(request, slug: str, pair: int):
    """"Chegamos": the pair checks itself in with one of its players' PIN (issue 25 §6)."""
    tournament = _tournament(slug, request)
    found = Pair.objects.filter(tournament=tournament, pk=pair).first()
    if found is None:
        raise Http404(_("This tournament has no such pair."))
    player = request.POST.get("player", "")
    try:
        self_check_in.self_check_in(tournament, found, int(player) if player.isdigit() else None,
                                    request.POST.get("pin", ""), client=client_of(request))
        messages.success(request, _("Checked in: welcome! Your page shows your table when your match is called."))
    except services.TournamentError as error:
        messages.error(request, error.message)
    return redirect(reverse("tournaments:pair", kwargs={"slug": slug, "pair": pair}))


@require_GET
def wall_sheet(request, slug: str, number: int):
    tournament = _tournament(slug, request)
    rnd = Round.objects.filter(tournament=tournament, number=number, generated_at__isnull=False).first()
    if rnd is None:
        raise Http404(_("No round with this number."))
    rnd.tournament = tournament
    response = HttpResponse(live_pages.wall_sheet_pdf(tournament, rnd), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-round-{rnd.number}-wall-sheet.pdf"'
    return response
