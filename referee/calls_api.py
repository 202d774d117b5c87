"""REST endpoints of the calls to the referee (referee/calls.py), under /api/referee/.

``POST matches/<id>/calls/`` by the match's table (``Authorization: Table <token>``), its referee or
the organizer; ``GET`` lists the match's calls. ``POST calls/<id>/take/`` and ``calls/<id>/resolve/``
by a referee of the tournament or the organizer; ``POST calls/<id>/withdraw/`` by the table link that made
the call, before a referee answers. Writes honour ``Idempotency-Key``.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from config.api import error_body
from config.errors import ServiceError
from scoring.models import Match
from tables.idempotency import IdempotentAPIView
from tables.links import IsUserOrTable, TableScope

from . import calls
from .models import RefereeCall


class CallRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=RefereeCall.Kind.choices, default="call")
    team = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=1)
    game = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    hand = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    reason = serializers.CharField(required=False, allow_blank=True, default="", max_length=300)


class ResolveSerializer(serializers.Serializer):
    resolution = serializers.ChoiceField(choices=["confirmed", "corrected", "done"],
                                         help_text="A dispute: confirmed or corrected; a plain call: done (attended).")


class CallSerializer(serializers.Serializer):
    """A call as ``calls.call_data`` writes it (the schema of the answers)."""

    id = serializers.IntegerField()
    match = serializers.IntegerField()
    table = serializers.IntegerField(allow_null=True)
    kind = serializers.ChoiceField(choices=RefereeCall.Kind.choices)
    team = serializers.IntegerField(allow_null=True)
    game = serializers.IntegerField(allow_null=True)
    hand = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    called_at = serializers.DateTimeField()
    taken_at = serializers.DateTimeField(allow_null=True)
    resolved_at = serializers.DateTimeField(allow_null=True)
    resolution = serializers.CharField(allow_blank=True, allow_null=True)


def _error(error: ServiceError) -> Response:
    return Response(error_body(error.field, error.message), status=error.status)


class MatchCallsView(IdempotentAPIView):
    permission_classes = [IsUserOrTable]

    def table_match_id(self, request) -> int:
        return int(self.kwargs["pk"])

    def get_permissions(self):
        if self.request.method == "GET":
            return [AllowAny(), TableScope()]
        return super().get_permissions()

    @extend_schema(tags=["referee"], responses={200: CallSerializer(many=True)},
                   summary="Calls to the referee of a match")
    def get(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk)
        return Response([calls.call_data(c) for c in match.referee_calls.select_related("match")])

    @extend_schema(tags=["referee"], request=CallRequestSerializer, responses={201: CallSerializer},
                   summary="Call the referee to the table, or dispute an entry (the table's link)")
    def post(self, request, pk: int):
        match = get_object_or_404(Match, pk=pk)
        data = CallRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        try:
            made = calls.call(match, request.user, kind=v["kind"], team=v.get("team"), game=v.get("game"),
                              hand=v.get("hand"), reason=v.get("reason", ""))
        except ServiceError as error:
            return _error(error)
        return Response(calls.call_data(made), status=status.HTTP_201_CREATED)


class TakeCallView(IdempotentAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["referee"], request=None, responses={200: CallSerializer}, summary="A referee takes a call")
    def post(self, request, pk: int):
        made = get_object_or_404(RefereeCall.objects.select_related("match"), pk=pk)
        try:
            return Response(calls.call_data(calls.take(made, request.user)))
        except ServiceError as error:
            return _error(error)


class ResolveCallView(IdempotentAPIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(tags=["referee"], request=ResolveSerializer, responses={200: CallSerializer},
                   summary="The referee closes a call: a dispute confirmed or corrected, a plain call attended")
    def post(self, request, pk: int):
        made = get_object_or_404(RefereeCall.objects.select_related("match"), pk=pk)
        data = ResolveSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        try:
            return Response(calls.call_data(calls.resolve(made, request.user, data.validated_data["resolution"])))
        except ServiceError as error:
            return _error(error)


class WithdrawCallView(IdempotentAPIView):
    """The table withdraws its call before a referee answers (``calls.withdraw``)."""

    permission_classes = [IsUserOrTable]

    def table_match_id(self, request) -> int | None:
        return RefereeCall.objects.filter(pk=self.kwargs["pk"]).values_list("match_id", flat=True).first()

    @extend_schema(tags=["referee"], request=None, responses={200: CallSerializer},
                   summary="The table withdraws its call or dispute before a referee answers (the table's link)")
    def post(self, request, pk: int):
        made = get_object_or_404(RefereeCall.objects.select_related("match"), pk=pk)
        try:
            return Response(calls.call_data(calls.withdraw(made, request.user)))
        except ServiceError as error:
            return _error(error)
