"""The organizer's actions on the pairs, posted from the dashboard: registering (the form, a CSV, a typed list),
confirming a pending registration, editing, the avoid tags, check-in, withdrawal and its undo,
reinstating, disqualifying, deleting one registered by mistake; the pair cards and a new PIN.

Thin views: each calls one form or service (``tournaments.forms``, ``tournaments.services``,
``tournaments.organizer_tools``) through :func:`~tournaments.view_helpers.act` and comes back to the
dashboard's pair row or section (POST-redirect-GET). A registration form with errors is shown again
on the dashboard (``tournaments.views``), with what was typed.
"""
from __future__ import annotations

from dataclasses import replace

from django.contrib import messages
from django.shortcuts import get_object_or_404, render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_POST

from scoring.words import pair_names

from . import organizer_tools, pin_views, services, undo_toast
from .csv_import import Mode, import_pairs
from .forms import CsvImportForm, PairRegistrationForm, WithdrawalForm
from .models import Pair, Tournament
from .services.check_in import check_in_all
from .view_helpers import act, back, fail, fail_naming_field, form_errors, number_or_none, organizer_only
from .views import _dashboard_context


def _pair_of(tournament: Tournament, pk: int) -> Pair:
    return get_object_or_404(Pair, pk=pk, tournament=tournament)


def _about(pair_name: str, text: str) -> str:
    """``text`` (with ``%(pair)s``) about a pair, contracted as its name asks ("da Dupla", "do Trio")."""
    return pair_names.contract(text % {"pair": pair_name}, pair_name)


def _player(data, prefix: str) -> dict | None:
    name = (data.get(f"{prefix}_name") or "").strip()
    nickname = (data.get(f"{prefix}_nickname") or "").strip()
    return {"name": name, "nickname": nickname} if name or nickname else None


@organizer_only
@require_POST
def register(request, tournament: Tournament):
    form = PairRegistrationForm(request.POST, tournament=tournament)
    pair = form.save(by=request.user)
    if pair is None:
        return render(request, "tournaments/dashboard.html",
                      _dashboard_context(request, tournament, pair_form=form), status=400)
    if pair.name.casefold().startswith(("dupla ", "pair ")):  # "Dupla Teste cadastrada", not "Dupla Dupla Teste"
        messages.success(request, pgettext("the pair's name starts with Pair", "%(pair)s registered.") % {"pair": pair.name})
    else:
        messages.success(request, _("Pair %(pair)s registered.") % {"pair": pair.name})
    issued = pin_views.issue_at_registration(request, tournament, [pair])  # PINs without the admin
    if issued:
        messages.info(request, pin_views.pins_message(pair, issued))
    return back(tournament, request, "registration")


@organizer_only
@require_POST
def import_csv(request, tournament: Tournament):
    if "pairs_text" in request.POST:
        return _import_typed(request, tournament, request.POST["pairs_text"])
    form = CsvImportForm(request.POST, request.FILES, tournament=tournament)
    report = form.save(by=request.user)
    if report is None or not report.ok:
        status = 400 if report is None or not report.created else 200
        return render(request, "tournaments/dashboard.html",
                      _dashboard_context(request, tournament, csv_form=form, csv_report=report), status=status)
    messages.success(request, ngettext("%(count)s pair imported.", "%(count)s pairs imported.", len(report.created))
                     % {"count": formats.localize(len(report.created))})
    issued = pin_views.issue_at_registration(request, tournament, report.created)
    if issued:
        messages.info(request, _("%(count)s PINs issued: print the pair cards now to hand them out.")
                      % {"count": len(issued)})
    return back(tournament, request, "pairs")


#: the columns of a typed list, one pair a line: the CSV import's own names (tournaments.csv_import)
TYPED_COLUMNS = ("dupla", "jogador 1", "jogador 2")


def _import_typed(request, tournament: Tournament, typed: str):
    """Pairs typed in one field, one a line ("Zap; Ana Souza; Beto Lima"; tabs when pasted from a spreadsheet,
    commas when neither): read as the CSV import reads a file under the header this page writes, all or nothing,
    each refused line named by its number as typed."""
    if not typed.strip():
        messages.error(request, _("Type the pairs, one a line: pair; first player; second player."))
        return back(tournament, request, "registration")
    separator = "\t" if "\t" in typed else ";" if ";" in typed else ","
    text = separator.join(TYPED_COLUMNS) + "\n" + typed
    try:
        report = import_pairs(tournament, text, request.user, mode=Mode.ALL_OR_NOTHING)
    except services.TournamentError as error:
        fail(request, error)
        return back(tournament, request, "registration")
    if not report.ok:
        lines = [replace(error, row=error.row - 1) for error in report.errors]  # the header is the page's
        return render(request, "tournaments/dashboard.html", _dashboard_context(
            request, tournament, typed={"text": typed, "errors": lines}), status=400)
    messages.success(request, ngettext("%(count)s pair registered.", "%(count)s pairs registered.",
                                       len(report.created)) % {"count": formats.localize(len(report.created))})
    issued = pin_views.issue_at_registration(request, tournament, report.created)
    if issued:
        messages.info(request, _("%(count)s PINs issued: print the pair cards now to hand them out.")
                      % {"count": len(issued)})
    return back(tournament, request, "registration")


@organizer_only
@require_POST
def confirm(request, tournament: Tournament, pk: int):
    """A pending registration becomes confirmed (drawn and paired)."""
    pair = _pair_of(tournament, pk)
    return act(request, tournament, lambda: services.update_pair(pair, request.user, status=Pair.Status.CONFIRMED),
               _about(pair.name, _("Registration of %(pair)s confirmed.")), f"pair-{pair.pk}")


@organizer_only
@require_POST
def edit_pair(request, tournament: Tournament, pk: int):
    pair = _pair_of(tournament, pk)
    data = request.POST
    return act(request, tournament, lambda: organizer_tools.edit_pair(
        pair, request.user, name=data.get("name", ""), first_player=_player(data, "first"),
        second_player=_player(data, "second"), substitute=_player(data, "substitute"),
        rating=number_or_none(data.get("rating")), seed=number_or_none(data.get("seed"))),
        lambda edited: _about(edited.name, _("Changes to %(pair)s saved.")), f"pair-{pk}",
        on_refusal=fail_naming_field)


@organizer_only
@require_POST
def avoid_tags(request, tournament: Tournament, pk: int):
    pair = _pair_of(tournament, pk)
    return act(request, tournament,
               lambda: services.update_pair(pair, request.user, avoid_tags=request.POST.get("avoid_tags", "")),
               _about(pair.name, _("Changes to %(pair)s saved.")), f"pair-{pk}")


@organizer_only
@require_POST
def check_in(request, tournament: Tournament):
    pair = request.POST.get("pair", "")

    def check():
        rnd = services.upcoming_round(tournament, request.user)
        pair_id = int(pair) if pair.isdigit() else None
        if pair == "all":  # "All present": every confirmed pair not checked in yet, one tap
            made = check_in_all(rnd, request.user)
            return ngettext("%(count)s pair checked in.", "%(count)s pairs checked in.", len(made)) \
                % {"count": formats.localize(len(made))}
        if request.POST.get("undo") == "1":
            services.undo_check_in(rnd, pair_id, request.user, check_in=request.POST.get("check_in"))
        else:
            services.check_in(rnd, pair_id, request.user)

    return act(request, tournament, check, lambda said: said or "", f"checkin-{pair}" if pair.isdigit() else "checkin")


@organizer_only
@require_POST
def withdraw(request, tournament: Tournament, pk: int):
    pair = _pair_of(tournament, pk)
    form = WithdrawalForm(request.POST, pair=pair)
    walkovers = form.save(by=request.user)
    if walkovers is None:
        form_errors(request, form)
    else:
        withdrew = ngettext("%(pair)s withdrew from the tournament.", "%(pair)s withdrew from the tournament.",
                            pair_names.number(pair.name)) % {"pair": pair.name}
        became = ngettext("%(count)s match became W.O.", "%(count)s matches became W.O.", len(walkovers)) \
            % {"count": formats.localize(len(walkovers))}
        # "Desfazer" for a few seconds: the toast says who withdrew, the message only what followed (said once)
        offered = undo_toast.offer(request, pair)
        text = (became if offered else f"{withdrew} {became}") if walkovers else "" if offered else withdrew
        if text:
            messages.success(request, text)
    return back(tournament, request, "pairs")


@organizer_only
@require_POST
def undo_withdrawal(request, tournament: Tournament, pk: int):
    """The toast's "Desfazer" after a withdrawal: reinstates the pair through the same service as its
    row, naming the audit entry it undoes (``services.undo_withdrawal``)."""
    pair = _pair_of(tournament, pk)
    return act(request, tournament, lambda: services.undo_withdrawal(pair, request.user, request.POST.get("entry")),
               _about(pair.name, _("Withdrawal of %(pair)s undone: the pair is back in the tournament.")),
               f"pair-{pair.pk}")


@organizer_only
@require_POST
def reinstate_pair(request, tournament: Tournament, pk: int):
    pair = _pair_of(tournament, pk)
    return act(request, tournament,
               lambda: services.reinstate_pair(pair, request.user, request.POST.get("reason", "")),
               _about(pair.name, _("%(pair)s is back in the tournament.")), f"pair-{pk}")


@organizer_only
@require_POST
def disqualify_pair(request, tournament: Tournament, pk: int):
    pair = _pair_of(tournament, pk)
    return act(request, tournament,
               lambda: services.disqualify_pair(pair, request.user, request.POST.get("reason", "")),
               _about(pair.name, _("%(pair)s disqualified.")), f"pair-{pk}")


@organizer_only
@require_POST
def delete_pair(request, tournament: Tournament, pk: int):
    pair = _pair_of(tournament, pk)
    return act(request, tournament,
               lambda: services.delete_pair(pair, request.user, reason=request.POST.get("reason", "")),
               _about(pair.name, _("%(pair)s deleted.")), "pairs", refused_anchor=f"pair-{pk}")


pair_cards = organizer_only(pin_views.pair_cards)
reset_pin = organizer_only(pin_views.reset_pin)
