"""The organizer's dashboard (``/torneios/<slug>/painel/``): the whole page, or only the sections a
background post names. Organizer only (``view_helpers.organizer_only``, checked on every request).

The actions the dashboard posts to live by what they act on: ``pair_views`` (the pairs),
``match_views`` (a match and its result), ``round_views`` (the format and the rounds),
``stage_pages`` (the later stages), ``table_referee_views`` (the tables' referees; the room's section and
actions are the ``room`` app's, through ``room_hooks``),
``control_views`` (the tournament itself); the public pages are ``public_views``. Those that show
a form again with its errors render the dashboard with :func:`_dashboard_context`.

Thin: the data comes from ``tournaments.pages`` (read side, fixed query counts).
"""
from __future__ import annotations

from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from scoring import pin_notices
from scoring.models import Match

from . import pages, services, undo_toast, waiting
from .forms import CsvImportForm, PairRegistrationForm, StageForm
from .room_hooks import room
from .models import Pair, Round, Stage, Tournament
from .view_helpers import organizer_only
from .view_helpers import public_context as _public_context

#: the dashboard's sections a background post may ask for alone (templates/tournaments/dashboard_parts.html)
DASHBOARD_PARTS = frozenset({"next-step", "matches", "room", "rounds", "checkin", "tables", "pairs", "registration",
                             "format", "stages", "panels"})


def _dashboard_context(request, tournament: Tournament, **forms) -> dict:
    stage = pages.stage_of(tournament)
    pairs = pages.dashboard_pairs(tournament)
    generated = pages.generated_rounds(tournament)
    current = pages.current_round(generated)
    wanted = request.GET.get("rodada")
    shown = current
    if wanted and wanted.isdigit():
        shown = next((r for r in generated if r.number == int(wanted)), current)
    rows = []
    numbers = {}
    if shown is not None:
        if shown.phase == Round.Phase.BRACKET:
            view = services.bracket_view(tournament)
            numbers = pages.match_numbers(view.bracket) if view is not None else {}
        rows = pages.mark_awaiting_referee(pages.match_rows(services.round_matches(shown), numbers))
    drawn = bool(generated)
    bracket = stage is not None and (stage.is_bracket or stage.bracket_first_round is not None)
    check_in = pages.check_in_state(tournament, stage, generated, pairs)
    registration_open = tournament.status != Tournament.Status.FINISHED and (
        not drawn or (stage is not None and stage.format == Stage.Format.SWISS))
    finished = tournament.status == Tournament.Status.FINISHED
    needs = waiting.of_tournament(tournament)  # sign-ups to approve, calls, disputes, late tables, appeals…
    context = _public_context(request, tournament, "dashboard", stage)
    context.update({
        "pairs": pairs,
        "active_pairs": [p for p in pairs if p.status != Pair.Status.WITHDRAWN],
        "counts": {
            "confirmed": sum(1 for p in pairs if p.status == Pair.Status.CONFIRMED),
            "pending": sum(1 for p in pairs if p.status == Pair.Status.PENDING),
            "withdrawn": sum(1 for p in pairs if p.status == Pair.Status.WITHDRAWN),
        },
        "rounds": generated,
        "current": current,
        "shown": shown,
        "rows": rows,
        "other_tables": [r.match.table for r in rows if r.match.table],
        "drawn": drawn,
        "is_bracket": bracket,
        "can_next_round": drawn and not bracket and tournament.status != Tournament.Status.FINISHED,
        "regenerable": None if finished else _regenerable(stage, generated),  # what is done stays done
        "waiting": needs,
        "finished": pages.finished_summary(tournament) if finished else None,
        "check_in": check_in,
        # confirmed pairs not checked in yet: what "All present" checks in
        "check_in_missing": sum(1 for p in pairs if p.status == Pair.Status.CONFIRMED and check_in is not None
                                and p.pk not in check_in.checked),
        "registration_open": registration_open,
        "next_step": pages.next_step(tournament, stage, pairs, generated, current,
                                     to_approve=sum(i.count for i in needs if i.key == "signups")),
        "assignments": pages.table_assignments(tournament),
        "referees": pages.referee_choices(tournament),
        "audit": pages.recent_audit(tournament),
        "stage_form": forms.get("stage_form") or StageForm(tournament=tournament),
        "pair_form": forms.get("pair_form") or PairRegistrationForm(tournament=tournament),
        "csv_form": forms.get("csv_form") or CsvImportForm(tournament=tournament),
        "csv_report": forms.get("csv_report"),
        "typed": forms.get("typed") or {},  # pairs typed one a line, sent back with the lines refused
        "result_retry": forms.get("result_retry") or {},
        "open_registration": bool(forms.get("pair_form") or forms.get("csv_form") or forms.get("csv_report")),
        "Status": Match.Status,
        "lot_seeding": stage is not None and stage.seeding == Stage.Seeding.LOT,
        "format_summary": pages.format_summary(stage),
        "match_format": pages.match_format_line(tournament, getattr(tournament, "stage_list", [])),
        "pin_lockouts": pin_notices.lockouts(pin_notices.open_matches(tournament.matches.all())),  # lockouts
        "undo": undo_toast.take(request, tournament),  # the "Desfazer" toast
    })
    from . import control_views
    from .dashboard_rows import by_state, wanted_range
    from .stage_pages import dashboard_stages

    context.update(by_state(rows, wanted_range(request), (forms.get("result_retry") or {}).get("pk")))

    context.update(dashboard_stages(tournament))
    context.update(control_views.dashboard_controls(tournament, context))  # details, stage settings
    context.update(room().dashboard(tournament, drawn, stage))  # the room: ready matches, free tables, options
    return context


def _regenerable(stage: Stage | None, generated: list[Round]) -> Round | None:
    """The round the organizer may generate again: the draw of a bracket, else the last round."""
    if not generated:
        return None
    if stage is not None and stage.bracket_first_round is not None:
        return next((r for r in generated if r.number == stage.bracket_first_round), None)
    return generated[-1]


@organizer_only
@require_GET
def dashboard(request, tournament: Tournament):
    """The whole page, or only the sections a background post names in ``X-Dashboard-Parts`` (the page's
    script replaces those): a quick result is answered with under half the page."""
    context = _dashboard_context(request, tournament)
    parts = set(request.headers.get("X-Dashboard-Parts", "").split()) & DASHBOARD_PARTS
    if parts:
        response = render(request, "tournaments/dashboard_parts.html", {**context, "parts": parts})
    else:
        response = render(request, "tournaments/dashboard.html", context)
    patch_vary_headers(response, ["X-Dashboard-Parts", "X-Dashboard-Tables"])
    return response
