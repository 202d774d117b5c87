"""Check-in: the round pairs check in for (the upcoming round), checking a pair in (or every pair at once)
and undoing it.
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from config.errors import Conflict

from ..models import CheckIn, Pair, Round, Tournament
from .base import TournamentError, _actor, _lock_tournament, _pair_of, _require_manager


def _last_generated(tournament: Tournament) -> Round | None:
    return Round.objects.filter(tournament=tournament, generated_at__isnull=False).order_by("-number").first()


def _round_numbered(tournament: Tournament, number: int) -> Round:
    rnd, _created = Round.objects.get_or_create(tournament=tournament, number=number)
    return rnd


def upcoming_round(tournament: Tournament, by) -> Round:
    """The round pairs check in for: the one after the last generated round (created, not paired, if missing)."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        return _upcoming(tournament)


def _upcoming(tournament: Tournament) -> Round:
    last = _last_generated(tournament)
    number = 1 if last is None else last.number + 1
    rnd = _round_numbered(tournament, number)
    if rnd.is_generated:  # a bracket round made ahead of time
        number = (Round.objects.filter(tournament=tournament).aggregate(m=Max("number"))["m"] or 0) + 1
        rnd = _round_numbered(tournament, number)
    return rnd


def check_in(round: Round, pair: Pair | int, by) -> CheckIn:
    """The pair is present for ``round`` (a round not paired yet); checking in twice is refused."""
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.is_generated:
            raise Conflict(_("Round %(number)s is already paired: check in for the next one.")
                           % {"number": rnd.number}, "round")
        pair = _pair_of(tournament, pair, "pair")
        if pair.status == Pair.Status.WITHDRAWN:
            raise Conflict(_("This pair withdrew from the tournament."), "pair")
        if CheckIn.objects.filter(round=rnd, pair=pair).exists():
            raise Conflict(_("This pair is already checked in for this round."), "pair")
        return CheckIn.objects.create(round=rnd, pair=pair, checked_in_by=_actor(by))


def check_in_all(round: Round, by) -> list[CheckIn]:
    """Every confirmed pair not checked in yet is present for ``round`` (a round not paired yet): the door's
    "all present" in one tap; a pair already checked in keeps its check-in, a withdrawn or pending one is left
    out. Returns the check-ins made."""
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.is_generated:
            raise Conflict(_("Round %(number)s is already paired: check in for the next one.")
                           % {"number": rnd.number}, "round")
        present = CheckIn.objects.filter(round=rnd).values_list("pair_id", flat=True)
        pairs = (Pair.objects.filter(tournament=tournament, status=Pair.Status.CONFIRMED)
                 .exclude(pk__in=list(present)).order_by("pk"))
        actor = _actor(by)
        return CheckIn.objects.bulk_create([CheckIn(round=rnd, pair=pair, checked_in_by=actor) for pair in pairs])


def undo_check_in(round: Round, pair: Pair | int, by, *, check_in: int | str | None = None) -> None:
    """Remove a check-in of a round not paired yet. ``check_in`` (the pages send it): the id of the
    check-in this undo removes; another one (undone and done again from another device since) is
    refused, not removed."""
    with transaction.atomic():
        tournament = _lock_tournament(round.tournament_id)
        _require_manager(by, tournament)
        rnd = Round.objects.get(pk=round.pk)
        if rnd.is_generated:
            raise Conflict(_("Round %(number)s is already paired.") % {"number": rnd.number}, "round")
        pair = _pair_of(tournament, pair, "pair")
        current = CheckIn.objects.filter(round=rnd, pair=pair)
        named = None if check_in in (None, "") else str(check_in)
        if named is not None and current.exists() and not (named.isdigit() and current.filter(pk=int(named)).exists()):
            raise Conflict(_("The check-in was done again from another device since (%(pair)s): look at the list again.")
                           % {"pair": pair.name}, "check_in")
        deleted, _rows = current.delete()
        if not deleted:
            raise TournamentError(_("This pair is not checked in for this round."), "pair")
