"""The organizer's pages of circuits: ``/circuitos/novo/`` (a new circuit and its rules) and the
"add a stage" form on the circuit's page (``/circuitos/<slug>/etapas/nova/``, POST) and its discipline
option (``/circuitos/<slug>/disciplina/``, POST: escalation across the stages, art. 26). Thin: every
write is ``services.circuits``; a refusal is shown on the form, naming the field."""
from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from events.models import Tournament
from tournaments.services import can_create_tournament

from .models import Circuit
from .services import circuits


class CircuitForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    season = forms.CharField(label=gettext_lazy("Season"), max_length=40, required=False)
    points = forms.CharField(
        label=gettext_lazy("Points per final place"), initial="100, 80, 65, 55, 45, 40, 35, 30",
        help_text=gettext_lazy("The 1st place's points first, separated by commas; never increasing."))
    beyond_points = forms.IntegerField(label=gettext_lazy("Points of any later place"), min_value=0, initial=0)
    best_of = forms.IntegerField(label=gettext_lazy("Stages counted (best N)"), min_value=1, required=False,
                                 help_text=gettext_lazy("Empty: every stage counts."))
    escalation_across_stages = forms.BooleanField(
        label=gettext_lazy("Escalation counts across the stages"), required=False,
        help_text=gettext_lazy("A pair's rulings in the other stages count for the escalation policy "
                               "(warning, tento, match loss; art. 26)."))

    def clean_points(self) -> list[int]:
        try:
            return [int(x) for x in self.cleaned_data["points"].replace(";", ",").split(",") if x.strip()]
        except ValueError:
            raise forms.ValidationError(_("Whole numbers separated by commas, e.g. 100, 80, 65.")) from None

    def save(self, by) -> Circuit | None:
        if not self.is_valid():
            return None
        try:
            return circuits.create_circuit(by, **self.cleaned_data)
        except ServiceError as error:
            self.add_error(error.field if error.field in self.fields else None, error.message)
            return None


def new_circuit(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not can_create_tournament(request.user):
        raise PermissionDenied(_("Only organizers create circuits."))
    form = CircuitForm(request.POST or None)
    if request.method == "POST":
        circuit = form.save(request.user)
        if circuit is not None:
            messages.success(request, _("Circuit created: add its stages."))
            return redirect(circuit.get_absolute_url())
    return render(request, "seasons/circuit_new.html", {"form": form}, status=400 if form.errors else 200)


def stage_choices(circuit: Circuit) -> list[Tournament]:
    """The organizer's tournaments not yet stages of ``circuit`` (newest first)."""
    return list(Tournament.objects.filter(organizer=circuit.organizer_id)
                .exclude(circuit_stages__circuit=circuit).order_by("-date", "name"))


@require_POST
def add_stage(request, slug: str):
    circuit = get_object_or_404(Circuit, slug=slug)
    if not circuits.can_manage_circuit(request.user, circuit):
        raise PermissionDenied(_("Only the circuit's organizer adds its stages."))
    tournament = Tournament.objects.filter(slug=request.POST.get("tournament", "")).first()
    if tournament is None:
        messages.error(request, _("Tournament: choose one of your tournaments."))
    else:
        try:
            stage = circuits.add_circuit_stage(circuit, tournament, request.user)
        except ServiceError as error:
            messages.error(request, f"{error.field}: {error.message}" if error.field else error.message)
        else:
            messages.success(request, _("%(tournament)s is stage %(number)s.")
                             % {"tournament": tournament.name, "number": stage.number})
    return redirect("seasons:circuit-stages", slug=circuit.slug)


@require_POST
def set_discipline(request, slug: str):
    """The circuit's option "escalation counts across the stages" (art. 26), changed on its stages page."""
    circuit = get_object_or_404(Circuit, slug=slug)
    if not circuits.can_manage_circuit(request.user, circuit):
        raise PermissionDenied(_("Only the circuit's organizer changes its rules."))
    circuit = circuits.set_escalation_across_stages(circuit, request.user, request.POST.get("across") == "on")
    messages.success(request, _("Escalation counts across the stages (art. 26).") if circuit.escalation_across_stages
                     else _("Escalation counts within each tournament (art. 26)."))
    return redirect("seasons:circuit-stages", slug=circuit.slug)
