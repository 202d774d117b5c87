"""What every page of the tournaments app stands on: the tournament of a page (:func:`tournament_of`),
the context every public page shares (:func:`public_context`), the organizer's gate
(:func:`organizer_only`), the way back to the dashboard (:func:`back`), and :func:`act`, the one shape
of the dashboard's actions: post, call a service, show a message, redirect.

A refusal from a service (``config.errors.ServiceError``) becomes an error message; a
``Forbidden`` becomes 403 (:func:`fail`). Nothing here writes: the writes are the services'.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError

from . import pages, services
from .models import Stage, Tournament


def tournament_of(slug: str, request=None) -> Tournament:
    """The tournament of a page; the one ``public.conditional`` already read for the page's
    ETag when there is one (no second query)."""
    known = getattr(request, "public_tournament", None)
    if known is not None and known.slug == slug:
        return known
    return get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)


def public_context(request, tournament: Tournament, active: str, stage: Stage | None = None, **extra) -> dict:
    """The tournament, its stage, the public pages' links (``active`` is the page shown) and whether
    the visitor manages it."""
    return {
        "tournament": tournament,
        "stage": stage,
        "links": pages.public_links(tournament, stage),
        "active": active,
        "can_manage": services.can_manage(request.user, tournament),
        **extra,
    }


def organizer_only(view):
    """Load the tournament from ``slug``; anonymous visitors log in first, other users get 403."""

    @wraps(view)
    def wrapper(request, slug: str, *args, **kwargs):
        tournament = tournament_of(slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path() if request.method == "GET"
                                     else reverse("tournaments:dashboard", kwargs={"slug": slug}))
        if not services.can_manage(request.user, tournament):
            raise PermissionDenied(_("Only the tournament's organizer can do this."))
        return view(request, tournament, *args, **kwargs)

    return wrapper


def dashboard_url(tournament: Tournament, anchor: str = "", round_number: int | None = None) -> str:
    url = reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})
    if round_number is not None:
        url += f"?rodada={round_number}"
    return url + (f"#{anchor}" if anchor else "")


def back(tournament: Tournament, request, anchor: str = ""):
    """Back to the dashboard, on the round the organizer was looking at while it still has matches
    to decide (then on the current round, where the next matches are)."""
    number = request.POST.get("rodada") or request.GET.get("rodada")
    number = int(number) if str(number).isdigit() else None
    if number is not None:
        shown = next((r for r in pages.generated_rounds(tournament) if r.number == number), None)
        if shown is None or shown.official_count >= shown.match_count:
            number = None
            anchor = "matches" if anchor.startswith("match-") else anchor
    return redirect(dashboard_url(tournament, anchor, number))


def fail(request, error: ServiceError) -> None:
    """A service's refusal: 403 when it is one of permission, else an error message."""
    if isinstance(error, Forbidden):
        raise PermissionDenied(error.message)
    messages.error(request, error.message)


#: the labels of the fields a service names in its refusals (``error.field``) on the dashboard's forms
FIELD_LABELS = {
    "name": lambda: _("Pair name"), "first_player": lambda: _("First player"),
    "second_player": lambda: _("Second player"), "substitute": lambda: _("Substitute"),
    "rating": lambda: _("Rating"), "seed": lambda: _("Seed"), "username": lambda: _("Login"),
    "password": lambda: _("Password"), "table": lambda: _("Table"),
}


def fail_naming_field(request, error: ServiceError) -> None:
    """:func:`fail`, the message led by the label of the field it names (``first_player.name``: "First
    player")."""
    label = FIELD_LABELS.get((getattr(error, "field", "") or "").split(".")[0])
    fail(request, error if label is None else type(error)(f"{label()}: {error.message}", error.field))


def number_or_none(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None


def form_errors(request, form) -> None:
    """Each error of a form as a message, named by its field's label."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


def act(request, tournament: Tournament, call: Callable[[], Any], done: str | Callable[[Any], str],
        anchor: str = "", *, refused_anchor: str | None = None,
        on_refusal: Callable[[Any, ServiceError], None] = fail,
        then: Callable[[Any], HttpResponse] | None = None) -> HttpResponse:
    """The dashboard's action: ``call()`` runs the service; its refusal (a ``ServiceError``) goes to
    ``on_refusal`` (a message, or 403); else ``done`` (a text, or a function of what the call returned)
    is the success message. Then back to the dashboard at ``anchor`` (``refused_anchor`` after a refusal,
    when it differs), or after a success where ``then`` (a function of what the call returned) sends."""
    try:
        result = call()
    except ServiceError as error:
        on_refusal(request, error)
        return back(tournament, request, anchor if refused_anchor is None else refused_anchor)
    text = done(result) if callable(done) else done
    if text:
        messages.success(request, text)
    return then(result) if then is not None else back(tournament, request, anchor)
