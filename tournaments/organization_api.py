"""The organizations in the API, mounted at ``/api/organizations/``: read only.

- ``GET /api/organizations/``: the organizations (clubs, federations) the caller acts for, with the caller's
  role in each (``admin`` or ``organizer``), by ``events.access.organization_ids``: a referee member acts for
  none, an anonymous caller is refused (401/403), a site operator lists those it is a member of like anyone.
  A tournament's own organization is on the tournament (``GET /api/tournaments/<slug>/``: ``organization``).
"""
from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from events import access
from events.models import Organization, OrganizationMember


class OrganizationSerializer(serializers.ModelSerializer):
    role = serializers.SerializerMethodField(help_text="The caller's role in it: admin or organizer.")

    class Meta:
        model = Organization
        fields = ["id", "name", "slug", "kind", "role"]
        read_only_fields = fields

    def get_role(self, obj: Organization) -> str:
        return self.context["roles"].get(obj.pk, "")


class OrganizationListView(GenericAPIView):
    """The organizations the caller acts for."""

    permission_classes = [permissions.IsAuthenticated]
    serializer_class = OrganizationSerializer
    pagination_class = None

    @extend_schema(responses=OrganizationSerializer(many=True))
    def get(self, request):
        ids = access.organization_ids(request.user)
        roles = dict(OrganizationMember.objects.filter(user=request.user, organization_id__in=ids,
                                                       role__in=access.ACTING_ROLES)
                     .order_by("-role").values_list("organization_id", "role"))  # "admin" comes last: it wins
        organizations = Organization.objects.filter(pk__in=ids).order_by("name", "pk")
        return Response(OrganizationSerializer(organizations, many=True, context={"roles": roles}).data)


app_name = "organizations-api"
urlpatterns = [path("", OrganizationListView.as_view(), name="list")]
