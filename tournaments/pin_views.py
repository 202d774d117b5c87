"""The organizer's PIN pages: PINs issued at registration (form and CSV), the pair cards
PDF handed out at check-in, and a player's PIN reset. Only hashes are stored (tournaments.pins): the
PINs just issued are kept in the organizer's session until the cards are printed, the only place
they are shown besides the registration message.
"""
from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import get_template
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from scoring.pdf_sheets import qr_svg

from . import links, pins
from .models import Pair, Player, Tournament

SESSION_KEY = "fresh_pins"


def _remember(request, tournament: Tournament, issued: dict[int, str]) -> None:
    store = request.session.get(SESSION_KEY, {})
    mine = store.get(str(tournament.pk), {})
    mine.update({str(k): v for k, v in issued.items()})
    store[str(tournament.pk)] = mine
    request.session[SESSION_KEY] = store


def issue_at_registration(request, tournament: Tournament, pairs) -> dict[int, str]:
    """PINs for the players of newly registered pairs who have none; kept for the pair cards."""
    issued = pins.issue_for_pairs(pairs, only_missing=True)
    _remember(request, tournament, issued)
    return issued


def pins_message(pair: Pair, issued: dict[int, str]) -> str:
    shown = [f"{p.name}: {issued[p.pk]}" for p in pins.pair_players(pair) if p.pk in issued]
    return (_("PINs to sign the súmulas (shown once; also on the pair card): %(pins)s") % {"pins": "; ".join(shown)}
            if shown else "")


def active_pairs(tournament: Tournament):
    return list(tournament.pairs.exclude(status=Pair.Status.WITHDRAWN)
                .select_related("first_player", "second_player", "substitute").order_by("name"))


QR_MM = 30  # ~120 px at 100 dpi: ≥ 3 px a module for a pair page's address (zbar reads a cheap print)


def cards_pdf(tournament: Tournament, pairs, known: dict[str, str], base_url: str) -> bytes:
    """One card per pair, cut in two: each half carries one player's name and PIN (only that player's)
    and the QR code of the pair's page on ``base_url`` (``tournaments.links``)."""
    from weasyprint import HTML

    cards = []
    for pair in pairs:
        # the QR code opens the pair's page (its next match and table, live) on the printing address
        page = base_url + reverse("tournaments:pair", kwargs={"slug": tournament.slug, "pair": pair.pk})
        qr = mark_safe(qr_svg(page, size_mm=QR_MM))
        cards.append({"pair": pair, "page": page, "qr": qr,
                      "players": [{"name": p.name, "pin": known.get(str(p.pk), "")} for p in pins.pair_players(pair)]})
    with translation.override("pt-br"):
        html = get_template("tournaments/pair_cards.html").render({"tournament": tournament, "cards": cards})
    return HTML(string=html, base_url=str(settings.BASE_DIR)).write_pdf()


@require_POST
def pair_cards(request, tournament: Tournament):
    """All the pairs' cards in one PDF. ``renew=all``: new PINs for every player (earlier cards stop
    working); otherwise the PINs issued at registration in this session, and new ones for players without."""
    pairs = active_pairs(tournament)
    if request.POST.get("renew") == "all":
        issued = pins.issue_for_pairs(pairs)
    else:
        issued = pins.issue_for_pairs(pairs, only_missing=True)
    _remember(request, tournament, issued)
    known = request.session.get(SESSION_KEY, {}).get(str(tournament.pk), {})
    data = cards_pdf(tournament, pairs, known, links.printed_from(tournament, request))
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="cartoes-das-duplas-{tournament.slug}.pdf"'
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def reset_pin(request, tournament: Tournament, pk: int):
    player = get_object_or_404(Player, pk=pk)
    try:
        pin = pins.reset_pin(tournament, player, request.user)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        _remember(request, tournament, {player.pk: pin})
        messages.success(request, _("New PIN of %(player)s: %(pin)s (the old one no longer works).")
                         % {"player": player.name, "pin": pin})
    return redirect(f"/torneios/{tournament.slug}/painel/#pairs")
