"""Creating a player (the one path): the registered text of their club becomes a :class:`Club` and an
open membership; a federation number is unique when given."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import ServiceError

from ..models import Player
from . import clubs


def check_federation_number(number: str, player: Player | None = None) -> str:
    number = " ".join((number or "").split())
    if number:
        same = Player.objects.filter(federation_number=number)
        if player is not None:
            same = same.exclude(pk=player.pk)
        if same.exists():
            raise ServiceError(_("Another player has the federation number %(number)s.") % {"number": number},
                               "federation_number")
    return number


@transaction.atomic
def create_player(*, name: str, nickname: str = "", club: str = "", contact: str = "",
                  federation_number: str = "", entered_by_id: int | None = None) -> Player:
    """A new player; ``club`` is the club's name as typed (found or created by :func:`clubs.club_named`)."""
    player = Player.objects.create(name=name, nickname=nickname, contact=contact, entered_by_id=entered_by_id,
                                   federation_number=check_federation_number(federation_number))
    found = clubs.club_named(club)
    if found is not None:
        clubs.join_club(player, found)
    return player
