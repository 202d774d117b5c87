"""REST endpoints of the tournaments app (mounted at /api/tournaments/, in the OpenAPI schema): here the
tournament itself, its pairs, its stage, standings, bracket and audit log, and the base view the
others share; a tournament's play (rounds, check-ins, tables, matches) is ``api_play``, its stages
``api_stages``, its exports ``export_api`` (the room's are ``room.api``).

Thin views: they read the request with ``tournaments.serializers``, call
``tournaments.services`` (or ``tournaments.csv_import``) and write the answer. Reads are
public; writes need the tournament's organizer (or staff), checked here and again by the
services. A refusal comes back as ``{"field": ..., "message": ...}`` with 400 (bad input),
403 (not allowed) or 409 (the tournament's state does not allow it now).
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.generics import GenericAPIView
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response

from config.api import error_body
from scoring.models import Match

from . import serializers as s
from . import services
from .csv_import import import_pairs
from .models import AuditEntry, Pair, Round, Stage, Tournament

def _errors(*codes: int) -> dict:
    return {code: OpenApiResponse(s.TournamentErrorSerializer) for code in codes}


class IsOrganizerOrReadOnly(permissions.BasePermission):
    """Anyone reads; the tournament's organizer, staff and superusers write."""

    message = gettext_lazy("Only the tournament's organizer can do this.")

    def has_permission(self, request, view) -> bool:
        if request.method in permissions.SAFE_METHODS and not getattr(view, "organizer_only", False):
            return True
        return services.can_manage(request.user, view.get_tournament())


class TournamentAPIView(GenericAPIView):
    """Base: the tournament from the URL's slug, service errors as JSON."""

    permission_classes = [IsOrganizerOrReadOnly]
    organizer_only = False

    def get_tournament(self) -> Tournament:
        if not hasattr(self, "_tournament"):
            self._tournament = get_object_or_404(Tournament.objects.select_related("organizer", "organization"),
                                                 slug=self.kwargs["slug"])
        return self._tournament

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "slug" in self.kwargs:
            context["manage"] = services.can_manage(self.request.user, self.get_tournament())
        return context

    def handle_exception(self, exc):
        if isinstance(exc, services.TournamentError):
            return Response(error_body(exc.field, exc.message), status=exc.status)
        return super().handle_exception(exc)

    def listing(self, serializer_class, rows, **kwargs) -> Response:
        """A list, whole; or one page of it when the client asks ``?limit=&offset=`` (config/pagination.py)."""
        page = self.paginate_queryset(rows)
        data = serializer_class(page if page is not None else rows, many=True, **kwargs).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    def read(self, serializer_class, data=None):
        serializer = serializer_class(data=self.request.data if data is None else data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def round_numbered(self, number: int) -> Round:
        rnd = Round.objects.filter(tournament=self.get_tournament(), number=number).first()
        if rnd is None:
            raise services.TournamentError(_("No round %(number)s in this tournament.") % {"number": number}, "round")
        return rnd

    def match(self) -> Match:
        return get_object_or_404(
            Match.objects.select_related("pair_a", "pair_b", "round", "referee", "tournament_result",
                                         "bracket_node"),
            pk=self.kwargs["match_id"], tournament=self.get_tournament(), round__isnull=False,
        )


# ---------------------------------------------------------------------------------- tournaments


class TournamentListView(TournamentAPIView):
    """Tournaments: anyone lists them; organizers (staff, or with the permission) create one."""

    serializer_class = s.TournamentSerializer

    def get_permissions(self):
        return [permissions.AllowAny()]

    def get_queryset(self):
        return (Tournament.objects.select_related("organizer", "organization").prefetch_related("stages")
                .order_by("-date", "name"))

    @extend_schema(responses=s.TournamentSerializer(many=True))
    def get(self, request):
        return self.listing(s.TournamentSerializer, self.get_queryset())

    @extend_schema(request=s.TournamentWriteSerializer, responses={201: s.TournamentSerializer, **_errors(400, 403)})
    def post(self, request):
        if not request.user.is_authenticated:
            return Response(error_body("", _("Log in to create a tournament.")),
                            status=status.HTTP_403_FORBIDDEN)
        tournament = services.create_tournament(request.user, **self.read(s.TournamentWriteSerializer))
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(TournamentAPIView):
    serializer_class = s.TournamentSerializer

    @extend_schema(responses=s.TournamentSerializer)
    def get(self, request, slug):
        return Response(s.TournamentSerializer(self.get_tournament()).data)

    @extend_schema(request=s.TournamentWriteSerializer, responses={200: s.TournamentSerializer,
                                                                   **_errors(400, 403, 409)})
    def patch(self, request, slug):
        tournament = services.update_tournament(self.get_tournament(), request.user,
                                                **self.read(s.TournamentWriteSerializer))
        return Response(s.TournamentSerializer(tournament).data)


# ---------------------------------------------------------------------------------------- pairs

PAIR_QUERY = ("first_player__club", "second_player__club", "substitute__club")


class PairListView(TournamentAPIView):
    """The pairs of a tournament (players' contacts only for its organizer); register a pair."""

    serializer_class = s.PairSerializer

    @extend_schema(responses=s.PairSerializer(many=True))
    def get(self, request, slug):
        pairs = Pair.objects.filter(tournament=self.get_tournament()).select_related(*PAIR_QUERY)
        return self.listing(s.PairSerializer, pairs, context=self.get_serializer_context())

    @extend_schema(request=s.PairCreateSerializer, responses={201: s.PairSerializer, **_errors(400, 403, 409)})
    def post(self, request, slug):
        pair = services.register_pair(self.get_tournament(), request.user, **self.read(s.PairCreateSerializer))
        return Response(s.PairSerializer(pair, context=self.get_serializer_context()).data,
                        status=status.HTTP_201_CREATED)


class PairImportView(TournamentAPIView):
    """Register pairs from a CSV file (multipart ``file``, ``mode``); the report lists the bad rows.
    201 when pairs were created, 400 when nothing was (the report says why)."""

    serializer_class = s.CsvImportSerializer
    parser_classes = [MultiPartParser, FormParser]

    @extend_schema(request={"multipart/form-data": s.CsvImportSerializer},
                   responses={201: s.ImportReportSerializer, 400: s.ImportReportSerializer, **_errors(403, 409)})
    def post(self, request, slug):
        data = self.read(s.CsvImportSerializer)
        report = import_pairs(self.get_tournament(), data["file"], request.user, mode=data["mode"],
                              namesakes=data["namesakes"])
        code = status.HTTP_201_CREATED if report.created else status.HTTP_400_BAD_REQUEST
        return Response(report.as_dict(), status=code)


class PairDetailView(TournamentAPIView):
    serializer_class = s.PairSerializer

    def pair(self) -> Pair:
        return get_object_or_404(Pair.objects.select_related(*PAIR_QUERY), pk=self.kwargs["pair_id"],
                                 tournament=self.get_tournament())

    @extend_schema(responses=s.PairSerializer)
    def get(self, request, slug, pair_id):
        return Response(s.PairSerializer(self.pair(), context=self.get_serializer_context()).data)

    @extend_schema(request=s.PairUpdateSerializer, responses={200: s.PairSerializer, **_errors(400, 403, 409)})
    def patch(self, request, slug, pair_id):
        pair = services.update_pair(self.pair(), request.user, **self.read(s.PairUpdateSerializer))
        return Response(s.PairSerializer(pair, context=self.get_serializer_context()).data)

    @extend_schema(responses={204: None, **_errors(403, 409)})
    def delete(self, request, slug, pair_id):
        """Delete a pair registered by mistake, before the draw (409 after it: withdraw it instead)."""
        services.delete_pair(self.pair(), request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PairWithdrawView(PairDetailView):
    """Withdraw a pair with a reason: its matches without an official result become walkovers."""

    serializer_class = s.ReasonSerializer
    http_method_names = [m for m in PairDetailView.http_method_names if m != "delete"]

    @extend_schema(request=s.ReasonSerializer, responses={200: s.PairSerializer, **_errors(400, 403, 409)})
    def post(self, request, slug, pair_id):
        services.withdraw_pair(self.pair(), request.user, self.read(s.ReasonSerializer)["reason"])
        return Response(s.PairSerializer(self.pair(), context=self.get_serializer_context()).data)


class PairDisqualifyView(PairDetailView):
    """Disqualify a pair with a reason (audited): it leaves as a withdrawn pair does and ranks last."""

    serializer_class = s.ReasonSerializer
    http_method_names = [m for m in PairDetailView.http_method_names if m != "delete"]

    @extend_schema(request=s.ReasonSerializer, responses={200: s.PairSerializer, **_errors(400, 403, 409)})
    def post(self, request, slug, pair_id):
        services.disqualify_pair(self.pair(), request.user, self.read(s.ReasonSerializer)["reason"])
        return Response(s.PairSerializer(self.pair(), context=self.get_serializer_context()).data)


class PlacingOverrideView(TournamentAPIView):
    """Set a pair's final place by hand, with a reason (audited); ``place`` null takes it back."""

    serializer_class = s.PlacingOverrideSerializer

    @extend_schema(request=s.PlacingOverrideSerializer, responses={200: s.StandingsSerializer,
                                                                   **_errors(400, 403, 409)})
    def post(self, request, slug):
        data = self.read(s.PlacingOverrideSerializer)
        services.override_placing(self.get_tournament(), request.user, pair=data["pair"], place=data["place"],
                                  reason=data["reason"])
        tournament = Tournament.objects.get(pk=self.get_tournament().pk)
        return Response(services.standings(tournament).as_dict())


# ---------------------------------------------------------------------------------------- stage


class StageView(TournamentAPIView):
    """The tournament's format; set or change it (PUT or PATCH, same meaning) until the draw."""

    serializer_class = s.StageSerializer

    @extend_schema(responses={200: s.StageSerializer, **_errors(404)})
    def get(self, request, slug):
        stage = Stage.objects.filter(tournament=self.get_tournament()).first()
        if stage is None:
            return Response(error_body("stage", _("No format chosen yet.")), status=status.HTTP_404_NOT_FOUND)
        return Response(s.StageSerializer(stage).data)

    @extend_schema(request=s.StageWriteSerializer, responses={200: s.StageSerializer, **_errors(400, 403, 409)})
    def put(self, request, slug):
        stage = services.configure_stage(self.get_tournament(), request.user, **self.read(s.StageWriteSerializer))
        return Response(s.StageSerializer(stage).data)

    @extend_schema(request=s.StageWriteSerializer, responses={200: s.StageSerializer, **_errors(400, 403, 409)})
    def patch(self, request, slug):
        return self.put(request, slug)


# ------------------------------------------------------------------------- standings, bracket, audit


class StandingsView(TournamentAPIView):
    """Standings from the official results, in the tournament's tiebreak order (then lot, recorded)."""

    serializer_class = s.StandingsSerializer

    @extend_schema(responses=s.StandingsSerializer)
    def get(self, request, slug):
        return Response(services.standings(self.get_tournament()).as_dict())


class BracketView(TournamentAPIView):
    """The bracket as JSON: sections, rounds, matches with their slots, results and the champion."""


    @extend_schema(responses={200: OpenApiTypes.OBJECT, **_errors(404)})
    def get(self, request, slug):
        data = services.bracket_json(self.get_tournament())
        if data is None:
            return Response(error_body("bracket", _("This tournament has no bracket (yet).")),
                            status=status.HTTP_404_NOT_FOUND)
        return Response(data)


class AuditListView(TournamentAPIView):
    """The audit log (organizer only): every override with its reason, the data before and after."""

    serializer_class = s.AuditEntrySerializer
    organizer_only = True

    @extend_schema(responses={200: s.AuditEntrySerializer(many=True), **_errors(403)})
    def get(self, request, slug):
        entries = AuditEntry.objects.filter(tournament=self.get_tournament()).select_related("actor", "round")
        return self.listing(s.AuditEntrySerializer, entries.order_by("at", "id"))
