"""The page "Contas" (``/contas/``): what the admin was needed for before.

- creating an organizer account (account managers only, ``tournaments.accounts``): the answer shows,
  once, the link where the new organizer chooses their password (not stored, not put in a cookie,
  ``Cache-Control: no-store``); lost, the manager makes a new one for that login here;
- unlocking a login locked out by wrong passwords (``referee.lockouts``: managers any login,
  organizers their referees').

``/conta/senha/<uid>/<token>/`` is where the link lands: Django's password-reset confirmation (the
token works until a password is set, for ``PASSWORD_RESET_TIMEOUT``), then ``/entrar/``.
"""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth import views as auth_views
from django.contrib.auth.tokens import default_token_generator
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from config.errors import ServiceError
from events.access import ACTING_ROLES
from scoring import site
from tournaments import accounts

from . import lockouts, roles


class OrganizerForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Login"), max_length=150,
                               widget=forms.TextInput(attrs={"autocapitalize": "none", "autocomplete": "off"}))
    name = forms.CharField(label=gettext_lazy("Name"), max_length=300, required=False,
                           widget=forms.TextInput(attrs={"autocomplete": "off"}))
    email = forms.CharField(label=gettext_lazy("E-mail (optional: PIN lockout notices)"), max_length=254,
                            required=False, widget=forms.EmailInput(attrs={"autocomplete": "off"}))
    manager = forms.BooleanField(label=gettext_lazy("May also create organizer accounts"), required=False)

    def link_errors(self) -> None:
        """Each field in error points at its message (``<id>-error`` in the page) and says it is invalid, so a
        screen reader reads the message with the field."""
        for name in self.errors:
            if name in self.fields:
                attrs = self.fields[name].widget.attrs
                attrs["aria-invalid"] = "true"
                attrs["aria-describedby"] = f"{self[name].auto_id}-error"


class NewLinkForm(forms.Form):
    username = forms.CharField(max_length=150)


def password_link(user, request) -> str:
    """Where ``user`` chooses their password: works once (until a password is set) and for
    ``PASSWORD_RESET_TIMEOUT`` seconds."""
    return site.absolute(reverse("accounts:password-set", kwargs={
        "uidb64": urlsafe_base64_encode(force_bytes(user.pk)), "token": default_token_generator.make_token(user)}),
        request)


def _allowed(request):
    """The signed-in user, if an account manager or an organizer; else log in / 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("accounts:page"))
    if not (accounts.may_manage_accounts(request.user) or roles.summary(request.user).organizer):
        raise PermissionDenied(_("This page is for the organizers and the site's operators."))
    return None


def _waiting(user):
    """Organizer accounts still without a password (their link not used yet): a manager may make a new link.
    Only a superuser does so for a superuser or for another account manager: a link is the account."""
    if not accounts.may_manage_accounts(user):
        return []
    organizers = (get_user_model().objects.filter(is_active=True, last_login__isnull=True)
                  .filter(Q(is_superuser=True) | Q(organization_roles__role__in=ACTING_ROLES)).distinct().order_by("username"))
    return [u for u in organizers if not u.has_usable_password()
            and (user.is_superuser or not accounts.may_manage_accounts(u) and not u.is_superuser)]


def _page(request, *, form=None, shown=None, status=200):
    if form is not None:
        form.link_errors()
    response = render(request, "referee/accounts.html", {
        "manager": accounts.may_manage_accounts(request.user), "form": form or OrganizerForm(),
        "locks": lockouts.visible_to(request.user), "shown": shown, "waiting": _waiting(request.user),
        "days": accounts.link_days()}, status=status)
    response["Cache-Control"] = "no-store"  # a link to choose a password is on it, once
    return response


@never_cache
@require_GET
def page(request):
    return _allowed(request) or _page(request)


@never_cache
@require_POST
def create_organizer(request):
    refused = _allowed(request)
    if refused:
        return refused
    form = OrganizerForm(request.POST)
    if form.is_valid():
        try:
            user = accounts.create_organizer(**form.cleaned_data, by=request.user)
        except ServiceError as error:
            if error.status == 403:
                raise PermissionDenied(error.message) from None
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            shown = {"user": user, "url": password_link(user, request)}
            return _page(request, shown=shown)
    return _page(request, form=form, status=400)


@never_cache
@require_POST
def new_link(request):
    """A new password link for an organizer account that has not chosen its password yet."""
    refused = _allowed(request)
    if refused:
        return refused
    if not accounts.may_manage_accounts(request.user):
        raise PermissionDenied(_("Only the site's operators and account managers create organizer accounts."))
    form = NewLinkForm(request.POST)
    user = next((u for u in _waiting(request.user) if form.is_valid()
                 and u.username == form.cleaned_data["username"]), None)
    if user is None:
        messages.error(request, _("That account has chosen its password already (or does not exist): "
                                  "nothing to send."))
        return redirect(reverse("accounts:page"))
    return _page(request, shown={"user": user, "url": password_link(user, request)})


@require_POST
def unlock(request):
    refused = _allowed(request)
    if refused:
        return refused
    try:
        lock = lockouts.unlock(request.user, username=request.POST.get("username", ""),
                               address=request.POST.get("address", ""), stamp=request.POST.get("stamp", ""))
    except ServiceError as error:
        if error.status == 403:
            raise PermissionDenied(error.message) from None
        messages.error(request, error.message)
    else:
        messages.success(request, _("Login %(login)s unlocked: it can sign in again now.") % {"login": lock.username})
    return redirect(reverse("accounts:page") + "#locks")


class PasswordSetView(auth_views.PasswordResetConfirmView):
    """Where the link lands: the new organizer chooses their password (a dead link says so)."""

    template_name = "registration/password_set.html"
    success_url = reverse_lazy("accounts:password-done")
    post_reset_login = False


class PasswordDoneView(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_set_done.html"
