"""Pages of the tournaments app (mounted at the site root).

Public, read-only: the tournament list and page, the bracket (SVG), the round-robin grids,
the standings with the stage's tiebreak columns, each round's pairings and tables. The bracket,
grids, standings and rounds are live (``tournaments.live``: they poll the tournament's change
marker and fetch their fragment, ``?parte=1``, when it moves; docs/live.md).

Organizer only (``services.can_manage``, checked on every request, GET and POST): the
dashboard (``/torneios/<slug>/painel/``) and the actions it posts to — format,
registration (form and CSV), confirming a pending registration, withdrawal, check-in, draw, next round, regenerating a round
with a reason, table referees, swapping tables, receiving a signed súmula, W.O., setting a
result by hand — and the new-tournament page. Anonymous visitors are sent to log in, other users get 403.

Thin views: the data comes from ``tournaments.pages`` (read side, fixed query counts) and
every write goes through ``tournaments.forms`` / ``tournaments.services``; a refusal from a
service becomes a message (or an error on the form's field). POST-redirect-GET throughout.
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from django.views.decorators.http import require_GET, require_POST
from django.views.generic import DetailView, ListView

from scoring import pin_notices
from scoring import services as scoring_services
from scoring.models import Match
from scoring.words import pair_names

from . import live, pages, pin_views, services, undo_toast
from .forms import CsvImportForm, ManualResultForm, PairRegistrationForm, StageForm, WalkoverForm, WithdrawalForm
from .models import Pair, Round, Stage, Tournament
from .new_tournament import NewTournamentForm

# ------------------------------------------------------------------------------------ public


class TournamentListView(ListView):
    model = Tournament
    template_name = "home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return Tournament.objects.select_related("organizer").annotate(pair_count=Count("pairs"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["can_create"] = services.can_create_tournament(self.request.user)
        return context


def _public_context(request, tournament: Tournament, active: str, stage: Stage | None = None,
                    **extra) -> dict:
    return {
        "tournament": tournament,
        "stage": stage,
        "links": pages.public_links(tournament, stage),
        "active": active,
        "can_manage": services.can_manage(request.user, tournament),
        **extra,
    }


def _tournament(slug: str, request=None) -> Tournament:
    """The tournament of a page; the one ``tournaments.conditional`` already read for the page's
    ETag when there is one (no second query)."""
    known = getattr(request, "public_tournament", None)
    if known is not None and known.slug == slug:
        return known
    return get_object_or_404(Tournament.objects.select_related("organizer"), slug=slug)


class TournamentDetailView(DetailView):
    model = Tournament
    context_object_name = "tournament"

    def get_queryset(self):
        return Tournament.objects.select_related("organizer")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.object
        stage = pages.stage_of(tournament)
        context.update(_public_context(self.request, tournament, "detail", stage))
        context["pairs"] = tournament.pairs.exclude(status=Pair.Status.WITHDRAWN).select_related(
            "first_player", "second_player", "substitute")
        context["withdrawn"] = tournament.pairs.filter(status=Pair.Status.WITHDRAWN).order_by("name")
        view = services.bracket_view(tournament) if stage is not None and stage.bracket_first_round else None
        context["champion"] = view.champion if view is not None else None
        context["format_name"] = pages.format_name(getattr(tournament, "stage_list", []))  # every stage (§9)
        return context


@require_GET
def bracket(request, slug: str):
    tournament = _tournament(slug, request)
    stage = pages.stage_of(tournament)
    view = services.bracket_view(tournament) if stage is not None else None
    context = _public_context(request, tournament, "bracket", stage)
    if view is not None:
        context.update(svg=pages.bracket_drawing(view), rows=pages.bracket_rows(view), champion=view.champion,
                       double=view.bracket.double)
    return live.render_live(request, "tournaments/bracket.html", "tournaments/_live_bracket.html", context)


@require_GET
def bracket_image(request, slug: str):
    """The bracket alone, as an SVG file (to share or print)."""
    tournament = _tournament(slug, request)
    view = services.bracket_view(tournament)
    if view is None:
        raise Http404(_("This tournament has no bracket yet."))
    svg = '<?xml version="1.0" encoding="UTF-8"?>\n' + pages.bracket_drawing(view)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@require_GET
def grid(request, slug: str):
    tournament = _tournament(slug, request)
    stage = pages.stage_of(tournament)
    groups = pages.group_stage_of(tournament)
    grids = pages.round_robin_grids(tournament, groups) if groups is not None else []
    return live.render_live(request, "tournaments/grid.html", "tournaments/_live_grid.html",
                            _public_context(request, tournament, "grid", stage, grids=grids))


@require_GET
def standings(request, slug: str):
    tournament = _tournament(slug, request)
    stage = pages.stage_of(tournament)
    table = services.standings(tournament)
    columns = pages.tiebreak_columns(table.tiebreaks)
    shown = pages.value_columns(columns)
    overall_shown = shown
    if table.stages:  # several stages: each row's figures are its deciding stage's, named on the row
        overall_shown = pages.value_columns(pages.tiebreak_columns(
            list(dict.fromkeys(t for st in table.stages for t in st["tiebreaks"]))))
    context = _public_context(
        request, tournament, "standings", stage, columns=columns, value_columns=shown,
        overall_columns=overall_shown, rows=pages.standing_rows(table.rows, overall_shown),
        stage_legend=[(st["name"], st["decided_by"], pages.tiebreak_columns(st["tiebreaks"]), st["lot_seed"],
                       st["position"]) for st in table.stages],
        groups=[(name, pages.standing_rows(lines, shown)) for name, lines in table.groups],
        lot_seed=table.lot_seed, walkover_scores=table.walkover_scores,
        played=any(line.played or line.byes for line in table.rows),
    )
    return live.render_live(request, "tournaments/standings.html", "tournaments/_live_standings.html", context)


@require_GET
def rounds(request, slug: str):
    """The rounds' index: the current round's pairings."""
    tournament = _tournament(slug, request)
    generated = pages.generated_rounds(tournament)
    current = pages.current_round(generated)
    if current is None:
        stage = pages.stage_of(tournament)
        return live.render_live(request, "tournaments/round.html", "tournaments/_live_round.html",
                                _public_context(request, tournament, "rounds", stage, rounds=[], round=None))
    return round_detail(request, slug, current.number, tournament=tournament, generated=generated)


@require_GET
def round_detail(request, slug: str, number: int, *, tournament: Tournament | None = None, generated=None):
    tournament = tournament or _tournament(slug, request)
    stage = pages.stage_of(tournament)
    generated = generated if generated is not None else pages.generated_rounds(tournament)
    rnd = next((r for r in generated if r.number == number), None)
    if rnd is None:
        raise Http404(_("No round with this number."))
    numbers = {}
    if rnd.phase == Round.Phase.BRACKET:  # the numbers depend on the layout alone
        layout = services.bracket_layout(tournament)
        numbers = pages.match_numbers(layout) if layout is not None else {}
    context = _public_context(
        request, tournament, "rounds", stage, rounds=generated, round=rnd,
        matches=pages.match_rows(services.round_matches(rnd), numbers), byes=pages.round_byes(rnd),
    )
    if context["can_manage"]:  # the organizer sees each table's link (issue 10), to reissue or revoke it
        from scoring.site import absolute
        from scoring.table_links import ensure_links, table_url

        from .table_cards import card_path, ensure_cards

        played = [row.match for row in context["matches"] if row.match.table and row.match.status != "received"]
        links = ensure_links(played)
        cards = ensure_cards(tournament, [row.match.table for row in context["matches"]])  # issue 20 §2
        for match in played:
            match.table_url = table_url(links[match.pk], request) if match.pk in links else ""
            match.table_revoked = match.pk not in links  # revoked: stays so until "New link" (issue 21 §10)
        for row in context["matches"]:
            row.match.card_url = absolute(card_path(cards[row.match.table]), request) if row.match.table else ""
    return live.render_live(request, "tournaments/round.html", "tournaments/_live_round.html", context)


# --------------------------------------------------------------------------------- organizer


def organizer_only(view):
    """Load the tournament from ``slug``; anonymous visitors log in first, other users get 403."""

    @wraps(view)
    def wrapper(request, slug: str, *args, **kwargs):
        tournament = _tournament(slug)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path() if request.method == "GET"
                                     else reverse("tournaments:dashboard", kwargs={"slug": slug}))
        if not services.can_manage(request.user, tournament):
            raise PermissionDenied(_("Only the tournament's organizer can do this."))
        return view(request, tournament, *args, **kwargs)

    return wrapper


def _dashboard_url(tournament: Tournament, anchor: str = "", round_number: int | None = None) -> str:
    url = reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})
    if round_number is not None:
        url += f"?rodada={round_number}"
    return url + (f"#{anchor}" if anchor else "")


def _back(tournament: Tournament, request, anchor: str = ""):
    """Back to the dashboard, on the round the organizer was looking at while it still has matches
    to decide (then on the current round, where the next matches are)."""
    number = request.POST.get("rodada") or request.GET.get("rodada")
    number = int(number) if str(number).isdigit() else None
    if number is not None:
        shown = next((r for r in pages.generated_rounds(tournament) if r.number == number), None)
        if shown is None or shown.official_count >= shown.match_count:
            number = None
            anchor = "matches" if anchor.startswith("match-") else anchor
    return redirect(_dashboard_url(tournament, anchor, number))


def _fail(request, error: services.TournamentError) -> None:
    if isinstance(error, services.Forbidden):
        raise PermissionDenied(error.message)
    messages.error(request, error.message)


#: the dashboard's sections a background post may ask for alone (templates/tournaments/dashboard_parts.html)
DASHBOARD_PARTS = frozenset({"next-step", "matches", "room", "rounds", "checkin", "tables", "pairs", "registration",
                             "format", "stages"})


def _form_errors(request, form) -> None:
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        for error in errors:
            messages.error(request, f"{label}: {error}" if label else error)


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
        "regenerable": _regenerable(stage, generated),
        "check_in": check_in,
        "registration_open": registration_open,
        "next_step": pages.next_step(tournament, stage, pairs, generated, current),
        "assignments": pages.table_assignments(tournament),
        "referees": pages.referee_choices(),
        "audit": pages.recent_audit(tournament),
        "stage_form": forms.get("stage_form") or StageForm(tournament=tournament),
        "pair_form": forms.get("pair_form") or PairRegistrationForm(tournament=tournament),
        "csv_form": forms.get("csv_form") or CsvImportForm(tournament=tournament),
        "csv_report": forms.get("csv_report"),
        "result_retry": forms.get("result_retry") or {},
        "open_registration": bool(forms.get("pair_form") or forms.get("csv_form") or forms.get("csv_report")),
        "Status": Match.Status,
        "lot_seeding": stage is not None and stage.seeding == Stage.Seeding.LOT,
        "format_summary": pages.format_summary(stage),
        "pin_lockouts": pin_notices.lockouts(pin_notices.open_matches(tournament.matches.all())),  # issue 11 §1
        "undo": undo_toast.take(request, tournament),  # issue 26 §5
    })
    from . import control_views
    from .dashboard_rows import by_state, wanted_range
    from .room_views import dashboard_room
    from .stage_pages import dashboard_stages

    context.update(by_state(rows, wanted_range(request), (forms.get("result_retry") or {}).get("pk")))

    context.update(dashboard_stages(tournament))
    context.update(control_views.dashboard_controls(tournament, context))  # issue 24 §11: details, stage settings
    context.update(dashboard_room(tournament, drawn, stage))  # issue 25: ready matches, free tables, room options
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
    script replaces those): a quick result is answered with under half the page (issue 26)."""
    context = _dashboard_context(request, tournament)
    parts = set(request.headers.get("X-Dashboard-Parts", "").split()) & DASHBOARD_PARTS
    if parts:
        response = render(request, "tournaments/dashboard_parts.html", {**context, "parts": parts})
    else:
        response = render(request, "tournaments/dashboard.html", context)
    patch_vary_headers(response, ["X-Dashboard-Parts", "X-Dashboard-Tables"])
    return response


@organizer_only
@require_POST
def configure(request, tournament: Tournament):
    form = StageForm(request.POST, tournament=tournament)
    if form.save(by=request.user) is None:
        return render(request, "tournaments/dashboard.html",
                      _dashboard_context(request, tournament, stage_form=form), status=400)
    messages.success(request, _("Format saved."))
    return _back(tournament, request, "format")


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
    issued = pin_views.issue_at_registration(request, tournament, [pair])  # issue 10: PINs without the admin
    if issued:
        messages.info(request, pin_views.pins_message(pair, issued))
    return _back(tournament, request, "registration")


@organizer_only
@require_POST
def import_csv(request, tournament: Tournament):
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
    return _back(tournament, request, "pairs")


@organizer_only
@require_POST
def withdraw(request, tournament: Tournament, pk: int):
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    form = WithdrawalForm(request.POST, pair=pair)
    walkovers = form.save(by=request.user)
    if walkovers is None:
        _form_errors(request, form)
    else:
        withdrew = ngettext("%(pair)s withdrew from the tournament.", "%(pair)s withdrew from the tournament.",
                            pair_names.number(pair.name)) % {"pair": pair.name}
        became = ngettext("%(count)s match became W.O.", "%(count)s matches became W.O.", len(walkovers)) \
            % {"count": formats.localize(len(walkovers))}
        messages.success(request, f"{withdrew} {became}" if walkovers else withdrew)
        undo_toast.offer(request, pair)  # "Desfazer" for a few seconds (issue 26 §5)
    return _back(tournament, request, "pairs")


@organizer_only
@require_POST
def confirm(request, tournament: Tournament, pk: int):
    """A pending registration becomes confirmed (drawn and paired)."""
    pair = get_object_or_404(Pair, pk=pk, tournament=tournament)
    try:
        services.update_pair(pair, request.user, status=Pair.Status.CONFIRMED)
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, pair_names.contract(_("Registration of %(pair)s confirmed.") % {"pair": pair.name},
                                                     pair.name))
    return _back(tournament, request, f"pair-{pair.pk}")


@organizer_only
@require_POST
def check_in(request, tournament: Tournament):
    pair = request.POST.get("pair", "")
    undo = request.POST.get("undo") == "1"
    try:
        rnd = services.upcoming_round(tournament, request.user)
        pair_id = int(pair) if pair.isdigit() else None
        if undo:
            services.undo_check_in(rnd, pair_id, request.user, check_in=request.POST.get("check_in"))
        else:
            services.check_in(rnd, pair_id, request.user)
    except services.TournamentError as error:
        _fail(request, error)
    return _back(tournament, request, f"checkin-{pair}" if pair.isdigit() else "checkin")


def _lot_seed(request) -> int | None:
    text = (request.POST.get("seed") or "").strip()
    return int(text) if text.isdigit() else None


@organizer_only
@require_POST
def draw(request, tournament: Tournament):
    try:
        rnd = services.generate_first_round(tournament, request.user, seed=_lot_seed(request))
    except services.TournamentError as error:
        _fail(request, error)
        return _back(tournament, request, "rounds")
    messages.success(request, _("Draw made: %(round)s is paired.") % {"round": rnd.display_name})
    return redirect(_dashboard_url(tournament, "matches"))


@organizer_only
@require_POST
def next_round(request, tournament: Tournament):
    try:
        rnd = services.generate_next_round(tournament, request.user)
    except services.TournamentError as error:
        _fail(request, error)
        return _back(tournament, request, "rounds")
    messages.success(request, _("%(round)s is paired.") % {"round": rnd.display_name})
    return redirect(_dashboard_url(tournament, "matches", rnd.number))


@organizer_only
@require_POST
def regenerate(request, tournament: Tournament, number: int):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    reason = request.POST.get("reason", "")
    if not reason.strip():
        messages.error(request, _("Say why the round is generated again: it is kept in the audit log."))
        return _back(tournament, request, "rounds")
    try:
        rnd = services.regenerate_round(rnd, request.user, seed=_lot_seed(request), reason=reason)
    except services.TournamentError as error:
        _fail(request, error)
        return _back(tournament, request, "rounds")
    messages.success(request, _("%(round)s was generated again.") % {"round": rnd.display_name})
    return redirect(_dashboard_url(tournament, "matches", rnd.number))


@organizer_only
@require_POST
def assign_referee(request, tournament: Tournament):
    from django.contrib.auth import get_user_model

    table = request.POST.get("table", "")
    referee_id = request.POST.get("referee", "")
    round_number = request.POST.get("round_only", "")
    referee = None
    if referee_id.isdigit():
        referee = get_user_model().objects.filter(pk=int(referee_id), is_active=True).first()
        if referee is None:
            messages.error(request, _("Choose an active user as the referee."))
            return _back(tournament, request, "tables")
    rnd = None
    if round_number.isdigit():
        rnd = Round.objects.filter(tournament=tournament, number=int(round_number)).first()
    try:
        services.assign_referee(tournament, request.user, table=int(table) if table.isdigit() else table,
                                referee=referee, round=rnd)
    except services.TournamentError as error:
        _fail(request, error)
    else:
        if referee is None:
            messages.success(request, _("Table %(table)s has no referee now.") % {"table": table})
        else:
            messages.success(request, _("%(referee)s referees table %(table)s.")
                             % {"referee": referee.get_username(), "table": table})
    return _back(tournament, request, "tables")


def _match_of(tournament: Tournament, pk: int) -> Match:
    match = Match.objects.filter(pk=pk, tournament=tournament).select_related("pair_a", "pair_b", "round").first()
    if match is None:
        raise Http404(_("No match with this number in this tournament."))
    return match


@organizer_only
@require_POST
def walkover(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    form = WalkoverForm(request.POST, match=match)
    result = form.save(by=request.user)
    if result is None:
        _form_errors(request, form)
    else:
        messages.success(request, pair_names.contract(
            _("W.O. recorded: %(winner)s wins.") % {"winner": result.winner.name}, result.winner.name))
    return _back(tournament, request, f"match-{match.pk}")


@organizer_only
@require_POST
def set_result(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    form = ManualResultForm(request.POST, match=match)
    result = form.save(by=request.user)
    if result is None:  # the form stays open with what was typed (issue 26 §4), the errors above it
        _form_errors(request, form)
        retry = {key: request.POST.get(key, "") for key in ("winner", "games_a", "games_b", "points_a", "points_b",
                                                              "reason", "loser_points")}
        return render(request, "tournaments/dashboard.html",
                      _dashboard_context(request, tournament, result_retry={"pk": match.pk, **retry}), status=400)
    else:
        # "Desfazer" for a few seconds instead of a dialog (issue 26 §5): the toast then says what was set
        if not undo_toast.offer_result(request, match):
            messages.success(request, pair_names.contract(
                _("Result set by hand: %(winner)s wins.") % {"winner": result.winner.name}, result.winner.name))
    return _back(tournament, request, f"match-{match.pk}")


@organizer_only
@require_POST
def receive(request, tournament: Tournament, pk: int):
    """Art. 25: the organizer receives the signed súmula at the organizing table; the result becomes
    official and the tournament follows it (the bracket's next match, the standings)."""
    match = _match_of(tournament, pk)
    try:
        # the tournament follows through scoring's ``result_official`` signal, in the same transaction
        scoring_services.mark_received(match, request.user)
    except scoring_services.Forbidden as error:
        raise PermissionDenied(error.message) from None
    except scoring_services.ScoringError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Súmula received at the organizing table: the result is official (art. 25)."))
    return _back(tournament, request, f"match-{match.pk}")


@organizer_only
@require_POST
def swap_tables(request, tournament: Tournament, pk: int):
    match = _match_of(tournament, pk)
    table = request.POST.get("table", "")
    other = None
    if table.isdigit():
        other = Match.objects.filter(round=match.round_id, table=int(table)).first()
    if other is None:
        messages.error(request, _("No match at that table in this round."))
        return _back(tournament, request, f"match-{match.pk}")
    try:
        services.swap_tables(match, other, request.user, reason=request.POST.get("reason", ""))
    except services.TournamentError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Tables swapped."))
    return _back(tournament, request, "matches")


def new_tournament(request):
    """A new tournament and its format, for users who may create tournaments."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not services.can_create_tournament(request.user):
        raise PermissionDenied(_("Only organizers create tournaments."))
    form = NewTournamentForm(request.POST or None)
    if request.method == "POST":
        tournament = form.save(by=request.user)
        if tournament is not None:
            messages.success(request, _("Tournament created: register the pairs."))
            return redirect(_dashboard_url(tournament))
    return render(request, "tournaments/new.html", {"form": form}, status=400 if form.errors else 200)


pair_cards = organizer_only(pin_views.pair_cards)
reset_pin = organizer_only(pin_views.reset_pin)
