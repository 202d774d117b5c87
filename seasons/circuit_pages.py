"""Public pages of circuits and ratings, mounted with the other pages:

- ``/circuitos/<slug>/``: the circuit's ranking per player (``?por=duplas``: per pair), for phones;
- ``/circuitos/<slug>/telao/``: the same for a projector (large type, the top 16, no site header);
- ``/circuitos/<slug>/etapas/``: the stages with their final placings and the points each is worth;
- ``/circuitos/<slug>/ranking.csv`` and ``ranking.json`` (``?por=duplas``): the ranking as a download,
  built as an ``exports.Export`` (``public/exports.py``: the same CSV cells and JSON shape as
  the tournaments' exports);
- ``/torneios/<slug>/categorias/``: the final placings per category (flight) of a tournament;
- ``/jogadores/<id>/rating/``: a player's rating now and its history as a chart (``rating.svg``: the
  drawing alone); ``templates/seasons/_rating_chart.html`` is the snippet a player's page includes.

Thin: the data comes from ``services.circuits`` and ``services.ratings``; nothing here writes (the
organizer's forms are ``seasons.circuit_admin``).
"""
from __future__ import annotations

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from draw.pairing.ratings import Rating
from events.models import Tournament
from people.models import Player
from public import exports

from .circuit_admin import stage_choices
from .models import Circuit
from .rating_chart import ChartPoint, rating_svg
from .services import circuits, flights, ratings

RANKING_COLUMNS = ["rank", "entrant", "players", "counted_points", "total_points", "stages_played", "decided_by"]


def _by_pairs(request) -> bool:
    return request.GET.get("por") == "duplas"


def ranking_export(ranking: circuits.CircuitRanking, pairs: bool) -> exports.Export:
    """The ranking as an export: one row per player (or pair) with each stage's points (``stage_N``,
    empty when not played, a stage not counted in parentheses in the CSV: ``(45)``)."""
    rows_in = ranking.pairs if pairs else ranking.players
    stage_cols = [f"stage_{s.number}" for s in ranking.stages]
    rows = []
    for row in rows_in:
        line = row.line
        entrant = "-".join(str(p.pk) for p in row.players)
        out = {"rank": line.rank, "entrant": entrant, "players": row.name, "counted_points": line.counted_points,
               "total_points": line.total_points, "stages_played": line.played, "decided_by": line.decided_by}
        for s in line.stages:
            out[f"stage_{s.stage}"] = s.points if s.counted else f"({s.points})"
        rows.append(out)
    name = f"{ranking.circuit.slug}-{'pairs' if pairs else 'players'}"
    meta = {"circuit": ranking.circuit.slug, "by": "pair" if pairs else "player",
            "points": ranking.circuit.points, "beyond_points": ranking.circuit.beyond_points,
            "best_of": ranking.circuit.best_of}
    return exports.Export(name, RANKING_COLUMNS + stage_cols, rows, meta)


def _context(circuit: Circuit, request) -> dict:
    ranking = circuits.circuit_ranking_of(circuit)
    pairs = _by_pairs(request)
    return {"circuit": circuit, "ranking": ranking, "rows": ranking.pairs if pairs else ranking.players,
            "by_pairs": pairs, "tiebreak_names": tiebreak_names(),
            "final_stages": sum(1 for s in ranking.stages if s.final_at)}


def tiebreak_names() -> dict:
    return {"counted_points": _("points counted"), "total_points": _("all points"),
            "countback": _("more better places"), "recency": _("better place in the latest stage")}


@require_GET
def circuit_page(request, slug: str):
    circuit = get_object_or_404(Circuit, slug=slug)
    return render(request, "seasons/circuit.html", _context(circuit, request))


@require_GET
def circuit_projector(request, slug: str):
    circuit = get_object_or_404(Circuit, slug=slug)
    context = _context(circuit, request)
    context["rows"] = context["rows"][:16]
    return render(request, "seasons/circuit_projector.html", context)


@require_GET
def circuit_stages(request, slug: str):
    circuit = get_object_or_404(Circuit, slug=slug)
    stages = list(circuit.stages.select_related("tournament").order_by("number"))
    for stage in stages:
        stage.circuit = circuit
        stage.results = circuits.stage_results(stage) if stage.final_at else []
    can_manage = circuits.can_manage_circuit(request.user, circuit)
    return render(request, "seasons/circuit_stages.html",
                  {"circuit": circuit, "stages": stages, "can_manage": can_manage,
                   "choices": stage_choices(circuit) if can_manage else []})


@require_GET
def circuit_download(request, slug: str, fmt: str):
    circuit = get_object_or_404(Circuit, slug=slug)
    if fmt not in exports.FORMATS:
        raise Http404(_("Downloads are CSV or JSON."))
    export = ranking_export(circuits.circuit_ranking_of(circuit), _by_pairs(request))
    if fmt == "json":
        response = JsonResponse(export.as_dict())
    else:
        response = HttpResponse(exports.to_csv(export), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{export.filename(fmt)}"'
    return response


def chart(player: Player) -> str:
    """The SVG of ``player``'s rating history (what ``_rating_chart.html`` shows)."""
    points = [ChartPoint(date_format(e.date, "SHORT_DATE_FORMAT"), e.rating,
                         _("match %(number)s") % {"number": e.match_id}) for e in ratings.history(player)]
    return rating_svg(points, title=_("Rating of %(name)s") % {"name": player.name},
                      empty=_("No official match rated yet."))


def rating_context(player: Player) -> dict:
    """What a page needs to include ``seasons/_rating_chart.html`` for ``player``."""
    now = ratings.current_rating(player)
    return {"rated_player": player, "rating_now": now.display if now else Rating().display, "rated": now is not None,
            "rating_svg": chart(player)}


def rating_section(player: Player, person_ids: set[int], viewer) -> dict | None:
    """The rating chart on the player's page (people.sections, key ``rating``): only once rated."""
    context = rating_context(player)
    if not context["rated"]:
        return None
    return {"key": "rating", "title": _("Rating"), "template": "seasons/_player_rating_section.html",
            "context": context, "order": 30}


@require_GET
def player_rating(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    return render(request, "seasons/player_rating.html", rating_context(player))


@require_GET
def player_rating_svg(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    return HttpResponse(chart(player), content_type="image/svg+xml; charset=utf-8")


@require_GET
def flights_page(request, slug: str):
    tournament = get_object_or_404(Tournament, slug=slug)
    return render(request, "seasons/flights.html",
                  {"tournament": tournament, "flights": flights.flight_standings(tournament)})
