"""The public sign-up pages and the organizer's list of sign-ups (rules in
``tournaments.services.signup``):

- ``/torneios/<slug>/inscricao/``: the form; once sent, the same address (POST) says where each player's
  confirmation link went (mailed to their own contact, never shown to the sender);
- ``/inscricao/<token>/``: one player's confirmation (a button; no PIN), nothing else about anyone;
- ``/torneios/<slug>/painel/inscricoes/``: the organizers' list (contacts, namesakes and the registered
  players they may be, refused floods, the waiting list's order), the options, approve (confirming the
  players no mail reached), link a player to their history, refuse.

Nothing here is cached: the pages are built per request (``never_cache``), no token reaches a log
(``config.logs`` redacts ``/inscricao/<token>/``). The form and the link pages give the phone the table
page's device cookie (``scoring.pins``) only to name the sender; sign-ups are limited per address and
tournament (a cookie costs nothing), and no PIN is checked here.
"""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import Forbidden, ServiceError
from scoring import site
from scoring.pins import client_of, set_device_cookie

from .models import SignUp, Tournament
from .services import signup as signups
from .services import signup_review
from .signup_forms import POSITIONS, ConfirmForm, LinkPlayerForm, SignUpForm, SignUpOptionsForm
from .view_helpers import organizer_only, tournament_of


def _sent(request, tournament: Tournament, signup: SignUp):
    """Where each player's link went: never the link itself (the sender is not the players)."""
    entries = list(signup.players.all())
    for entry in entries:
        entry.reachable = signup_review.reachable(entry)
    return render(request, "tournaments/signup_sent.html", {
        "tournament": tournament, "signup": signup, "entries": entries,
        "state": signup_review.state(signup), "expires_at": signup_review.expires_at(signup)})


@never_cache
@require_http_methods(["GET", "POST"])
def signup_page(request, slug: str):
    tournament = tournament_of(slug)
    info = signup_review.counts(tournament)
    if not info["options"].open:
        raise Http404(_("This tournament does not take sign-ups on its page."))
    form = SignUpForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            signup = signups.submit(tournament, submission=form.cleaned_data["submission"],
                                    client=client_of(request), pair_name=form.cleaned_data["pair_name"],
                                    players=[form.player(i) for i in POSITIONS],
                                    link_url=lambda token: site.absolute(reverse(
                                        "tournaments:signup-confirm", kwargs={"token": token}), request))
        except ServiceError as error:
            form.service_error(error)
        else:
            if signup.tournament_id != tournament.pk:
                raise Http404
            sent = [signup.pair_name] + [entry.name for entry in signup.players.all()]
            typed = [" ".join(form.cleaned_data["pair_name"].split())] + [
                " ".join(form.player(i)["name"].split()) for i in POSITIONS]
            if sent != typed:  # this form was sent before with other data: say so, never drop it silently
                messages.warning(request, _("This form had already been sent, as shown below; what you changed "
                                            "was not saved. To sign up another pair, open the sign-up page "
                                            "again."))
            return _sent(request, tournament, signup)
    response = render(request, "tournaments/signup.html", {"tournament": tournament, "form": form, "info": info},
                      status=400 if form.errors else 200)
    set_device_cookie(request, response)  # names the phone; the limit counts its address
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def confirm_page(request, token: str):
    entry = signups.find_player(token)
    if entry is None:
        return render(request, "tournaments/signup_confirm.html", {"invalid": True}, status=404)
    form = ConfirmForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            entry = signups.confirm(token, client=client_of(request))
        except ServiceError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Thank you, %(name)s: your sign-up is confirmed.") % {"name": entry.name})
            return redirect(request.path)
    signup = entry.signup
    response = render(request, "tournaments/signup_confirm.html", {
        "entry": entry, "signup": signup, "tournament": signup.tournament, "form": form,
        "state": signup_review.state(signup)}, status=400 if form.errors else 200)
    return response


# ------------------------------------------------------------------------------------ the organizers


def _list_url(tournament: Tournament) -> str:
    return reverse("tournaments:signups", kwargs={"slug": tournament.slug})


@never_cache
@organizer_only
@require_http_methods(["GET", "POST"])
def signups_page(request, tournament: Tournament):
    options = signup_review.options_of(tournament)
    form = SignUpOptionsForm(request.POST if request.method == "POST" else None, initial={
        "open": options.open, "pair_limit": options.pair_limit, "waiting_list": options.waiting_list,
        "deadline": options.deadline, "approval_required": options.approval_required})
    if request.method == "POST" and form.is_valid():
        try:
            signup_review.configure_signup(tournament, request.user, **form.cleaned_data)
        except Forbidden as error:
            raise PermissionDenied(error.message) from None
        except ServiceError as error:
            form.service_error(error)
        else:
            messages.success(request, _("Sign-up options saved."))
            return redirect(_list_url(tournament))
    rows = signup_review.signups_of(tournament)
    return render(request, "tournaments/signups.html", {
        "tournament": tournament, "form": form, "rows": rows, "options": options,
        "public_url": site.absolute(reverse("tournaments:signup", kwargs={"slug": tournament.slug}), request),
        "pairs": signup_review.active_pairs(tournament)}, status=400 if form.errors else 200)


def _decide(request, tournament: Tournament, pk: int, action):
    signup = get_object_or_404(SignUp, pk=pk, tournament=tournament)
    try:
        action(signup)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
        return None
    return signup


@organizer_only
@require_POST
def approve(request, tournament: Tournament, pk: int):
    signup = _decide(request, tournament, pk, lambda s: signup_review.approve(s, request.user))
    if signup is not None:
        messages.success(request, _("Sign-up of %(pair)s approved.") % {"pair": signup.pair_name})
    return redirect(_list_url(tournament) + f"#signup-{pk}")


@organizer_only
@require_POST
def refuse(request, tournament: Tournament, pk: int):
    signup = _decide(request, tournament, pk, lambda s: signup_review.refuse(s, request.user, request.POST.get("reason")))
    if signup is not None:
        messages.success(request, _("Sign-up of %(pair)s refused.") % {"pair": signup.pair_name})
    return redirect(_list_url(tournament) + f"#signup-{pk}")


@organizer_only
@require_POST
def link_player(request, tournament: Tournament, pk: int):
    """The organizer links a sign-up's player to the registered player of that name (no PIN asked)."""
    signup = get_object_or_404(SignUp, pk=pk, tournament=tournament)
    form = LinkPlayerForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a registered player to link."))
        return redirect(_list_url(tournament) + f"#signup-{pk}")
    entry = get_object_or_404(signup.players, position=form.cleaned_data["position"])
    try:
        entry = signup_review.link_player(entry, form.cleaned_data["player"], request.user)
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s linked to the registered player.") % {"name": entry.name})
    return redirect(_list_url(tournament) + f"#signup-{pk}")
