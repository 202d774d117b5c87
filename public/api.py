"""The live pages' change marker through the API: ``GET /api/tournaments/{slug}/version/`` (``public.live``),
with ETag and 304. Public."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.views import APIView

from . import live


class VersionView(APIView):
    """The tournament's change marker (one query): poll it with If-None-Match, 304 while unchanged."""

    permission_classes = [AllowAny]

    @extend_schema(responses={
        200: inline_serializer("TournamentVersion", {
            "version": serializers.CharField(help_text="Changes whenever a public page would change; also the ETag."),
            "changed_at": serializers.DateTimeField(allow_null=True)}),
        304: OpenApiResponse(description="Not modified: the If-None-Match version is current."),
        404: OpenApiResponse(description="No tournament with this slug.")})
    def get(self, request, slug):
        return live.version_response(request, slug)
