"""A player's personal data (LGPD, docs/people.md), thin pages over ``people.services.personal_data``:

- ``POST /jogadores/<id>/link-dos-dados/`` (an organizer of an event the player entered, or a site
  operator): issues the link and shows it this once, to hand to the player: a QR code to scan, a copy
  button and a WhatsApp message with it;
- ``/dados/<token>/``: the player's data (every field kept, every tournament), the JSON download
  (``exportar.json``) and the erasure (``apagar/``: the link, the typed confirmation and, when the player
  has one, their PIN, counted by ``scoring.pins`` like any PIN).

The token is in the path: these answers are never cached, send no referrer, and the request log
keeps only its first four characters (``config.logs``).
"""
from __future__ import annotations

import json
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from people.models import DataAccessLink, Player
from people.services import personal_data
from scoring import pins
from scoring.pdf_sheets import qr_svg

from . import player_page, players

CONFIRM_WORD = "APAGAR"
QR_MM = 48  # the link's QR code on the organizer's screen, scanned by the player's phone


def _private(response: HttpResponse) -> HttpResponse:
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


def _link(token: str) -> DataAccessLink:
    link = personal_data.link_for(token)
    if link is None:
        raise Http404(_("This link is not valid: it expired, was revoked or never existed. Ask the organizer for a new one."))
    DataAccessLink.objects.filter(pk=link.pk).update(used_at=timezone.now())
    return link


@login_required
@require_POST
def issue_link(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    if not players.may_issue_data_link(request.user, player):
        raise PermissionDenied(_("Only the organizers of events this player entered hand them their data link."))
    link, token = personal_data.issue_link(player, by=request.user)
    url = request.build_absolute_uri(reverse("tournaments:personal-data", kwargs={"token": token}))
    text = _("%(name)s, your personal data link (LGPD), for you alone: %(url)s") % {"name": link.player.name, "url": url}
    return _private(render(request, "people/data_link_issued.html", {
        "player": link.player, "url": url, "expires_at": link.expires_at,
        "qr": mark_safe(qr_svg(url, QR_MM)),  # noqa: S308 (our SVG)
        "whatsapp": "https://wa.me/?" + urlencode({"text": text})}))


@require_GET
def data_page(request, token: str):
    link = _link(token)
    person = player_page.merges.canonical(link.player)  # a record merged since: the person it became
    ids = player_page.merges.person_ids(person)
    return _private(render(request, "people/personal_data.html", {
        "player": person, "token": token, "history": player_page.history(ids), "confirm_word": CONFIRM_WORD,
        "clubs": player_page.clubs.history(person), "expires_at": link.expires_at}))


@require_GET
def export_json(request, token: str):
    link = _link(token)
    body = json.dumps(personal_data.export(link.player), ensure_ascii=False, indent=2, default=str)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="meus-dados-{link.player_id}.json"'
    return _private(response)


@require_http_methods(["POST"])
def erase(request, token: str):
    link = _link(token)
    player = link.player
    page = reverse("tournaments:personal-data", kwargs={"token": token})
    if request.POST.get("confirm", "").strip().upper() != CONFIRM_WORD:
        messages.error(request, _("Type %(word)s to confirm: nothing was erased.") % {"word": CONFIRM_WORD})
        return redirect(page)
    if player.has_pin:
        outcome = pins.verify(player, client=pins.client_of(request), pin=str(request.POST.get("pin", "")),
                              purpose="personal data")
        if not outcome.ok:
            messages.error(request, outcome.why)
            return redirect(page)
    personal_data.erase(player)
    return _private(render(request, "people/erased.html", {"player_id": player.pk}))
