"""Whose players an organizer may use, and whose contacts they may read.

An organizer brings an existing player into a tournament by id only when the player already
played in one of that organizer's tournaments, or when the player consents by giving their PIN
(``{"id": 12, "pin": "..."}``, checked and counted by ``scoring.pins`` like any PIN). A new
player given by name and contact is matched only against that organizer's own players;
otherwise a new player is made. A player's contact is shown only to the organizer who entered
it (and to site operators).
"""
from __future__ import annotations

from django.db.models import Q
from django.utils.translation import gettext as _

from config.errors import Forbidden

from .models import Pair, Player, Tournament


def _same_organizer(tournament: Tournament) -> Q:
    if tournament.organizer_id is None:
        return Q(tournament__organizer__isnull=True)
    return Q(tournament__organizer_id=tournament.organizer_id)


def known_player_ids(tournament: Tournament) -> set[int]:
    """Players of any pair in a tournament of ``tournament``'s organizer."""
    ids: set[int] = set()
    for row in Pair.objects.filter(_same_organizer(tournament)).values_list(
            "first_player_id", "second_player_id", "substitute_id"):
        ids.update(i for i in row if i)
    return ids


def require_use(tournament: Tournament, player: Player, pin: object, field: str) -> None:
    """Refuse a player given by id that this organizer does not know, unless their PIN consents."""
    if pin is None and player.pk in known_player_ids(tournament):
        return
    if pin:
        from scoring import pins

        outcome = pins.verify(player, client=f"organizer:{tournament.organizer_id}", pin=str(pin))
        if outcome.ok:
            return
        raise Forbidden(outcome.why, f"{field}.pin")
    raise Forbidden(_("Player %(id)s never played in your tournaments: register them by name and contact, or "
                      "give their id with their PIN (the player consents).") % {"id": player.pk}, field)


def consents(tournament: Tournament, by, data: dict) -> set[int]:
    """Check the PINs of players given as ``{"id", "pin"}`` (in their own transaction, so failures stay
    counted); return the ids that consented. Only the tournament's managers get to try."""
    from scoring import access

    asked = {key: value for key, value in data.items()
             if key in ("first_player", "second_player", "substitute") and isinstance(value, dict) and "id" in value}
    if not asked:
        return set()
    if not access.manages(by, tournament):
        raise Forbidden(_("Only the tournament's organizer registers its pairs."))
    consented = set()
    for key, value in asked.items():
        player = Player.objects.filter(pk=value["id"]).first() if type(value["id"]) is int else None
        if player is None:
            continue  # clean_registration names the field
        require_use(tournament, player, value.get("pin") or "", key)
        consented.add(player.pk)
    return consented


def same_person(tournament: Tournament, name: str, contact: str) -> Player | None:
    """This organizer's player with ``name`` and ``contact`` (the same person registered again)."""
    return (Player.objects.filter(name__iexact=name, contact=contact, pk__in=known_player_ids(tournament))
            .order_by("pk").first())


def contact_visible(player: Player, user) -> bool:
    """Only who entered a contact (or a site operator) reads it; older rows: the managers, as before."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or user.is_superuser:
        return True
    return player.entered_by_id is None or player.entered_by_id == user.pk
