"""What a pair does from its public page (``public.views.pair_detail``) about the room, mounted
with the public pages:

- ``/torneios/<slug>/duplas/<pair>/chegamos/`` (POST form: ``player``, ``pin``): "Chegamos", the pair checks
  itself in (``room.services.self_check_in``);
- ``/torneios/avisos-sw.js``: the service worker that shows a call's notification (scope ``/torneios/``);
- ``/torneios/<slug>/duplas/<pair>/avisos/`` (POST JSON: the browser's push subscription, with one of the
  pair's players, ``player``, and that player's ``pin``) and
  ``.../avisos/cancelar/`` (POST JSON ``{"endpoint"}``): a phone starts or stops its notifications; the
  answers never carry the endpoint;
- ``/torneios/<slug>/duplas/<pair>/email/`` (POST form: ``player``, ``pin``, ``on``): a player asks, or
  stops asking, for an e-mail when their match is called (``room.services.notify``).

Thin: the checks and writes are the services'.
"""
from __future__ import annotations

import json

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from config.errors import ServiceError
from scoring.pins import client_of

from tournaments.models import Pair, Tournament
from tournaments.services import TournamentError
from tournaments.view_helpers import tournament_of

from .services import notify, self_check_in


def _pair(slug: str, pair: int) -> tuple[Tournament, Pair]:
    tournament = get_object_or_404(Tournament, slug=slug)
    found = Pair.objects.filter(tournament=tournament, pk=pair).first()
    if found is None:
        raise Http404(_("This tournament has no such pair."))
    return tournament, found


def _json(request) -> object:
    try:
        return json.loads(request.body or b"null")
    except ValueError:
        return None


@require_GET
def service_worker(request):
    response = HttpResponse(render(request, "room/notify_sw.js").content,
                            content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/torneios/"
    return response


@require_POST
def subscribe(request, slug: str, pair: int):
    _tournament, found = _pair(slug, pair)
    try:
        notify.subscribe(found, _json(request), client=client_of(request))
    except ServiceError as error:
        return JsonResponse(error.as_dict(), status=error.status)
    return JsonResponse({"subscribed": True}, status=201)


@require_POST
def unsubscribe(request, slug: str, pair: int):
    _tournament, found = _pair(slug, pair)
    data = _json(request)
    try:
        done = notify.unsubscribe(found, data.get("endpoint") if isinstance(data, dict) else None)
    except ServiceError as error:
        return JsonResponse(error.as_dict(), status=error.status)
    return JsonResponse({"revoked": done})


@require_POST
def call_email(request, slug: str, pair: int):
    tournament, found = _pair(slug, pair)
    player, on = request.POST.get("player", ""), request.POST.get("on") == "1"
    try:
        notify.set_call_email(tournament, found, int(player) if player.isdigit() else None,
                              request.POST.get("pin", ""), on, client=client_of(request))
        messages.success(request, _("Done: an e-mail goes to your contact when your match is called.") if on
                         else _("Done: no more e-mails when your match is called."))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect(reverse("tournaments:pair", kwargs={"slug": slug, "pair": pair}))


@require_POST
def arrived(request, slug: str, pair: int):
    """"Chegamos": the pair checks itself in with one of its players' PIN."""
    tournament = tournament_of(slug, request)
    found = Pair.objects.filter(tournament=tournament, pk=pair).first()
    if found is None:
        raise Http404(_("This tournament has no such pair."))
    player = request.POST.get("player", "")
    try:
        self_check_in.self_check_in(tournament, found, int(player) if player.isdigit() else None,
                                    request.POST.get("pin", ""), client=client_of(request))
        messages.success(request, _("Checked in: welcome! Your page shows your table when your match is called."))
    except TournamentError as error:
        messages.error(request, error.message)
    return redirect(reverse("tournaments:pair", kwargs={"slug": slug, "pair": pair}))
