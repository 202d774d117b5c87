"""Players' signing PINs without the admin: issued when a pair is registered (form and
CSV), printed on the pair cards, reset by the organizer, changed by the player at the table.

Only the hash is kept (``Player.pin_hash``, Django's password hashers): a PIN is shown once, when
it is issued, on the page or the pair cards PDF that issues it. Verifying a PIN is not done here
(``Player.check_pin`` behind the signing and referee services, with their lockout).
"""
from __future__ import annotations

import re
import secrets

from django.contrib.auth.hashers import PBKDF2PasswordHasher, get_hashers_by_algorithm, make_password
from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden, ServiceError

from events import access
from people.services import merges

from .models import Pair, Player

PIN_DIGITS = 6  # an issued PIN (the pair card's)
PIN_MIN, PIN_MAX = 4, 8  # a PIN the player chooses at the table; every form and doc says the same
PIN_RE = re.compile(rf"^\d{{{PIN_MIN},{PIN_MAX}}}$")


def new_pin() -> str:
    return f"{secrets.randbelow(10 ** PIN_DIGITS):0{PIN_DIGITS}d}"


class PinHasher(PBKDF2PasswordHasher):
    """PBKDF2 with fewer rounds for PINs: a 6-digit PIN's strength is the signing lockout, not the hash's
    cost, and a tournament issues 400 of them at once (the default costs ~0.2 s each)."""

    algorithm = "pbkdf2_pin"
    iterations = 50_000


def _hash(pin: str) -> str:
    hasher = get_hashers_by_algorithm().get(PinHasher.algorithm)  # registered in settings.PASSWORD_HASHERS
    return make_password(pin, hasher=hasher) if hasher else make_password(pin)


def issue_pins(players, only_missing: bool = False) -> dict[int, str]:
    """Give each player a new PIN; ``{player_id: pin}`` (the only time the PINs are seen)."""
    issued = {}
    with transaction.atomic():
        for player in players:
            if only_missing and player.has_pin:
                continue
            pin = new_pin()
            player.pin_hash = _hash(pin)
            player.save(update_fields=["pin_hash"])
            issued[player.pk] = pin
    return issued


def pair_players(pair: Pair) -> list[Player]:
    players = [pair.first_player, pair.second_player]
    if pair.substitute_id:
        players.append(pair.substitute)
    return players


def issue_for_pairs(pairs, only_missing: bool = False) -> dict[int, str]:
    """PINs for every player of ``pairs`` (partners and substitutes)."""
    players = {p.pk: p for pair in pairs for p in pair_players(pair)}
    return issue_pins(players.values(), only_missing=only_missing)


def reset_pin(tournament, player: Player, by) -> str:
    """The organizer gives a player of the tournament a new PIN (lost or forgotten); the new PIN."""
    if not access.manages(by, tournament):
        raise Forbidden(_("Only the tournament's organizer resets a player's PIN."))
    if not Pair.objects.filter(tournament=tournament).filter(
            first_player=player).exists() and not Pair.objects.filter(tournament=tournament).filter(
            second_player=player).exists() and not Pair.objects.filter(tournament=tournament,
                                                                       substitute=player).exists():
        raise ServiceError(_("%(player)s plays in no pair of this tournament.") % {"player": player.name}, "player")
    if not access.acts_alone_on(by, merges.person_ids(player)):
        raise Forbidden(_("%(player)s also plays in another organization's event that is not over: a new PIN "
                          "would stop their card there. The player changes it with the current one, or a site "
                          "operator resets it.") % {"player": player.name}, "player")
    return issue_pins([player])[player.pk]


def set_own_pin(player: Player, new: str) -> None:
    """A player's new PIN, once the caller verified the current one (4 to 8 digits)."""
    new = (new or "").strip()
    if not PIN_RE.match(new):
        raise ServiceError(_("A PIN has 4 to 8 digits."), "new")
    player.pin_hash = _hash(new)
    player.save(update_fields=["pin_hash"])
