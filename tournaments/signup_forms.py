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
    """A pair signs itself up: its name and both players, each with their own contact (where their
    confirmation link is mailed). No PIN: the organizer links a player to their history."""

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
                label=_("e-mail (their confirmation link goes there; only the organizers see it)"), max_length=200,
                help_text=_("Or a phone: then the organizer confirms this player."))
            self.fields[f"p{i}_name"].widget.attrs["autocomplete"] = "off"
            for part in ("name", "nickname", "club", "contact"):
                field = self.fields[f"p{i}_{part}"]
                field.label = capfirst(field.label)
        if not self.is_bound:
            self.initial["submission"] = secrets.token_urlsafe(24)

    def player(self, i: int) -> dict:
        data = self.cleaned_data
        return {part: data.get(f"p{i}_{part}", "") for part in ("name", "nickname", "club", "contact")}

    def service_error(self, error: ServiceError) -> None:
        field = error.field or ""
        found = re.match(r"players\[(\d)\](?:\.(\w+))?$", field)
        if found:
            name = f"p{found[1]}_{found[2] or 'name'}"
            self.add_error(name if name in self.fields else None, error.message)
            return
        visible = field in self.fields and not self.fields[field].widget.is_hidden
        self.add_error(field if visible else None, error.message)  # a hidden field's refusal is the form's


class ConfirmForm(forms.Form):
    """The player confirms with a button: their link is the proof (it was mailed to them). No PIN here."""


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


class LinkPlayerForm(forms.Form):
    """The organizer links a sign-up's player to the registered player of the same name."""

    position = forms.TypedChoiceField(choices=[(0, "0"), (1, "1")], coerce=int)
    player = forms.IntegerField(min_value=1)
