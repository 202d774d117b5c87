"""The public pages of a tournament (mounted at the site root, Portuguese paths), read-only:

- ``/``: the tournaments; ``/torneios/<slug>/``: a tournament's page (its pairs, the champion);
- ``chave/`` (the bracket; ``chave.svg`` the drawing alone), ``grupos/`` (round-robin grids),
  ``classificacao/`` (standings with the stage's tiebreak columns), ``rodadas/`` and
  ``rodadas/<n>/`` (pairings and tables; the organizer also sees each table's link and card): live
  (``public.live``: they poll the change marker and fetch their fragment, ``?parte=1``; docs/live.md);
- ``versao/``: the change marker the live pages poll (ETag, 304);
- ``telao/``: the projector view (a 1920×1080 screen across the room), cycling between the current
  round's tables, the bracket and the standings, live;
- ``duplas/<pair>/``: a pair's page (players, matches, scores, súmulas; its "Chegamos" and notices are
  the room's, ``room.pair_views``, shown through ``room_hooks``);
- ``rodadas/<number>/mural.pdf``: the round's wall sheet (PDF).

Thin: the data comes from ``tournaments.pages`` and ``public.live_pages``; nothing here writes.
"""
from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.generic import DetailView, ListView

from scoring.site import absolute
from tables.cards import card_path, ensure_cards
from tables.links import ensure_links, table_path

from tournaments import pages, services
from tournaments.models import Pair, Round, Tournament
from tournaments.room_hooks import room
from tournaments.view_helpers import public_context, tournament_of

from . import draw_pages, live, live_pages
from .where import next_match


class TournamentListView(ListView):
    model = Tournament
    template_name = "home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return Tournament.objects.select_related("organizer", "signup_settings").annotate(pair_count=Count("pairs"))

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["can_create"] = services.can_create_tournament(self.request.user)
        return context



class TournamentDetailView(DetailView):
    model = Tournament
    template_name = "tournaments/tournament_detail.html"  # the page is the site's; the model is events'
    context_object_name = "tournament"

    def get_queryset(self):
        return Tournament.objects.select_related("organizer")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.object
        stage = pages.stage_of(tournament)
        context.update(public_context(self.request, tournament, "detail", stage))
        context["pairs"] = tournament.pairs.exclude(status=Pair.Status.WITHDRAWN).select_related(
            "first_player", "second_player", "substitute")
        context["withdrawn"] = tournament.pairs.filter(status=Pair.Status.WITHDRAWN).order_by("name")
        view = services.bracket_view(tournament) if stage is not None and stage.bracket_first_round else None
        context["champion"] = view.champion if view is not None else None
        context["format_name"] = pages.format_name(getattr(tournament, "stage_list", []))  # every stage (§9)
        return context


@require_GET
def bracket(request, slug: str):
    tournament = tournament_of(slug, request)
    stage = pages.stage_of(tournament)
    view = services.bracket_view(tournament) if stage is not None else None
    context = public_context(request, tournament, "bracket", stage)
    if view is not None:
        context.update(svg=draw_pages.bracket_drawing(view), rows=draw_pages.bracket_rows(view), champion=view.champion,
                       double=view.bracket.double)
    return live.render_live(request, "tournaments/bracket.html", "tournaments/_live_bracket.html", context)


@require_GET
def bracket_image(request, slug: str):
    """The bracket alone, as an SVG file (to share or print)."""
    tournament = tournament_of(slug, request)
    view = services.bracket_view(tournament)
    if view is None:
        raise Http404(_("This tournament has no bracket yet."))
    svg = '<?xml version="1.0" encoding="UTF-8"?>\n' + draw_pages.bracket_drawing(view)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


@require_GET
def grid(request, slug: str):
    tournament = tournament_of(slug, request)
    stage = pages.stage_of(tournament)
    groups = pages.group_stage_of(tournament)
    grids = draw_pages.round_robin_grids(tournament, groups) if groups is not None else []
    return live.render_live(request, "tournaments/grid.html", "tournaments/_live_grid.html",
                            public_context(request, tournament, "grid", stage, grids=grids))


@require_GET
def standings(request, slug: str):
    tournament = tournament_of(slug, request)
    stage = pages.stage_of(tournament)
    table = services.standings(tournament)
    columns = pages.tiebreak_columns(table.tiebreaks)
    shown = pages.value_columns(columns)
    overall_shown = shown
    if table.stages:  # several stages: each row's figures are its deciding stage's, named on the row
        overall_shown = pages.value_columns(pages.tiebreak_columns(
            list(dict.fromkeys(t for st in table.stages for t in st["tiebreaks"]))))
    context = public_context(
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
    tournament = tournament_of(slug, request)
    generated = pages.generated_rounds(tournament)
    current = pages.current_round(generated)
    if current is None:
        stage = pages.stage_of(tournament)
        return live.render_live(request, "tournaments/round.html", "tournaments/_live_round.html",
                                public_context(request, tournament, "rounds", stage, rounds=[], round=None))
    return round_detail(request, slug, current.number, tournament=tournament, generated=generated)


@require_GET
def round_detail(request, slug: str, number: int, *, tournament: Tournament | None = None, generated=None):
    tournament = tournament or tournament_of(slug, request)
    stage = pages.stage_of(tournament)
    generated = generated if generated is not None else pages.generated_rounds(tournament)
    rnd = next((r for r in generated if r.number == number), None)
    if rnd is None:
        raise Http404(_("No round with this number."))
    numbers = {}
    if rnd.phase == Round.Phase.BRACKET:  # the numbers depend on the layout alone
        layout = services.bracket_layout(tournament)
        numbers = pages.match_numbers(layout) if layout is not None else {}
    context = public_context(
        request, tournament, "rounds", stage, rounds=generated, round=rnd,
        matches=pages.match_rows(services.round_matches(rnd), numbers), byes=pages.round_byes(rnd),
    )
    if context["can_manage"]:  # the organizer sees each table's link, to reissue or revoke it
        played = [row.match for row in context["matches"] if row.match.table and row.match.status != "received"]
        links = ensure_links(played)
        cards = ensure_cards(tournament, [row.match.table for row in context["matches"]])
        for match in played:
            match.table_url = absolute(table_path(links[match.pk]), request) if match.pk in links else ""
            match.table_revoked = match.pk not in links  # revoked: stays so until "New link"
        for row in context["matches"]:
            row.match.card_url = absolute(card_path(cards[row.match.table]), request) if row.match.table else ""
    return live.render_live(request, "tournaments/round.html", "tournaments/_live_round.html", context)


@require_GET
def version(request, slug: str):
    return live.version_response(request, slug)


@require_GET
def projector(request, slug: str):
    tournament = tournament_of(slug, request)
    context = {"projector": live_pages.projector_slides(tournament), "tournament": tournament,
               "slide_seconds": live_pages.SLIDE_SECONDS}
    context["stage"] = context["projector"].stage
    return live.render_live(request, "tournaments/projector.html", "tournaments/_projector_slides.html", context)


@require_GET
def pair_detail(request, slug: str, pair: int):
    tournament = tournament_of(slug, request)
    if live.wants_fragment(request):  # the live part only: the pair's next match and its table
        found = Pair.objects.filter(tournament=tournament, pk=pair).first()
        if found is None:
            raise Http404(_("This tournament has no such pair."))
        nxt = next_match(found)
        return live.render_live(request, "", "tournaments/_pair_where.html", {
            "next": nxt, "forecast": live_pages.pair_forecast(tournament, found, nxt)})
    stage = pages.stage_of(tournament)
    found = live_pages.pair_page(tournament, pair, stage)
    if found is None:
        raise Http404(_("This tournament has no such pair."))
    nxt = next_match(found.pair)
    return live.render_live(request, "tournaments/pair.html", "tournaments/_pair_where.html", {
        "forecast": live_pages.pair_forecast(tournament, found.pair, nxt), "tournament": tournament, "stage": stage, "links": pages.public_links(tournament, stage), "active": "",
        "can_manage": services.can_manage(request.user, tournament), "pair": found.pair, "matches": found.matches,
        "byes": found.byes, "standing": found.standing, "next": nxt,
        **room().pair_page(tournament, found.pair)})  # its self check-in and notices


@require_GET
def wall_sheet(request, slug: str, number: int):
    tournament = tournament_of(slug, request)
    rnd = Round.objects.filter(tournament=tournament, number=number, generated_at__isnull=False).first()
    if rnd is None:
        raise Http404(_("No round with this number."))
    rnd.tournament = tournament
    response = HttpResponse(live_pages.wall_sheet_pdf(tournament, rnd), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{tournament.slug}-round-{rnd.number}-wall-sheet.pdf"'
    return response
