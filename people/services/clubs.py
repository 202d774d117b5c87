"""Clubs and who plays for them: a club found by its name as people write it, and a
player's membership history (from/to), of which the open one is ``Player.club``."""
from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import ServiceError

from ..models import Club, ClubMembership, Player
from ..operators import operates_site
from ..names import plain_name


def club_named(name: str, city: str = "", *, create: bool = True) -> Club | None:
    """The club called ``name`` (compared as :func:`people.names.plain_name`: "Clube  do Trúco" is
    "clube do truco"), preferring one in ``city``; a new one when none and ``create``. ``""`` is no club."""
    name = " ".join((name or "").split())
    if not name:
        return None
    wanted = plain_name(name)
    found = list(Club.objects.filter(name__iexact=name))
    if not found:  # accents or spaces differ: compare every club's plain name (clubs are few)
        found = [club for club in Club.objects.only("pk", "name", "city") if plain_name(club.name) == wanted]
    if found:
        in_city = [club for club in found if plain_name(club.city) == plain_name(city)]
        return sorted(in_city or found, key=lambda club: club.pk)[0]
    if not create:
        return None
    return Club.objects.create(name=name[:120], city=" ".join(city.split())[:120])


@transaction.atomic
def join_club(player: Player, club: Club | None, on: datetime.date | None = None) -> Player:
    """``player`` plays for ``club`` from ``on`` (today): the open membership ends the day before, a new
    one opens, and ``Player.club`` follows; ``None`` leaves the current club. Nothing when unchanged."""
    on = on or timezone.localdate()
    if (club.pk if club else None) == player.club_id:
        return player
    current = ClubMembership.objects.select_for_update().filter(player=player, until__isnull=True).first()
    if current is not None:
        if current.since is not None and current.since > on:
            raise ServiceError(_("The player joined %(club)s on %(date)s: a new club starts after that.")
                               % {"club": current.club.name, "date": current.since.isoformat()}, "since")
        current.until = max(on - datetime.timedelta(days=1), current.since or datetime.date.min)
        current.save(update_fields=["until"])
    if club is not None:
        ClubMembership.objects.create(player=player, club=club, since=on)
    player.club = club
    player.save(update_fields=["club"])
    return player


def history(player: Player) -> list[ClubMembership]:
    """The player's clubs, oldest first (memberships of unknown start first)."""
    return sorted(ClubMembership.objects.filter(player=player).select_related("club"),
                  key=lambda m: (m.since is not None, m.since or datetime.date.min, m.pk))


def manages(user, club: Club) -> bool:
    """A club's organizers (and site operators) manage its roster."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    return operates_site(user) or club.organizers.filter(pk=user.pk).exists()
