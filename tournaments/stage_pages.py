"""The stage pages: the public list of a tournament's stages (``/torneios/<slug>/fases/``: each
stage's format, state, qualifiers rule, match format and its own standings), and the
organizer's stage panel of the dashboard (add or remove a later stage, start the next stage
with the rule's qualifiers or his own, with a reason; the settings of a stage not started yet: every
option of ``services.update_stage``, tiebreaks, seeding, grand-final reset, legs, the match format per
round...). Thin views over ``tournaments.services.stages`` through
:func:`~tournaments.view_helpers.act`; the form is :class:`LaterStageForm`.
"""
from __future__ import annotations

from dataclasses import dataclass

from django import forms
from django.shortcuts import get_object_or_404, render
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from . import pages, services
from .forms import TIEBREAK_CHOICES, OrderedTiebreaks, RoundFormatsField
from .models import Pair, Stage, Tournament
from draw.pairing.standings import Tiebreak
from .view_helpers import act, back, form_errors, organizer_only, public_context, tournament_of

BEST_OF = [("", gettext_lazy("The stage's")), (1, gettext_lazy("Single game")), (3, gettext_lazy("Best of 3 games")),
           (5, gettext_lazy("Best of 5 games"))]


class LaterStageForm(forms.Form):
    """A stage after the first: its format, the rule its qualifiers come by, and every option of
    ``services.update_stage``: seeding, tiebreaks, grand-final reset, legs, the
    match format per round, byes, withdrawn pairs, avoided pairings. Adds a stage, or edits one not
    started (:meth:`for_stage`)."""

    name = forms.CharField(label=gettext_lazy("name"), max_length=80, required=False)
    format = forms.ChoiceField(label=gettext_lazy("format"),
                               choices=[c for c in Stage.Format.choices if c[0] != Stage.Format.GROUPS_KNOCKOUT])
    qualification = forms.ChoiceField(label=gettext_lazy("qualifiers"), choices=Stage.Qualification.choices)
    qualifiers = forms.IntegerField(label=gettext_lazy("how many (top N; with groups: the best N of the next place)"),
                                    min_value=0, max_value=4096, required=False)
    qualifiers_per_group = forms.IntegerField(label=gettext_lazy("qualifiers per group"), min_value=1, max_value=64,
                                              initial=2)
    qualify_from = forms.IntegerField(label=gettext_lazy("from place"), min_value=1, initial=1)
    seeding = forms.ChoiceField(label=gettext_lazy("seeding"), choices=Stage.Seeding.choices,
                                initial=Stage.Seeding.ORDER, required=False,
                                help_text=gettext_lazy("Order: as the stage before ranked them (groups crossed); "
                                                       "or drawn again among the qualifiers by lot or by rating."))
    third_place = forms.BooleanField(label=gettext_lazy("third-place match"), required=False)
    classification = forms.BooleanField(label=gettext_lazy("places 5 to 8 played (knockout of 8 or more)"),
                                        required=False)
    grand_final_reset = forms.BooleanField(label=gettext_lazy("grand-final reset"), required=False, initial=True)
    group_count = forms.IntegerField(label=gettext_lazy("groups"), min_value=1, max_value=64, initial=1)
    legs = forms.TypedChoiceField(label=gettext_lazy("legs"), coerce=int, initial=1, required=False, empty_value=None,
                                  choices=[(1, gettext_lazy("Single round robin")),
                                           (2, gettext_lazy("Double round robin"))])
    swiss_rounds = forms.IntegerField(label=gettext_lazy("Swiss rounds"), min_value=1, max_value=64, required=False)
    swiss_order = forms.ChoiceField(label=gettext_lazy("Swiss pairing in a score group"),
                                    choices=Stage.SwissOrder.choices, initial=Stage.SwissOrder.FOLD, required=False)
    tiebreaks = forms.MultipleChoiceField(label=gettext_lazy("Tiebreaks, in order"), widget=OrderedTiebreaks,
                                          required=False,
                                          choices=[(t.value, TIEBREAK_CHOICES[t.value][0]) for t in Tiebreak])
    best_of = forms.TypedChoiceField(label=gettext_lazy("match format"), coerce=int, empty_value=None,
                                     required=False, choices=[("", gettext_lazy("The tournament's"))] + BEST_OF[1:])
    semifinal_best_of = forms.TypedChoiceField(label=gettext_lazy("semifinals"), coerce=int, empty_value=None,
                                               required=False, choices=BEST_OF)
    final_best_of = forms.TypedChoiceField(label=gettext_lazy("final"), coerce=int, empty_value=None,
                                           required=False, choices=BEST_OF)
    round_best_of = RoundFormatsField(
        label=gettext_lazy("match format per round"),
        help_text=gettext_lazy("round=games, e.g. 1=1, -2=3, -1=5 (-1 the last round, -2 the one before); "
                               "empty: the stage's"))
    third_place_best_of = forms.TypedChoiceField(label=gettext_lazy("third-place match format"), coerce=int,
                                                 empty_value=None, required=False, choices=BEST_OF)
    walkover_scores = forms.BooleanField(label=gettext_lazy("walkovers count games and points"), required=False)
    bye_value = forms.ChoiceField(label=gettext_lazy("a bye is worth"), choices=Stage.ByeValue.choices,
                                  initial=Stage.ByeValue.WIN, required=False)
    bye_played = forms.BooleanField(label=gettext_lazy("a bye counts as a match played"), required=False,
                                    initial=True)
    withdrawn_last = forms.BooleanField(label=gettext_lazy("withdrawn pairs last"), required=False, initial=True)
    unequal_groups = forms.ChoiceField(label=gettext_lazy("groups of different sizes"),
                                       choices=Stage.UnequalGroups.choices, initial=Stage.UnequalGroups.DROP_LAST,
                                       required=False)
    avoid_rounds = forms.IntegerField(
        label=gettext_lazy("keep club mates apart until round"), min_value=1, max_value=64, required=False,
        help_text=gettext_lazy("Pairs sharing an avoid tag (club, family) are kept apart when possible; "
                               "empty: every round."))

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("auto_id", "later_%s")  # its own ids beside the dashboard's other forms
        kwargs.setdefault("label_suffix", "")  # sentence case, no colon, as the other organizer forms
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.label = capfirst(field.label)

    @classmethod
    def for_stage(cls, stage: Stage) -> LaterStageForm:
        """The settings form of a stage not started, filled with its settings."""
        initial = {name: getattr(stage, name) for name in services.LATER_STAGE_FIELDS}
        rounds = dict(stage.round_best_of or {})
        initial["semifinal_best_of"] = rounds.pop("-2", None)
        initial["final_best_of"] = rounds.pop("-1", None)
        initial["round_best_of"] = rounds
        return cls(initial=initial, auto_id=f"stage{stage.position}_%s")

    def settings(self) -> dict:
        data = dict(self.cleaned_data)
        rounds = dict(data.pop("round_best_of") or {})
        semis, final = data.pop("semifinal_best_of"), data.pop("final_best_of")
        if semis:
            rounds["-2"] = semis
        if final:
            rounds["-1"] = final
        data["round_best_of"] = rounds
        if not data["tiebreaks"]:
            data.pop("tiebreaks")  # the format's default
        for name in ("seeding", "legs", "swiss_order", "bye_value", "unequal_groups"):
            if data.get(name) in (None, ""):
                data.pop(name)  # not posted: the stage keeps its own (a new stage, the default)
        return data


@dataclass(frozen=True)
class StageRow:
    stage: Stage
    state: str
    rule: str
    entrants: list[str]
    edit_form: object = None  # a later stage not started: its settings form (control_views)


def _rule(stage: Stage) -> str:
    if stage.position == 1:
        return _("Every confirmed pair")
    if stage.qualification == Stage.Qualification.PER_GROUP:
        text = _("Top %(count)s of each group") % {"count": stage.qualifiers_per_group}
        if stage.qualifiers:
            text += _(", and the best %(count)s of the next place") % {"count": stage.qualifiers}
        return text
    if stage.qualify_from > 1:
        return _("Places %(first)s to %(last)s of the stage before") % {
            "first": stage.qualify_from, "last": stage.qualify_from + (stage.qualifiers or 1) - 1}
    if stage.qualifiers:
        return _("Top %(count)s of the stage before") % {"count": stage.qualifiers}
    return _("Every pair of the stage before")


def stage_rows(tournament: Tournament) -> list[StageRow]:
    """Every stage with its state, rule and entrants' names. A tournament of one stage costs no
    query when ``pages.stage_of`` already loaded its stages (its state is shown elsewhere)."""
    stages = getattr(tournament, "stage_list", None)
    if stages is None:
        stages = services.stages_of(tournament)
    for st in stages:
        st.tournament = tournament
    if len(stages) < 2:
        return [StageRow(st, "", _rule(st), []) for st in stages]
    names = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "name"))
    return [StageRow(st, services.stage_state(st), _rule(st),
                     [names.get(p, "?") for p in st.entrants] if st.position > 1 else []) for st in stages]


def dashboard_stages(tournament: Tournament, form: LaterStageForm | None = None) -> dict:
    """The stage panel's context: the stages, the next one's qualifiers (a proposal with its problems)."""
    rows = stage_rows(tournament)
    current = next((r for r in reversed(rows) if r.stage.started_at is not None), None)
    following = None
    if current is not None and current.state == "complete":
        following = next((r.stage for r in rows if r.stage.position == current.stage.position + 1), None)
    proposal = services.stage_qualifiers(following) if following is not None else None
    names = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "name")) if proposal else {}
    return {"stage_rows": rows, "next_stage": following, "proposal": proposal,
            "proposal_names": [(p, names.get(p, "?")) for p in proposal.order] if proposal else [],
            "candidates": (Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED)
                           .order_by("name").values_list("pk", "name")) if proposal and proposal.problems else [],
            "later_stage_form": form or LaterStageForm(), "can_add_stage": bool(rows)}


@require_GET
def stages(request, slug: str):
    tournament = tournament_of(slug)
    stage = pages.stage_of(tournament)
    tables = {}
    for row in stage_rows(tournament):
        if row.stage.started_at is not None:
            table = services.standings(tournament, row.stage)
            columns = pages.tiebreak_columns(table.tiebreaks)
            shown = pages.value_columns(columns)
            tables[row.stage.position] = (pages.standing_rows(table.rows, shown), shown,
                                          f"stage-standings-{row.stage.position}")
    rows = [(row, tables.get(row.stage.position)) for row in stage_rows(tournament)]
    return render(request, "tournaments/stages.html",
                  public_context(request, tournament, "stages", stage, stage_list=rows))


@organizer_only
@require_POST
def add_stage(request, tournament: Tournament):
    form = LaterStageForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return back(tournament, request, "stages")
    return act(request, tournament, lambda: services.add_stage(tournament, request.user, **form.settings()),
               lambda stage: _("Stage %(position)s added: %(name)s.") % {"position": stage.position,
                                                                        "name": stage.display_name}, "stages")


@organizer_only
@require_POST
def edit_stage(request, tournament: Tournament, position: int):
    stage = get_object_or_404(Stage, tournament=tournament, position=position)
    form = LaterStageForm(request.POST, auto_id=f"stage{position}_%s")
    if not form.is_valid():
        form_errors(request, form)
        return back(tournament, request, "stages")
    return act(request, tournament, lambda: services.update_stage(stage, request.user, **form.settings()),
               lambda saved: _("%(stage)s saved.") % {"stage": saved.display_name}, "stages")


@organizer_only
@require_POST
def remove_stage(request, tournament: Tournament, position: int):
    stage = Stage.objects.filter(tournament=tournament, position=position).first()
    if stage is None:
        return back(tournament, request, "stages")
    return act(request, tournament, lambda: services.remove_stage(stage, request.user),
               _("Stage %(position)s removed.") % {"position": position}, "stages")


@organizer_only
@require_POST
def start_stage(request, tournament: Tournament):
    chosen = [int(v) for v in request.POST.getlist("qualifiers") if v.isdigit()]
    return act(request, tournament, lambda: services.start_next_stage(
        tournament, request.user, qualifiers=chosen or None, reason=request.POST.get("reason", "")),
        lambda rnd: _("%(round)s generated: the next stage started.") % {"round": rnd.display_name}, "stages")
