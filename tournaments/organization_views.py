"""``/organizacoes/``: the clubs and federations the signed-in account acts for, their members (added by login,
as administrators, organizers or referees, and removed by the organization's administrators), and a new club. Rules in ``events.organizations``; who may
do what in ``events.access`` (docs/security.md, "Many clubs on one site")."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from config.errors import Forbidden, ServiceError
from events import access, organizations
from events.models import Organization, OrganizationMember


def _back():
    return redirect("tournaments:organizations")


def _run(request, call, done: str):
    try:
        call()
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, done)
    return _back()


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def organizations_page(request):
    user = request.user
    if request.method == "POST":  # a new club or federation, its creator its administrator
        name = request.POST.get("name", "")
        return _run(request, lambda: organizations.create_organization(
            user, name=name, kind=request.POST.get("kind") or Organization.Kind.CLUB),
            _("%(name)s created: you are its administrator.") % {"name": " ".join(name.split())})
    # the organizations it acts for (its referees' clubs show nothing: a referee acts for none)
    mine = (Organization.objects.filter(members__user=user, members__role__in=access.ACTING_ROLES).distinct()
            .prefetch_related("members__user").order_by("name", "pk"))
    operator = access.operates_site(user)
    rows = []
    for o in mine:  # the members are prefetched: whether this account administers each is read from them
        members = sorted(o.members.all(), key=lambda m: (m.role != "admin", m.user.get_username()))
        admin = operator or any(m.user_id == user.pk and m.role == OrganizationMember.Role.ADMIN for m in members)
        rows.append({"organization": o, "admin": admin, "members": members})
    return render(request, "tournaments/organizations.html", {
        "rows": rows, "kinds": Organization.Kind.choices, "roles": OrganizationMember.Role.choices})


@login_required
@require_POST
def add_member(request, pk: int):
    organization = get_object_or_404(Organization, pk=pk)
    username = request.POST.get("username", "").strip()
    role = request.POST.get("role") or "organizer"
    done = (_("%(login)s now referees the tables of %(name)s (and acts for nothing of it).")
            if role == OrganizationMember.Role.REFEREE else _("%(login)s now acts for %(name)s."))
    return _run(request, lambda: organizations.add_member(organization, request.user, username=username, role=role),
                done % {"login": username, "name": organization.name})


@login_required
@require_POST
def remove_member(request, pk: int, member: int):
    row = get_object_or_404(OrganizationMember.objects.select_related("user", "organization"),
                            pk=member, organization_id=pk)
    return _run(request, lambda: organizations.remove_member(row, request.user),
                _("%(login)s no longer acts for %(name)s.") % {"login": row.user.get_username(),
                                                               "name": row.organization.name})
