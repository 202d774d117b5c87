"""What waits for the organizer now, per tournament: every count that needs them, each with the one
link where it is handled. "Meus torneios" (``referee.start``) lists it on each tournament's card, the
dashboard under its next step.

This layer counts what it owns: the sign-ups waiting for the organizer's approval (confirmed by both
players, or with a player no link reaches, whom the approval confirms; page "Inscrições pelos jogadores")
and the signed súmulas to receive (the dashboard's matches). What lives higher up (calls to the referee, disputes, the table's phones at odds, late
tables, rulings sent up and appeals, all in ``referee``) comes through :func:`register`: the higher app
registers a provider in its ``AppConfig.ready``, so nothing here imports upward.

Read side only; a fixed number of queries whatever the number of tournaments (plus what providers take).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, Subquery, Value
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import ngettext

from events.models import SignUp, SignUpPlayer
from scoring.models import Match

from .models import Tournament
from .services import signup as signup_rules


@dataclass(frozen=True)
class Waiting:
    """One kind of thing waiting for the organizer: ``key`` (stable, for tests and styles), how many,
    the words with the count in them, and the page where it is handled."""

    key: str
    count: int
    label: str
    url: str
    order: int = 50


#: ``provider(tournaments) -> {tournament id: [Waiting, …]}``, registered by higher apps under a key
Provider = Callable[[list[Tournament]], dict[int, list[Waiting]]]
_providers: dict[str, Provider] = {}


def register(key: str, provider: Provider) -> None:
    """Add what a higher app knows waits for the organizer (a reload registers once: one per key)."""
    _providers[key] = provider


#: a contact a link is mailed to (``signup.email_in``, as far as SQL tells it): the player confirms by themself
EMAIL_LIKE = r"^\s*[^@\s]+@[^@\s]+\.[^@\s]+\s*$"


def to_approve(tournament=None):
    """The sign-ups that wait for the organizer's approval, of ``tournament`` (a tournament, or an ``OuterRef``
    in a subquery): both players confirmed (``signup.state`` APPROVAL), or, not yet expired, every player not
    confirmed is one no link reaches (a phone number, or no mail on this site: ``signup.reachable``), whom
    only the organizer's approval confirms, after speaking to them."""
    unconfirmed = SignUpPlayer.objects.filter(signup=OuterRef("pk"), confirmed_at__isnull=True)
    reached = unconfirmed.filter(contact__regex=EMAIL_LIKE) if signup_rules.mail_on() else unconfirmed.none()
    fresh = Q(created_at__gt=timezone.now() - signup_rules.confirm_within())
    return (SignUp.objects.filter(tournament=tournament, refused_at__isnull=True, pair__isnull=True,
                                  ready_at__isnull=True)
            .filter(~Exists(unconfirmed) | (fresh & ~Exists(reached))))


def count_of(queryset) -> Subquery:
    """A correlated COUNT(*) as a scalar subquery (0 when nothing matches): one column of a row per
    tournament (here, and in ``referee``'s counts)."""
    counted = queryset.order_by().annotate(_one=Value(1)).values("_one").annotate(n=Count("*")).values("n")
    return Coalesce(Subquery(counted[:1], output_field=IntegerField()), 0)


def _own(tournaments: list[Tournament]) -> dict[int, list[Waiting]]:
    """One query: the sign-ups to approve and the signed súmulas, per tournament."""
    if not tournaments:
        return {}
    here = OuterRef("pk")
    rows = Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).annotate(
        approvals=count_of(to_approve(here)),
        signed=count_of(Match.objects.filter(tournament=here, status=Match.Status.SIGNED)),
    ).values_list("pk", "approvals", "signed")
    approvals, signed = {}, {}
    for pk, a, b in rows:
        approvals[pk], signed[pk] = a, b
    out: dict[int, list[Waiting]] = {}
    for t in tournaments:
        items = out.setdefault(t.pk, [])
        n = approvals.get(t.pk, 0)
        if n:
            items.append(Waiting("signups", n, ngettext("%(counter)s sign-up to approve", "%(counter)s sign-ups to approve",
                                                        n) % {"counter": n},
                                 reverse("tournaments:signups", kwargs={"slug": t.slug}), order=10))
        n = signed.get(t.pk, 0)
        if n:
            items.append(Waiting("to_receive", n, ngettext("%(counter)s signed súmula to receive",
                                                           "%(counter)s signed súmulas to receive", n) % {"counter": n},
                                 reverse("tournaments:dashboard", kwargs={"slug": t.slug}) + "#matches", order=70))
    return out


def of_tournaments(tournaments: Iterable[Tournament]) -> dict[int, list[Waiting]]:
    """Every tournament's waiting items, most urgent kind first (an empty list: nothing waits)."""
    tournaments = list(tournaments)
    out = _own(tournaments)
    for provider in _providers.values():
        for pk, items in provider(tournaments).items():
            out.setdefault(pk, []).extend(i for i in items if i.count)
    for items in out.values():
        items.sort(key=lambda i: (i.order, i.key))
    return out


def of_tournament(tournament: Tournament) -> list[Waiting]:
    return of_tournaments([tournament]).get(tournament.pk, [])
