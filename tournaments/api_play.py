"""REST endpoints of a tournament's play (mounted at /api/tournaments/<slug>/ with ``tournaments.api``):
its rounds (generate, next, regenerate), check-ins, the tables' referees and the matches (walkovers,
results by hand, pairings and table swaps). Thin views, as ``tournaments.api`` describes: reads are
public, writes need the tournament's organizer; refusals come back as ``{"field", "message"}``.
"""
from __future__ import annotations

from django.db.models import Count, Prefetch, Q
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.models import Match

from . import play_serializers as ps
from . import serializers as s
from . import services
from .api import TournamentAPIView, _errors
from .models import Bye, CheckIn, Round, TableAssignment, Tournament


# --------------------------------------------------------------------------------------- rounds


def _rounds(tournament: Tournament):
    official = Q(matches__tournament_result__isnull=False)
    return (Round.objects.filter(tournament=tournament)
            .annotate(match_count=Count("matches", distinct=True),
                      official_count=Count("matches", filter=official, distinct=True))
            .prefetch_related(Prefetch("byes", queryset=Bye.objects.order_by("pair_id")))
            .order_by("number"))


class RoundListView(TournamentAPIView):
    serializer_class = ps.RoundSerializer

    @extend_schema(responses=ps.RoundSerializer(many=True))
    def get(self, request, slug):
        return self.listing(ps.RoundSerializer, _rounds(self.get_tournament()))


class RoundGenerateView(TournamentAPIView):
    """The draw: round 1 (by lot with ``seed``, or a fresh seed, recorded)."""

    serializer_class = ps.GenerateSerializer

    @extend_schema(request=ps.GenerateSerializer, responses={201: ps.RoundDetailSerializer, **_errors(400, 403, 409)})
    def post(self, request, slug):
        data = self.read(ps.GenerateSerializer)
        rnd = services.generate_first_round(self.get_tournament(), request.user, seed=data.get("seed"))
        return round_response(rnd, status.HTTP_201_CREATED)


class RoundNextView(TournamentAPIView):
    """The next Swiss or round-robin round (or the knockout after the groups), once every result is official."""

    serializer_class = ps.RoundDetailSerializer

    @extend_schema(request=None, responses={201: ps.RoundDetailSerializer, **_errors(403, 409)})
    def post(self, request, slug):
        rnd = services.generate_next_round(self.get_tournament(), request.user)
        return round_response(rnd, status.HTTP_201_CREATED)


def round_response(rnd: Round, code: int = 200) -> Response:
    rnd = _rounds(rnd.tournament).get(pk=rnd.pk)
    serializer = ps.RoundDetailSerializer(rnd, context={"matches": services.round_matches(rnd)})
    return Response(serializer.data, status=code)


class RoundDetailView(TournamentAPIView):
    serializer_class = ps.RoundDetailSerializer

    @extend_schema(responses={200: ps.RoundDetailSerializer, **_errors(404)})
    def get(self, request, slug, number):
        rnd = get_object_or_404(Round, tournament=self.get_tournament(), number=number)
        return round_response(rnd)


class RoundRegenerateView(TournamentAPIView):
    """Delete and recreate the round's matches while none has entries or a result."""

    serializer_class = ps.RegenerateSerializer

    @extend_schema(request=ps.RegenerateSerializer, responses={200: ps.RoundDetailSerializer,
                                                              **_errors(400, 403, 404, 409)})
    def post(self, request, slug, number):
        rnd = get_object_or_404(Round, tournament=self.get_tournament(), number=number)
        data = self.read(ps.RegenerateSerializer)
        rnd = services.regenerate_round(rnd, request.user, seed=data.get("seed"), reason=data.get("reason", ""))
        return round_response(rnd)


# ------------------------------------------------------------------------------------- check-in


class CheckInListView(TournamentAPIView):
    """Check-ins of a round (``?round=n``, default the upcoming round); check a pair in."""

    serializer_class = ps.CheckInSerializer

    @extend_schema(parameters=[OpenApiParameter("round", int, description="Round number")],
                   responses=ps.CheckInSerializer(many=True))
    def get(self, request, slug):
        checks = CheckIn.objects.filter(round__tournament=self.get_tournament()).select_related("round", "pair")
        number = request.query_params.get("round")
        if number is not None:
            if not number.isdigit():
                raise services.TournamentError(_("Give a round number."), "round")
            checks = checks.filter(round__number=int(number))
        return self.listing(ps.CheckInSerializer, checks)

    @extend_schema(request=ps.CheckInWriteSerializer, responses={201: ps.CheckInSerializer, **_errors(400, 403, 409)})
    def post(self, request, slug):
        data = self.read(ps.CheckInWriteSerializer)
        tournament = self.get_tournament()
        if data.get("round"):
            rnd = self.round_numbered(data["round"])
        else:
            rnd = services.upcoming_round(tournament, request.user)
        check = services.check_in(rnd, data["pair"], request.user)
        return Response(ps.CheckInSerializer(check).data, status=status.HTTP_201_CREATED)


class CheckInDetailView(TournamentAPIView):
    serializer_class = ps.CheckInSerializer

    @extend_schema(responses={204: None, **_errors(403, 404, 409)})
    def delete(self, request, slug, check_in_id):
        check = get_object_or_404(CheckIn.objects.select_related("round"), pk=check_in_id,
                                  round__tournament=self.get_tournament())
        services.undo_check_in(check.round, check.pair_id, request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# --------------------------------------------------------------------------------------- tables


class TableListView(TournamentAPIView):
    """Referees of the tables; assign one (for every round, or one round) or clear it (``referee: null``)."""

    serializer_class = ps.TableAssignmentSerializer

    @extend_schema(responses=ps.TableAssignmentSerializer(many=True))
    def get(self, request, slug):
        rows = TableAssignment.objects.filter(tournament=self.get_tournament()).select_related("round", "referee")
        return self.listing(ps.TableAssignmentSerializer, rows.order_by("table", "round__number"),
                            context=self.get_serializer_context())

    @extend_schema(request=ps.TableAssignmentWriteSerializer,
                   responses={200: ps.TableAssignmentSerializer, 204: None, **_errors(400, 403)})
    def post(self, request, slug):
        data = self.read(ps.TableAssignmentWriteSerializer)
        rnd = self.round_numbered(data["round"]) if data.get("round") else None
        referee = None
        if data["referee"] is not None:  # one of the tournament's people: anyone else reads as an unknown id
            referee = services.referees.referee_by_id(self.get_tournament(), data["referee"])
        assignment = services.assign_referee(self.get_tournament(), request.user, table=data["table"],
                                             referee=referee, round=rnd)
        if assignment is None:
            return Response(status=status.HTTP_204_NO_CONTENT)
        return Response(ps.TableAssignmentSerializer(assignment, context=self.get_serializer_context()).data)


class TableDetailView(TournamentAPIView):
    serializer_class = ps.TableAssignmentSerializer

    @extend_schema(responses={204: None, **_errors(403, 404)})
    def delete(self, request, slug, assignment_id):
        row = get_object_or_404(TableAssignment, pk=assignment_id, tournament=self.get_tournament())
        services.assign_referee(self.get_tournament(), request.user, table=row.table, referee=None, round=row.round)
        return Response(status=status.HTTP_204_NO_CONTENT)


# -------------------------------------------------------------------------------------- matches


class MatchListView(TournamentAPIView):
    serializer_class = ps.TournamentMatchSerializer

    @extend_schema(parameters=[OpenApiParameter("round", int, description="Round number")],
                   responses=ps.TournamentMatchSerializer(many=True))
    def get(self, request, slug):
        matches = (Match.objects.filter(tournament=self.get_tournament(), round__isnull=False)
                   .select_related("pair_a", "pair_b", "round", "referee", "tournament_result", "bracket_node")
                   .order_by("round__number", "table", "pk"))
        number = request.query_params.get("round")
        if number is not None:
            if not number.isdigit():
                raise services.TournamentError(_("Give a round number."), "round")
            matches = matches.filter(round__number=int(number))
        return self.listing(ps.TournamentMatchSerializer, matches)


class MatchDetailView(TournamentAPIView):
    serializer_class = ps.TournamentMatchSerializer

    @extend_schema(responses={200: ps.TournamentMatchSerializer, **_errors(404)})
    def get(self, request, slug, match_id):
        return Response(ps.TournamentMatchSerializer(self.match()).data)


def match_response(view: TournamentAPIView) -> Response:
    return Response(ps.TournamentMatchSerializer(view.match()).data)


class MatchWalkoverView(TournamentAPIView):
    """W.O.: the absent pair loses; official at once."""

    serializer_class = ps.WalkoverSerializer

    @extend_schema(request=ps.WalkoverSerializer, responses={200: ps.TournamentMatchSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug, match_id):
        data = self.read(ps.WalkoverSerializer)
        services.record_walkover(self.match(), data["absent"], request.user, reason=data.get("reason", ""))
        return match_response(self)


class MatchDoubleWalkoverView(TournamentAPIView):
    """Double W.O.: neither pair played; nobody wins, each loses (not in a bracket). A reason is required."""

    serializer_class = s.ReasonSerializer

    @extend_schema(request=s.ReasonSerializer, responses={200: ps.TournamentMatchSerializer,
                                                          **_errors(400, 403, 404, 409)})
    def post(self, request, slug, match_id):
        data = self.read(s.ReasonSerializer)
        services.record_double_walkover(self.match(), request.user, reason=data["reason"])
        return match_response(self)


class MatchResultView(TournamentAPIView):
    """Override: set the match's result by hand, with a reason (audited)."""

    serializer_class = ps.ManualResultSerializer

    @extend_schema(request=ps.ManualResultSerializer, responses={200: ps.TournamentMatchSerializer,
                                                                **_errors(400, 403, 404, 409)})
    def post(self, request, slug, match_id):
        data = self.read(ps.ManualResultSerializer)
        services.set_result(self.match(), request.user, winner=data["winner"], games=data["games"],
                            points=data["points"], reason=data["reason"])
        return match_response(self)


class MatchPairingView(TournamentAPIView):
    """Override (Swiss rounds): change the match's pairs, with a reason (audited)."""

    serializer_class = ps.PairingSerializer
    pagination_class = None  # answers the rows it changed, whole

    @extend_schema(request=ps.PairingSerializer, responses={200: ps.TournamentMatchSerializer(many=True),
                                                           **_errors(400, 403, 404, 409)})
    def post(self, request, slug, match_id):
        data = self.read(ps.PairingSerializer)
        changed = services.change_pairing(self.match(), request.user, pair_a=data["pair_a"], pair_b=data["pair_b"],
                                          reason=data["reason"])
        matches = Match.objects.filter(pk__in=[m.pk for m in changed]).select_related(
            "pair_a", "pair_b", "round", "referee", "tournament_result", "bracket_node").order_by("table")
        return Response(ps.TournamentMatchSerializer(matches, many=True).data)


class MatchSwapTablesView(TournamentAPIView):
    """Override: this match and ``other`` (same round) exchange tables, with a reason (audited)."""

    serializer_class = ps.SwapTablesSerializer
    pagination_class = None  # answers the rows it changed, whole

    @extend_schema(request=ps.SwapTablesSerializer, responses={200: ps.TournamentMatchSerializer(many=True),
                                                              **_errors(400, 403, 404, 409)})
    def post(self, request, slug, match_id):
        data = self.read(ps.SwapTablesSerializer)
        match = self.match()
        other = Match.objects.filter(pk=data["other"], tournament=self.get_tournament()).first()
        if other is None:
            raise services.TournamentError(_("No match with this id in this tournament."), "other")
        services.swap_tables(match, other, request.user, reason=data["reason"])
        matches = Match.objects.filter(pk__in=[match.pk, other.pk]).select_related(
            "pair_a", "pair_b", "round", "referee", "tournament_result", "bracket_node").order_by("table")
        return Response(ps.TournamentMatchSerializer(matches, many=True).data)
