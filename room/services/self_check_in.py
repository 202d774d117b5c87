"""Self check-in (the room, docs/room.md): at the start of the day a pair checks itself in from its page (the pair
card's QR code) with one of its players' PIN — "chegamos" — feeding the same check-in as the organizer's
(``tournaments.services.check_in``), who can still check pairs in and out by hand.

The PIN is the credential (the pair's page is public): checked by ``scoring.pins.verify`` with its
lockouts per device, so guessing is useless and no stranger can lock a player out. A second tap does
its work once (the existing check-in is answered). Only while the tournament asks for check-in and
the round the pairs check in for is not paired yet.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Conflict
from scoring import pins as pin_checks

from tournaments.models import CheckIn, Pair, Round, Tournament
from tournaments.pins import pair_players
from tournaments.services.base import TournamentError, _lock_tournament
from tournaments.services.check_in import _last_generated, _upcoming


@dataclass(frozen=True)
class SelfCheckIn:
    open: bool  # the pair may check itself in now
    done: bool  # already checked in for the round
    round_number: int | None


def state(tournament: Tournament, pair: Pair) -> SelfCheckIn:
    """What the pair's page offers (read only: no round is created here)."""
    if not tournament.check_in_required or pair.status != Pair.Status.CONFIRMED:
        return SelfCheckIn(False, False, None)
    last = _last_generated(tournament)
    number = 1 if last is None else last.number + 1
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is not None and rnd.is_generated:
        return SelfCheckIn(False, False, None)
    done = rnd is not None and CheckIn.objects.filter(round=rnd, pair=pair).exists()
    return SelfCheckIn(not done, done, number)


def self_check_in(tournament: Tournament, pair: Pair, player_id: object, pin: object, *, client: str) -> CheckIn:
    """The pair checks itself in for the upcoming round with one of its players' PIN."""
    players = {p.pk: p for p in pair_players(pair)}
    if not isinstance(player_id, int) or player_id not in players:
        raise TournamentError(_("Choose one of the pair's players."), "player")
    if pair.status != Pair.Status.CONFIRMED:
        raise Conflict(_("Only a confirmed pair checks in."), "pair")
    if not tournament.check_in_required:
        raise Conflict(_("This tournament does not ask for check-in."), "pair")
    outcome = pin_checks.verify(players[player_id], client=client, pin=str(pin or ""), purpose="check_in")
    if not outcome.ok:
        raise TournamentError(outcome.why, "pin")
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        rnd = _upcoming(tournament)
        existing = CheckIn.objects.filter(round=rnd, pair=pair).first()
        if existing is not None:
            return existing
        return CheckIn.objects.create(round=rnd, pair=pair, checked_in_by=None)
