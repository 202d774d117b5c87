"""Printing pages of a tournament (mounted at /sumulas/impressao/, ``printing.urls``): the tournament's
printing index, a round's print form and its table cards PDF, all for the organizer.

Thin views over ``printing.jobs`` (which prints matches and runs the print jobs); they read the
tournament's rounds and the address its cards were printed from (``tournaments.links``), so printing
sits above tournaments (docs/architecture.md).
"""
from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from config.errors import Unavailable
from scoring import access
from scoring.models import Match
from tables.cards import card_path, ensure_cards
from tournaments import links
from tournaments.models import Round, Tournament

from . import jobs as printing
from . import table_cards
from .views import deny


@require_GET
def tournament_index(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    if not printing.can_print_round(request.user, tournament):
        return deny(request)
    rounds = tournament.rounds.order_by("number").prefetch_related("matches")
    jobs = tournament.print_jobs.select_related("round", "created_by")[:20]
    return render(request, "scoring/print_tournament.html", {"tournament": tournament, "rounds": rounds, "jobs": jobs})


@require_http_methods(["GET", "POST"])
def round_print(request, pk: int):
    round_ = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not printing.can_print_round(request.user, round_.tournament):
        return deny(request)
    error, message, status = "", "", 400
    if request.method == "POST":
        kind = request.POST.get("kind", "")
        if kind not in printing.KINDS:
            error = "kind"
        elif not round_.matches.exists():
            error = "empty"
        else:
            try:
                job = printing.start_print_job(kind=kind, user=request.user, round=round_,
                                               site_url=printing.site_address(request))
            except Unavailable as unavailable:  # the broker is down: said now, never a 500
                error, message, status = "unavailable", unavailable.message, 503
            else:
                return redirect("printing:job", pk=job.pk)
    matches = (
        round_.matches.select_related("pair_a", "pair_b").order_by("table", "pk")
    )
    jobs = round_.print_jobs.select_related("created_by")[:10]
    response = render(request, "scoring/print_round.html", {
        "round": round_, "tournament": round_.tournament, "matches": matches, "jobs": jobs, "error": error,
        "message": message,
    }, status=status if error else 200)
    if status == 503:
        response["Retry-After"] = str(Unavailable.retry_after)
    return response


@require_GET
def round_table_cards(request, pk: int):
    """The round's table cards: one page per table with the QR code of the table's card for the
    whole event (a match without a table number gets its own link)."""

    rnd = get_object_or_404(Round.objects.select_related("tournament"), pk=pk)
    if not access.manages(request.user, rnd.tournament):
        return deny(request)
    matches = Match.objects.filter(round=rnd).select_related(
        "round", "tournament", "pair_a__first_player__club", "pair_a__second_player__club",
        "pair_b__first_player__club", "pair_b__second_player__club").order_by("table", "pk")
    # one card per physical table, for the whole event: it follows the table's matches
    cards = ensure_cards(rnd.tournament, [m.table for m in matches if m.table])
    paths = {m.pk: card_path(cards[m.table]) for m in matches if m.table in cards}
    response = HttpResponse(table_cards.table_cards_pdf(matches, links.printed_from(rnd.tournament, request), paths),
                            content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="cartoes-de-mesa-rodada-{rnd.number}.pdf"'
    return response
