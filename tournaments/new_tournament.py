"""The new-tournament form: the tournament and its whole format in one page (the
organizer's day in fewer taps). Besides the name, date, venue, match format and the first stage's
format, it takes what a groups → knockout event needs — the number of groups, the qualifiers per
group, the best of the next place who qualify too (the two best thirds of three groups make a
knockout of 8), the third-place match — and the final's match format (a best-of-3 final), which
otherwise took two more forms on the dashboard (the Format panel, the knockout's settings).

Only shapes input: ``save(by)`` calls ``services.create_tournament`` and ``services.configure_stage`` (with a
groups → knockout event's knockout settings: the whole format is one audit entry), in one transaction;
a refusal becomes an error on the field it names. A value given for a format it does not apply to
is refused, naming the field (never dropped silently).
"""
from __future__ import annotations

from django import forms
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy

from events.access import ACTING_ROLES
from events.models import Organization

from . import services
from .models import Stage, Tournament

GROUP_FORMATS = (Stage.Format.ROUND_ROBIN, Stage.Format.GROUPS_KNOCKOUT)
FINAL_FORMATS = (Stage.Format.SINGLE_ELIMINATION, Stage.Format.GROUPS_KNOCKOUT)

#: the form's field -> the formats it applies to (the page shows it only for those, with JavaScript)
APPLIES_TO = {
    "group_count": GROUP_FORMATS,
    "qualifiers_per_group": (Stage.Format.GROUPS_KNOCKOUT,),
    "next_place_qualifiers": (Stage.Format.GROUPS_KNOCKOUT,),
    "third_place": FINAL_FORMATS,
    "final_best_of": FINAL_FORMATS,
    "grand_final_reset": (Stage.Format.DOUBLE_ELIMINATION,),
}


class NewTournamentForm(forms.Form):
    """A new tournament and its format; ``save(by)`` returns it (or None, errors on the form)."""

    name = forms.CharField(label=gettext_lazy("name"), max_length=120,
                           widget=forms.TextInput(attrs={"autofocus": True}))  # the page's first step
    date = forms.DateField(label=gettext_lazy("date"), widget=forms.DateInput(attrs={"type": "date"}))
    venue = forms.CharField(label=gettext_lazy("venue"), max_length=200, required=False)
    best_of = forms.TypedChoiceField(label=gettext_lazy("match format"), coerce=int,
                                     choices=Tournament.BestOf.choices, initial=Tournament.BestOf.ONE)
    format = forms.ChoiceField(label=gettext_lazy("format"), choices=Stage.Format.choices)
    group_count = forms.IntegerField(
        label=gettext_lazy("groups (round robin, groups then knockout)"), min_value=1, max_value=64, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}), help_text=gettext_lazy("Empty: one group."))
    qualifiers_per_group = forms.IntegerField(
        label=gettext_lazy("qualifiers per group (groups then knockout)"), min_value=1, max_value=64, required=False,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}), help_text=gettext_lazy("Empty: 2."))
    next_place_qualifiers = forms.IntegerField(
        label=gettext_lazy("and the best of the next place (groups then knockout)"), min_value=0, max_value=64,
        required=False, widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        help_text=gettext_lazy("How many of the pairs placed just after the qualifiers of each group qualify too, "
                               "the best across the groups: 3 groups, the top 2 and the best 2 thirds make a "
                               "knockout of 8."))
    seeding = forms.ChoiceField(label=gettext_lazy("Seeding"), choices=Stage.Seeding.choices,
                                initial=Stage.Seeding.ORDER, required=False)
    third_place = forms.BooleanField(label=gettext_lazy("Third-place match (elimination)"), required=False)
    final_best_of = forms.TypedChoiceField(
        label=gettext_lazy("the final's match format (knockout)"), coerce=int, empty_value=None, required=False,
        choices=[("", gettext_lazy("As the other matches"))] + list(Tournament.BestOf.choices))
    grand_final_reset = forms.BooleanField(label=gettext_lazy("Grand-final reset (double elimination)"),
                                           required=False, initial=True)
    check_in_required = forms.BooleanField(label=gettext_lazy("check-in required"), required=False)

    #: a service's field -> this form's
    field_map = {"qualifiers": "next_place_qualifiers", "round_best_of": "final_best_of"}

    def __init__(self, *args, user=None, **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")  # labels in sentence case, without a colon
        super().__init__(*args, **kwargs)
        # whose event it is: asked only of an organizer acting for more than one club or federation
        choices = list(Organization.objects.filter(members__user=user, members__role__in=ACTING_ROLES).order_by("name").values_list("pk", "name")
                       ) if user is not None and user.is_authenticated else []
        if len(choices) > 1:
            self.fields = {"organization": forms.TypedChoiceField(
                label=gettext_lazy("club or federation"), coerce=int, choices=choices), **self.fields}
        for name, field in self.fields.items():
            field.label = capfirst(field.label)
            # a format-specific field's formats, for the page (``data-formats``)
            field.formats = " ".join(APPLIES_TO.get(name, ()))

    def clean(self):
        data = super().clean()
        chosen = data.get("format")
        if not chosen:
            return data
        for name in ("group_count", "qualifiers_per_group", "next_place_qualifiers", "final_best_of"):
            if data.get(name) not in (None, "") and chosen not in APPLIES_TO[name]:
                self.add_error(name, gettext_lazy("Only for: %(formats)s.") % {"formats": ", ".join(
                    str(Stage.Format(f).label) for f in APPLIES_TO[name])})
        return data

    def save(self, by) -> Tournament | None:
        if not self.is_valid():
            return None
        data = self.cleaned_data
        chosen = data["format"]
        stage = {"format": chosen, "seeding": data["seeding"] or Stage.Seeding.ORDER,
                 "third_place": data["third_place"], "grand_final_reset": data["grand_final_reset"]}
        if data["group_count"]:
            stage["group_count"] = data["group_count"]
        if data["qualifiers_per_group"]:
            stage["qualifiers_per_group"] = data["qualifiers_per_group"]
        final = {"-1": data["final_best_of"]} if data["final_best_of"] else None
        knockout = {}
        if chosen == Stage.Format.GROUPS_KNOCKOUT:
            if data["next_place_qualifiers"]:
                knockout["qualifiers"] = data["next_place_qualifiers"]
            if final:
                knockout["round_best_of"] = final
        elif final:
            stage["round_best_of"] = final
        try:
            with transaction.atomic():
                tournament = services.create_tournament(
                    by, name=data["name"], date=data["date"], venue=data["venue"], best_of=data["best_of"],
                    check_in_required=data["check_in_required"], status=Tournament.Status.REGISTRATION,
                    organization=data.get("organization"),
                )
                # one step, one "Format configured" entry: the knockout's own settings go with the groups'
                services.configure_stage(tournament, by, knockout=knockout or None, **stage)
        except services.TournamentError as error:
            name = self.field_map.get(error.field, error.field)
            self.add_error(name if name in self.fields else None, error.message)
            return None
        return tournament
