"""Who a signed-in user is to the site, where they start and what waits for them.

A user may be an organizer (organizes a tournament; staff and superusers review every
tournament's rulings), a referee (a match or a table is assigned to them) or both; the site's
operators (staff, superusers) also get the Django admin. :func:`summary` reads all of it in one
query, for the header of every page; :func:`start_url` is where the login lands.

This lives on the referee side because it is the only layer that sees tournaments, súmulas and
rulings together (scoring <- tournaments <- referee).
"""
from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse

from events.access import ACTING_ROLES
from events.models import OrganizationMember
from scoring import access
from scoring.models import Match
from tables.models import EntryConflict
from tournaments.models import TableAssignment, Tournament
from tournaments.waiting import count_of

from .models import Appeal, RefereeCall, RefereeInvitation, Ruling


@dataclass(frozen=True)
class Role:
    """What the header and the start page need to know about one user."""

    organizer: bool = False
    referee: bool = False
    operator: bool = False   # staff or superuser: the Django admin
    to_receive: int = 0      # signed súmulas of their tournaments waiting to be received
    escalated: int = 0       # rulings sent up by a referee (art. 26)
    appeals: int = 0         # appeals not decided yet (art. 26)
    open_tables: int = 0     # matches assigned to them as referee and not received yet
    calling: int = 0         # their tables' calls not taken, disputes not resolved, conflicts, claims not ruled on

    @property
    def to_review(self) -> int:
        return self.escalated + self.appeals

    @property
    def organizer_pending(self) -> int:
        return self.to_receive + self.to_review


NOBODY = Role()


def tournaments_of(user):
    """The tournaments an organizer looks after: their own (every one for staff and superusers)."""
    return Tournament.objects.filter(access.operates_site_condition(user) | access.organizes(user, ""))


def summary(user) -> Role:
    """The user's roles and pending counts, in one query."""
    if user is None or not user.is_authenticated or not user.is_active:
        return NOBODY
    cached = getattr(user, "_role_summary", None)  # a page that asked already (the header asks again)
    if cached is not None:
        return cached
    user._role_summary = _summary(user)
    return user._role_summary


def _summary(user) -> Role:
    me = OuterRef("pk")
    operates = access.operates_site_condition(user)
    scope_matches, scope_rulings = access.organizes(user) | operates, access.organizes(user, "match__tournament") | operates
    row = get_user_model().objects.filter(pk=user.pk).annotate(
        organizes=Exists(Tournament.objects.filter(access.organizes(user, ""))),
        member=Exists(OrganizationMember.objects.filter(user=me, role__in=ACTING_ROLES)),  # a club's organizer before
        # its first event (its referees organize nothing)
        refs_match=Exists(Match.objects.filter(referee=me)),
        refs_table=Exists(TableAssignment.objects.filter(referee=me)),
        invited=Exists(RefereeInvitation.objects.filter(user=me)),  # joined by an invitation link
        to_receive=count_of(Match.objects.filter(scope_matches, status=Match.Status.SIGNED,
                                               tournament__isnull=False)),
        escalated=count_of(Ruling.objects.filter(scope_rulings, status=Ruling.Status.ESCALATED)),
        appeals=count_of(Appeal.objects.filter(
            access.organizes(user, "ruling__match__tournament") | operates, decided_at__isnull=True)),
        operator=Exists(get_user_model().objects.filter(operates, pk=user.pk)),
        open_tables=count_of(Match.objects.filter(referee=me).exclude(status=Match.Status.RECEIVED)),
        calls=count_of(RefereeCall.objects.filter(Q(taken_at__isnull=True) | Q(kind="dispute", resolved_at__isnull=True),
                                                match__referee=me)),
        claims=count_of(Ruling.objects.filter(status=Ruling.Status.PROPOSED, match__status=Match.Status.OPEN,
                                            match__referee=me)),
        # a table's phones at odds: pending until that phone chooses or a referee settles it
        conflicts=count_of(EntryConflict.objects.filter(settled_at__isnull=True, match__status=Match.Status.OPEN,
                                                      match__referee=me)),
    ).values("operator", "organizes", "member", "refs_match", "refs_table", "invited", "to_receive", "escalated", "appeals", "open_tables",
             "calls", "claims", "conflicts").first()
    if row is None:
        return NOBODY
    operator = row["operator"]
    organizer = operator or row["organizes"] or row["member"]
    return Role(
        organizer=organizer, referee=row["refs_match"] or row["refs_table"] or row["invited"], operator=operator,
        to_receive=row["to_receive"] if organizer else 0,
        escalated=row["escalated"] if organizer else 0,
        appeals=row["appeals"] if organizer else 0,
        open_tables=row["open_tables"], calling=row["calls"] + row["claims"] + row["conflicts"],
    )


def start_url(user, role: Role | None = None) -> str:
    """Where a user lands after signing in: organizers on their tournaments, referees on their
    tables, everyone else on the public list of tournaments."""
    role = role or summary(user)
    if role.organizer:
        return reverse("organizer-home")
    if role.referee:
        return reverse("referee:tables")
    return reverse("tournaments:home")
