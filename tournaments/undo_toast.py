"""The "Desfazer" toast of the organizer's dashboard (issue 26 §5; the rules in
``tournaments.services.undo``): the view of a reversible action leaves an offer in the session
(:func:`offer`), the next dashboard takes it (:func:`take`) and shows it in the messages for
``TOAST_SECONDS``; its button posts the audit entry it undoes to ``organizer_views.undo_withdrawal``."""
from __future__ import annotations

from django.urls import reverse

from . import services
from .models import Pair, Tournament
from .services.undo import TOAST_SECONDS

KEY = "undo_offer"


def offer(request, pair: Pair) -> None:
    entry = services.undo_offer(pair)
    if entry is not None:
        request.session[KEY] = {"tournament": pair.tournament_id, "pair": pair.pk, "entry": entry.pk}


def take(request, tournament: Tournament) -> dict | None:
    """The offer left for this tournament's dashboard, once, if it can still be undone."""
    data = request.session.get(KEY)
    if not data or data.get("tournament") != tournament.pk:
        return None
    del request.session[KEY]
    pair = Pair.objects.filter(pk=data.get("pair"), tournament=tournament).first()
    entry = services.undo_offer(pair) if pair is not None else None
    if entry is None or entry.pk != data.get("entry"):
        return None
    return {"pair": pair, "entry": entry.pk, "seconds": TOAST_SECONDS,
            "url": reverse("tournaments:undo-withdrawal", kwargs={"slug": tournament.slug, "pk": pair.pk})}
