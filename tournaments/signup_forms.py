"""Forms of the public sign-up and of its options. They shape input only; the rules are
``tournaments.services.signup``'s, and a refusal lands on the field it names."""
from __future__ import annotations

import re
import secrets

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from config.errors import ServiceError

from .forms import ServiceForm

POSITIONS = (0, 1)


class SignUpForm(ServiceForm):
    """A pair signs itself up: its name and both players; a player who played with this organizer before
    gives their PIN to keep their history (and is confirmed at once)."""

    id_prefix = "signup"
    submission = forms.CharField(widget=forms.HiddenInput, max_length=64)
    pair_name = forms.CharField(label=_("pair's name"), max_length=120)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for i in POSITIONS:
            self.fields[f"p{i}_name"] = forms.CharField(label=_("name"), max_length=120)
            self.fields[f"p{i}_nickname"] = forms.CharField(label=_("nickname"), max_length=60, required=False)
            self.fields[f"p{i}_club"] = forms.CharField(label=_("club"), max_length=120, required=False)
            self.fields[f"p{i}_contact"] = forms.CharField(
                label=_("contact (phone or e-mail, only the organizers see it)"), max_length=200, required=False)
            self.fields[f"p{i}_pin"] = forms.CharField(
                label=_("PIN (if you have played in this organizer's tournaments)"), max_length=12, required=False,
                widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))
            self.fields[f"p{i}_name"].widget.attrs["autocomplete"] = "off"
            for part in ("name", "nickname", "club", "contact", "pin"):
                field = self.fields[f"p{i}_{part}"]
                field.label = capfirst(field.label)
        if not self.is_bound:
            self.initial["submission"] = secrets.token_urlsafe(24)

    def player(self, i: int) -> dict:
        data = self.cleaned_data
        return {part: data.get(f"p{i}_{part}", "") for part in ("name", "nickname", "club", "contact", "pin")}

    def service_error(self, error: ServiceError) -> None:
        field = error.field or ""
        found = re.match(r"players\[(\d)\](?:\.(\w+))?$", field)
        if found:
            name = f"p{found[1]}_{found[2] or 'name'}"
            self.add_error(name if name in self.fields else None, error.message)
            return
        self.add_error(field if field in self.fields else None, error.message)


class ConfirmForm(forms.Form):
    pin = forms.CharField(label=_("Your PIN (optional: keeps your history with this organizer)"), max_length=12,
                          required=False,
                          widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}))


class SignUpOptionsForm(ServiceForm):
    id_prefix = "signup_options"
    open = forms.BooleanField(label=_("Sign-up open on the public page"), required=False)
    pair_limit = forms.IntegerField(label=_("Limit of pairs (empty: no limit)"), min_value=2, max_value=10_000,
                                    required=False)
    waiting_list = forms.BooleanField(label=_("Waiting list past the limit (it fills the places of pairs that "
                                              "withdraw)"), required=False)
    deadline = forms.DateTimeField(label=_("Deadline (empty: until the draw)"), required=False,
                                   widget=forms.DateTimeInput(attrs={"type": "datetime-local"},
                                                              format="%Y-%m-%dT%H:%M"),
                                   input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"])
    approval_required = forms.BooleanField(label=_("I approve each pair before it is registered"), required=False)
