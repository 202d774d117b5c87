"""Creating a match between two pairs (a friendly, or a tournament match created by its organizer or
by the tournament's services).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from config.errors import Forbidden
from referee.engine.errors import ReportError
from referee.engine.rules import rule_set_from

from .. import access
from ..models import Game, Match, MatchEvent
from .base import ScoringError, _check_seat, _engine_error, _event, _is_user

MAX_TABLE = 32767  # the column holds a small integer


def check_new_match(*, pair_a, pair_b, by, tournament=None, round=None, table: int | None = None,
                    best_of: int | None = None, rule_set: dict | None = None, first_dealer: int = 0,
                    **_ignored) -> dict:
    """Validate a new match without writing; return the normalized fields (``tournament``, ``rules``,
    ``best_of``). Raises :class:`ScoringError` naming the field.

    ``pair_a``, ``pair_b``, ``tournament`` and ``round`` are the rows the caller passes (the models
    ``Match``'s foreign keys point to); scoring reads only their ``pk``, ``name``, ``tournament_id``,
    ``rule_set`` and ``best_of`` and never imports the app that owns them (docs/architecture.md)."""
    if tournament is None and round is not None:
        tournament = round.tournament
    if not access.can_create(by, tournament):
        raise Forbidden(_("Only the tournament's organizer creates its matches."), "tournament")
    if pair_a.pk == pair_b.pk:
        raise ScoringError(_("A match is played between two different pairs."), "pair_b")
    if tournament is not None:
        for field, pair in (("pair_a", pair_a), ("pair_b", pair_b)):
            if pair.tournament_id != tournament.pk:
                raise ScoringError(_("The pair %(pair)s is not registered in %(tournament)s.")
                                   % {"pair": pair.name, "tournament": tournament.name}, field)
    if round is not None and round.tournament_id != tournament.pk:
        raise ScoringError(_("Round %(round)s belongs to another tournament.") % {"round": round.number}, "round")
    if table is not None and (type(table) is not int or not 1 <= table <= MAX_TABLE):
        raise ScoringError(_("Tables are numbered from 1 to %(max)s.") % {"max": MAX_TABLE}, "table")
    if rule_set is None:
        rule_set = tournament.rule_set if tournament is not None else None
    try:
        rules = rule_set_from(rule_set, "rule_set")
    except ReportError as error:
        raise _engine_error(error) from None
    if best_of is None:
        best_of = tournament.best_of if tournament is not None else 1
    if best_of not in (1, 3, 5):
        raise ScoringError(_("A match is played to the best of 1, 3 or 5 games."), "best_of")
    _check_seat(first_dealer, "first_dealer")
    return {"tournament": tournament, "rules": rules, "best_of": best_of}


def create_match(*, pair_a, pair_b, by, tournament=None, round=None, table: int | None = None, referee=None,
                 best_of: int | None = None, rule_set: dict | None = None, first_dealer: int = 0) -> Match:
    """A new match. Tournament matches take the tournament's rule set and format; their pairs must be
    registered in that tournament. Friendlies (no tournament) may use any two pairs."""
    checked = check_new_match(pair_a=pair_a, pair_b=pair_b, by=by, tournament=tournament, round=round,
                              table=table, best_of=best_of, rule_set=rule_set, first_dealer=first_dealer)
    with transaction.atomic():
        match = Match.objects.create(
            tournament=checked["tournament"], round=round, table=table, referee=referee, pair_a=pair_a,
            pair_b=pair_b, rule_set=checked["rules"].as_dict(), best_of=checked["best_of"],
            created_by=by if _is_user(by) else None,
        )
        Game.objects.create(match=match, number=1, first_dealer=first_dealer)
        _event(match, MatchEvent.Kind.CREATED, by, pair_a=pair_a.pk, pair_b=pair_b.pk, best_of=match.best_of,
               rules=match.rule_set)
    return match
