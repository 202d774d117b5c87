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

"Like last month's": :func:`earlier_tournaments` lists the events the organizer may start from (their own or
their organization's, ``events.access.owns``), :func:`initial_from` fills the form with one's format and options
(never its pairs, date or name), and ``save`` carries what the form has no field for (the rule set and its
variants, the best-of of rounds other than the final, the tiebreaks, the public sign-up's options).
"""
from __future__ import annotations

from django import forms
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy

from events.access import ACTING_ROLES, owns
from events.models import Organization, SignUpSettings

from . import services
from .models import Stage, Tournament
from .services.signup_review import configure_signup

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


#: the stage options copied as they are from the source event (the form has no field for them)
CARRIED_STAGE_OPTIONS = ("tiebreaks", "walkover_scores", "swiss_rounds", "swiss_order", "legs", "withdrawn_last",
                         "third_place_best_of", "bye_value", "bye_played", "avoid_rounds", "classification")


def earlier_tournaments(user):
    """The tournaments ``user`` may start a new one from: their own and their organization's, newest first."""
    return Tournament.objects.filter(owns(user, "")).order_by("-date", "-created_at", "-pk")


def _stages(tournament: Tournament) -> tuple[Stage | None, Stage | None]:
    """The first stage, and the knockout when the event was made as "groups then knockout"."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("position")[:2])
    first = stages[0] if stages else None
    later = stages[1] if len(stages) > 1 else None
    if (first is not None and later is not None and first.format == Stage.Format.ROUND_ROBIN
            and later.format == Stage.Format.SINGLE_ELIMINATION and later.qualification == "per_group"):
        return first, later
    return first, None


def initial_from(source: Tournament) -> dict:
    """The form's values for a tournament like ``source``: its venue, match format, check-in and format
    with its options; empty name and date (a new event's own)."""
    first, knockout = _stages(source)
    values = {"venue": source.venue, "best_of": source.best_of, "check_in_required": source.check_in_required}
    if source.organization_id:
        values["organization"] = source.organization_id
    if first is None:
        return values
    bracket = knockout or first
    final = (bracket.round_best_of or {}).get("-1")
    values.update({
        "format": Stage.Format.GROUPS_KNOCKOUT if knockout else first.format, "seeding": first.seeding,
        "third_place": bracket.third_place, "grand_final_reset": bracket.grand_final_reset,
        "final_best_of": final or "",
    })
    if first.format in GROUP_FORMATS:
        values["group_count"] = first.group_count if first.group_count > 1 else None
    if knockout:
        values["qualifiers_per_group"] = first.qualifiers_per_group
        values["next_place_qualifiers"] = knockout.qualifiers or None
    return values


def _carried(source: Tournament | None, chosen: str) -> tuple[dict, dict]:
    """What ``save`` copies from ``source`` when the format stays its own: the first stage's options (a
    knockout's from the knockout) and the knockout's rounds' best-of but the final's (the form's)."""
    first, knockout = _stages(source) if source is not None else (None, None)
    if first is None or chosen != initial_from(source).get("format"):
        return {}, {}  # another format: only what the form says
    bracket = knockout or first
    stage = {name: getattr(bracket if name in ("third_place_best_of", "classification") else first, name)
             for name in CARRIED_STAGE_OPTIONS}
    stage["best_of"] = first.best_of
    rounds = {k: v for k, v in (bracket.round_best_of or {}).items() if k != "-1"}
    if knockout and first.round_best_of:
        stage["round_best_of"] = first.round_best_of  # the groups' own rounds
    return stage, rounds


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

    def __init__(self, *args, user=None, source: Tournament | None = None, **kwargs) -> None:
        self.source = source  # "like this one": what the form has no field for comes from it
        if source is not None and not args:
            kwargs["initial"] = {**initial_from(source), **kwargs.get("initial", {})}
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
        carried, rounds = _carried(self.source, chosen)
        stage.update(carried)
        final = {**rounds, "-1": data["final_best_of"]} if data["final_best_of"] else (rounds or None)
        knockout = {}
        if chosen == Stage.Format.GROUPS_KNOCKOUT:
            if data["next_place_qualifiers"]:
                knockout["qualifiers"] = data["next_place_qualifiers"]
            if final:
                knockout["round_best_of"] = final
        elif final:
            stage["round_best_of"] = final
        extra = {"rule_set": self.source.rule_set} if self.source is not None else {}
        try:
            with transaction.atomic():
                tournament = services.create_tournament(
                    by, name=data["name"], date=data["date"], venue=data["venue"], best_of=data["best_of"],
                    check_in_required=data["check_in_required"], status=Tournament.Status.REGISTRATION,
                    organization=data.get("organization"), **extra,
                )
                # one step, one "Format configured" entry: the knockout's own settings go with the groups'
                services.configure_stage(tournament, by, knockout=knockout or None, **stage)
                self._copy_signup(tournament, by)
        except services.TournamentError as error:
            name = self.field_map.get(error.field, error.field)
            self.add_error(name if name in self.fields else None, error.message)
            return None
        return tournament

    def _copy_signup(self, tournament: Tournament, by) -> None:
        """The source's public sign-up options (its deadline aside: a date of its own day), if it had any."""
        options = SignUpSettings.objects.filter(tournament=self.source).first() if self.source else None
        if options is not None:
            configure_signup(
                tournament, by, open=options.open, pair_limit=options.pair_limit, waiting_list=options.waiting_list,
                deadline=None, approval_required=options.approval_required)
