"""The "Desfazer" toast of the organizer's dashboard (the rules in
``tournaments.services.undo``): the view of a reversible action leaves an offer in the session
(:func:`offer` after a withdrawal, :func:`offer_result` after a result typed by hand), the next
dashboard takes it (:func:`take`) and shows it in the messages for ``TOAST_SECONDS``; its button posts
the audit entry it undoes (``pair_views.undo_withdrawal``, ``match_views.undo_result``)."""
from __future__ import annotations

from django.urls import reverse
from django.utils.translation import ngettext

from scoring.models import Match
from scoring.words import pair_names

from . import services
from .models import Pair, Tournament
from .services.undo import TOAST_SECONDS

KEY = "undo_offer"


def offer(request, pair: Pair) -> bool:
    """Offer the undo of the pair's withdrawal just recorded; False when it may not be undone."""
    entry = services.undo_offer(pair)
    if entry is not None:
        request.session[KEY] = {"tournament": pair.tournament_id, "pair": pair.pk, "entry": entry.pk}
    return entry is not None


def offer_result(request, match: Match) -> bool:
    """Offer the undo of the result just set by hand on ``match``; False when it may not be undone."""
    entry = services.result_undo_offer(match)
    if entry is not None:
        request.session[KEY] = {"tournament": match.tournament_id, "match": match.pk, "entry": entry.pk}
    return entry is not None


def _pair_toast(tournament: Tournament, data: dict) -> dict | None:
    pair = Pair.objects.filter(pk=data.get("pair"), tournament=tournament).first()
    entry = services.undo_offer(pair) if pair is not None else None
    if entry is None or entry.pk != data.get("entry"):
        return None
    text = ngettext("%(pair)s withdrew.", "%(pair)s withdrew.", pair_names.number(pair.name)) % {"pair": pair.name}
    return {"text": text, "entry": entry.pk, "fragment": "pairs",
            "url": reverse("tournaments:undo-withdrawal", kwargs={"slug": tournament.slug, "pk": pair.pk})}


def _result_toast(tournament: Tournament, data: dict) -> dict | None:
    match = (Match.objects.filter(pk=data.get("match"), tournament=tournament)
             .select_related("tournament_result__winner").first())
    entry = services.result_undo_offer(match) if match is not None else None
    result = getattr(match, "tournament_result", None) if entry is not None else None
    if entry is None or entry.pk != data.get("entry") or result is None:
        return None
    scores = (result.games_a, result.games_b) if match.best_of > 1 or not (result.points_a or result.points_b) \
        else (result.points_a, result.points_b)
    name = result.winner.name
    text = pair_names.contract(ngettext("Result set: %(winner)s won %(a)s–%(b)s.", "Result set: %(winner)s won "
                                        "%(a)s–%(b)s.", pair_names.number(name))
                               % {"winner": name, "a": max(scores), "b": min(scores)}, name)
    return {"text": text, "entry": entry.pk, "fragment": "matches rounds next-step", "focus": f"lp-{match.pk}",
            "url": reverse("tournaments:undo-result", kwargs={"slug": tournament.slug, "pk": match.pk})}


def take(request, tournament: Tournament) -> dict | None:
    """The offer left for this tournament's dashboard, once, if it can still be undone."""
    data = request.session.get(KEY)
    if not data or data.get("tournament") != tournament.pk:
        return None
    del request.session[KEY]
    toast = _result_toast(tournament, data) if data.get("match") else _pair_toast(tournament, data)
    return {**toast, "seconds": TOAST_SECONDS} if toast else None
