"""Results out through the API.

``GET /api/tournaments/{slug}/exports/standings/``, ``.../exports/results/`` and
``.../exports/rounds/{number}/pairings/`` answer JSON (``{"columns": [...], "rows": [...]}``
plus the tournament's slug) or CSV (``?format=csv`` or ``Accept: text/csv``), built by
``public.exports``; the CSV in one of two dialects (``?dialect=plain``, the default for programs:
comma, UTF-8, English; ``?dialect=excel-br``: semicolon, UTF-8 with BOM, Portuguese; the pages link the
latter in pt-BR, ``public.export_dialects``); with ``?format=`` in the URL the answer is a download (a
``Content-Disposition: attachment`` with a file name). All public. (``GET /api/tournaments/{slug}/version/``,
the change marker the live pages poll, is the public pages' own: ``public.api``.)
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from config.api import error_body
from config.errors import ServiceError

from tournaments.models import Round, Stage, Tournament

from . import export_dialects, exports


def requested_dialect(request) -> str:
    """The ``dialect`` asked for (``plain`` when none); an unknown one is refused naming the field."""
    dialect = request.query_params.get("dialect") or export_dialects.PLAIN
    if dialect not in export_dialects.DIALECTS:
        raise ServiceError(_("Unknown CSV dialect %(dialect)s: use plain (programs) or excel-br (spreadsheets).")
                           % {"dialect": dialect}, "dialect")
    return dialect


class CSVRenderer(BaseRenderer):
    """An export's rows as CSV (header first) in the request's dialect; other answers (errors) as
    ``field,message``."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, dict) and "columns" in data and "rows" in data:
            export = exports.Export("", data["columns"], data["rows"])
        else:
            if isinstance(data, dict) and {"field", "message"} <= set(data):  # the API's error (config/api.py)
                items = (data.get("errors") or {data["field"]: data["message"]}).items()
            else:
                items = data.items() if isinstance(data, dict) else [("detail", data)]
            export = exports.Export("", ["field", "message"], [{"field": k, "message": v} for k, v in items])
        request = (renderer_context or {}).get("request")
        dialect = request.query_params.get("dialect") if request is not None else None
        return exports.to_csv(export, dialect if dialect in export_dialects.DIALECTS else export_dialects.PLAIN)


EXPORT_SCHEMA = inline_serializer("Export", {
    "tournament": serializers.CharField(),
    "columns": serializers.ListField(child=serializers.CharField(), help_text="The CSV header, in order."),
    "rows": serializers.ListField(child=serializers.DictField(), help_text="One object per row, keyed by column."),
})


class ExportView(APIView):
    """Base of the downloads: public, JSON or CSV, attachment when ``?format=`` is given."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, CSVRenderer]

    def tournament(self) -> Tournament:
        return get_object_or_404(Tournament, slug=self.kwargs["slug"])

    def answer(self, export: exports.Export) -> Response:
        requested_dialect(self.request)
        response = Response(export.as_dict())
        fmt = self.request.query_params.get("format")
        if fmt in exports.FORMATS:
            response["Content-Disposition"] = f'attachment; filename="{export.filename(fmt)}"'
        return response


DIALECT = OpenApiParameter(
    "dialect", str, enum=list(export_dialects.DIALECTS),
    description="CSV only: ``plain`` (default; comma, UTF-8, English names and values, for programs) or "
                "``excel-br`` (semicolon, UTF-8 with BOM, Portuguese columns and values, for Excel in pt-BR).")


def _schema(description: str, **extra):
    extra["parameters"] = [*extra.get("parameters", []), DIALECT]
    return extend_schema(description=description, responses={
        (200, "application/json"): EXPORT_SCHEMA, (200, "text/csv"): OpenApiTypes.STR,
        404: OpenApiResponse(description="No such tournament or round (in the API's error shape, as CSV too).")},
        **extra)


class StandingsExportView(ExportView):
    @_schema("The standings, overall then per group: rank, pair, players, played, won, lost, byes, games and "
             "points (tentos) for and against, each tiebreak's value and the lot. Overall, with several stages, "
             "each row names the stage that decided its place (stage, stage_name, decided_by: bracket or "
             "standings) and its figures are that stage's. ``?stage=N``: the standings of stage N alone.",
             parameters=[OpenApiParameter("stage", int, description="A stage's position: its own standings.")])
    def get(self, request, slug):
        tournament = self.tournament()
        position = request.query_params.get("stage")
        if position is None:
            return self.answer(exports.standings(tournament))
        stage = Stage.objects.filter(tournament=tournament, position=position if position.isdigit() else 0).first()
        if stage is None:
            return Response(error_body("stage", _("No stage %(number)s in this tournament.") % {"number": position}),
                            status=404)
        stage.tournament = tournament
        return self.answer(exports.standings(tournament, stage))


class ResultsExportView(ExportView):
    @_schema("Every match by round and table: pairs, status, official result (kind, winner, games and tentos) "
             "and each game's score (pair A first).")
    def get(self, request, slug):
        return self.answer(exports.results(self.tournament()))


class PairingsExportView(ExportView):
    @_schema("A round's pairings: table, the two pairs and their players, referee; byes last.")
    def get(self, request, slug, number):
        tournament = self.tournament()
        rnd = Round.objects.filter(tournament=tournament, number=number, generated_at__isnull=False).first()
        if rnd is None:
            return Response(error_body("round", _("No round %(number)s in this tournament.") % {"number": number}),
                            status=404)
        rnd.tournament = tournament
        return self.answer(exports.pairings(rnd))
