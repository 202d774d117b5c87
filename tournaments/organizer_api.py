"""The organizer's controls of a tournament's people through the API (mounted at /api/tournaments/, in
the OpenAPI schema), the same as the pages ``painel/inscricoes/`` and ``painel/organizadores/``:

- ``GET signups/``: the sign-up options and every sign-up with its players (contacts included: the
  organizers' list) and state; ``GET``/``PUT signups/options/``: open, the limit of pairs, the waiting
  list, the deadline, approval asked; ``POST signups/<id>/approve/`` and ``POST signups/<id>/refuse/``
  (``{"reason"}``, required);
- ``GET organizers/``: the organizer, the co-organizers and the invitation links (never their token);
  ``POST organizers/`` (``{"username"}``) adds a co-organizer; ``DELETE organizers/<user id>/`` removes
  one (a co-organizer may remove themselves); ``POST organizers/invitations/`` makes a one-use link,
  its address in the answer once; ``POST organizers/invitations/<id>/revoke/``.

Who may: whoever manages the tournament (``events.access.manages``: its organizer, co-organizers,
its organization's acting members, an operator), checked by the base view and again by every service
(``tournaments.services.signup``, ``tournaments.services.organizers``), which also audit each change.
Every endpoint answers 403 to anyone else, reads included (contacts are personal data).
"""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from config.api import INT_LIMIT
from scoring import site

from .api import TournamentAPIView, _errors
from .models import CoOrganizer, OrganizerInvitation, SignUp
from .services import organizers
from .services import signup_review as signups

STATES = ("refused", "registered", "withdrawn", "waiting", "approval", "confirmation", "expired")


class SignUpOptionsSerializer(serializers.Serializer):
    open = serializers.BooleanField(help_text="The public page takes sign-ups.")
    pair_limit = serializers.IntegerField(min_value=2, max_value=10_000, allow_null=True,
                                          help_text="Pairs at most (null: no limit).")
    waiting_list = serializers.BooleanField(help_text="Past the limit, sign-ups wait for a place.")
    deadline = serializers.DateTimeField(allow_null=True)
    approval_required = serializers.BooleanField(help_text="A sign-up waits for an organizer's approval.")


class SignUpPlayerSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    name = serializers.CharField()
    nickname = serializers.CharField()
    club = serializers.CharField()
    contact = serializers.CharField(help_text="Personal data: shown to the tournament's organizers only.")
    player = serializers.IntegerField(allow_null=True, help_text="The registered player linked, if any.")
    namesake = serializers.BooleanField(help_text="Named like a registered player: the organizer decides.")
    confirmed_at = serializers.DateTimeField(allow_null=True)
    reachable = serializers.BooleanField(help_text="The confirmation link was mailed to the player.")


class SignUpSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    pair_name = serializers.CharField()
    state = serializers.ChoiceField(choices=STATES)
    created_at = serializers.DateTimeField()
    approved_at = serializers.DateTimeField(allow_null=True)
    refused_at = serializers.DateTimeField(allow_null=True)
    refusal_reason = serializers.CharField()
    pair = serializers.IntegerField(allow_null=True, help_text="The pair registered from it.")
    waiting_place = serializers.IntegerField(allow_null=True, help_text="Its place on the waiting list.")
    players = SignUpPlayerSerializer(many=True)


class SignUpListSerializer(serializers.Serializer):
    options = SignUpOptionsSerializer()
    signups = SignUpSerializer(many=True)


class RefusalSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300)


class UsernameSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)


class PersonSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()


class CoOrganizerSerializer(serializers.Serializer):
    user = PersonSerializer()
    added_by = PersonSerializer(allow_null=True)
    added_at = serializers.DateTimeField()


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    used_at = serializers.DateTimeField(allow_null=True)
    used_by = PersonSerializer(allow_null=True)
    revoked_at = serializers.DateTimeField(allow_null=True)
    pending = serializers.BooleanField(help_text="Not used, not revoked, not expired.")


class NewInvitationSerializer(InvitationSerializer):
    url = serializers.CharField(help_text="The link, shown this once (only its hash is kept).")


class OrganizersSerializer(serializers.Serializer):
    organizer = PersonSerializer()
    co_organizers = CoOrganizerSerializer(many=True)
    invitations = InvitationSerializer(many=True)


def _person(user) -> dict | None:
    return None if user is None else {"id": user.pk, "username": user.get_username()}


def _options(options) -> dict:
    return {"open": options.open, "pair_limit": options.pair_limit, "waiting_list": options.waiting_list,
            "deadline": options.deadline, "approval_required": options.approval_required}


def _signup(row: SignUp) -> dict:
    entries = getattr(row, "entries", None) or list(row.players.all())
    return {"id": row.pk, "pair_name": row.pair_name, "state": getattr(row, "state", None) or signups.state(row),
            "created_at": row.created_at, "approved_at": row.approved_at, "refused_at": row.refused_at,
            "refusal_reason": row.refusal_reason, "pair": row.pair_id,
            "waiting_place": getattr(row, "waiting_place", None),
            "players": [{"position": e.position, "name": e.name, "nickname": e.nickname, "club": e.club,
                         "contact": e.contact, "player": e.player_id, "namesake": e.namesake,
                         "confirmed_at": e.confirmed_at, "reachable": signups.reachable(e)} for e in entries]}


def _invitation(row: OrganizerInvitation, now) -> dict:
    return {"id": row.pk, "created_at": row.created_at, "expires_at": row.expires_at, "used_at": row.used_at,
            "used_by": _person(row.used_by), "revoked_at": row.revoked_at,
            "pending": row.used_at is None and row.revoked_at is None and row.expires_at > now}


def _id(value: int) -> int:
    """An id from the path, within a database's integer (a larger one names nothing: 404)."""
    if not 1 <= value <= INT_LIMIT:
        raise Http404(_("No such id in this tournament."))
    return value


class OrganizerView(TournamentAPIView):
    """Base: every method, reads included, for whoever manages the tournament."""

    organizer_only = True
    pagination_class = None


# ------------------------------------------------------------------------------------------ sign-ups


class SignUpListView(OrganizerView):
    """The sign-up options and every sign-up, waiting ones with their place (organizers only)."""

    serializer_class = SignUpListSerializer

    @extend_schema(responses={200: SignUpListSerializer, **_errors(403, 404)})
    def get(self, request, slug):
        tournament = self.get_tournament()
        return Response({"options": _options(signups.options_of(tournament)),
                         "signups": [_signup(row) for row in signups.signups_of(tournament)]})


class SignUpOptionsView(OrganizerView):
    """The public sign-up's options; PUT saves them all (a raised limit fills places from the waiting list)."""

    serializer_class = SignUpOptionsSerializer

    @extend_schema(responses={200: SignUpOptionsSerializer, **_errors(403, 404)})
    def get(self, request, slug):
        return Response(_options(signups.options_of(self.get_tournament())))

    @extend_schema(request=SignUpOptionsSerializer,
                   responses={200: SignUpOptionsSerializer, **_errors(400, 403, 404, 409)})
    def put(self, request, slug):
        options = signups.configure_signup(self.get_tournament(), request.user, **self.read(SignUpOptionsSerializer))
        return Response(_options(options))


class SignUpDecisionView(OrganizerView):
    serializer_class = SignUpSerializer

    def signup(self) -> SignUp:
        return get_object_or_404(SignUp, pk=_id(self.kwargs["signup_id"]), tournament=self.get_tournament())


class SignUpApproveView(SignUpDecisionView):
    """Approve a sign-up (registered once both players confirmed and a place is free; a player the link could
    not reach is confirmed by the approval). Approving twice changes nothing; a refused or expired one is 409."""

    @extend_schema(request=None, responses={200: SignUpSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug, signup_id):
        row = signups.approve(self.signup(), request.user)
        return Response(_signup(SignUp.objects.select_related("pair").get(pk=row.pk)))


class SignUpRefuseView(SignUpDecisionView):
    """Refuse a sign-up not registered yet, with a reason (shown on its players' links)."""

    @extend_schema(request=RefusalSerializer, responses={200: SignUpSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug, signup_id):
        signup = self.signup()
        row = signups.refuse(signup, request.user, self.read(RefusalSerializer)["reason"])
        return Response(_signup(SignUp.objects.select_related("pair").get(pk=row.pk)))


# ------------------------------------------------------------------------------------- co-organizers


def _organizers(tournament) -> dict:
    now = timezone.now()
    rows = CoOrganizer.objects.filter(tournament=tournament).select_related("user", "added_by").order_by("added_at", "pk")
    invitations = (OrganizerInvitation.objects.filter(tournament=tournament).select_related("used_by")
                   .order_by("-created_at", "-pk")[:50])
    return {"organizer": _person(tournament.organizer),
            "co_organizers": [{"user": _person(r.user), "added_by": _person(r.added_by), "added_at": r.added_at}
                              for r in rows],
            "invitations": [_invitation(r, now) for r in invitations]}


class OrganizerListView(OrganizerView):
    """The organizer, the co-organizers and the invitation links (the last 50); POST adds a co-organizer
    by login (an account must exist: else invite by link)."""

    serializer_class = UsernameSerializer

    @extend_schema(responses={200: OrganizersSerializer, **_errors(403, 404)})
    def get(self, request, slug):
        return Response(_organizers(self.get_tournament()))

    @extend_schema(request=UsernameSerializer, responses={201: OrganizersSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug):
        tournament = self.get_tournament()
        organizers.add_co_organizer(tournament, request.user, self.read(UsernameSerializer)["username"])
        return Response(_organizers(tournament), status=status.HTTP_201_CREATED)


class OrganizerDetailView(OrganizerView):
    """Remove a co-organizer (a co-organizer may remove themselves; the tournament's organizer stays)."""

    serializer_class = PersonSerializer

    @extend_schema(responses={204: None, **_errors(400, 403, 404)})
    def delete(self, request, slug, user_id):
        organizers.remove_co_organizer(self.get_tournament(), request.user, _id(user_id))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InvitationListView(OrganizerView):
    """A new one-use invitation link (for ``ORGANIZER_INVITATION_DAYS``): its address is in this answer only."""

    serializer_class = NewInvitationSerializer

    @extend_schema(request=None, responses={201: NewInvitationSerializer, **_errors(403, 404)})
    def post(self, request, slug):
        invitation, token = organizers.invite(self.get_tournament(), request.user)
        url = site.absolute(reverse("tournaments:organizer-invitation", kwargs={"token": token}), request)
        return Response({**_invitation(invitation, timezone.now()), "url": url}, status=status.HTTP_201_CREATED)


class InvitationRevokeView(OrganizerView):
    """Revoke an invitation link not used yet (revoking twice changes nothing)."""

    serializer_class = InvitationSerializer

    @extend_schema(request=None, responses={200: InvitationSerializer, **_errors(403, 404)})
    def post(self, request, slug, invitation_id):
        invitation = get_object_or_404(OrganizerInvitation.objects.select_related("tournament", "used_by"),
                                       pk=_id(invitation_id), tournament=self.get_tournament())
        organizers.revoke_invitation(invitation, request.user)
        invitation.refresh_from_db()
        return Response(_invitation(invitation, timezone.now()))
