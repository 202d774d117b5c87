"""Tables: assigning a referee to a table (for one round or the whole tournament), kept in step with
the matches' referee. Who may be one is ``referees`` (the one rule).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.models import Match

from ..models import AuditEntry, Round, TableAssignment, Tournament
from . import referees
from .base import TournamentError, _audit, _int, _lock_tournament, _require_manager
from .writing import _referees


def assign_referee(tournament: Tournament, by, *, table: int, referee, round: Round | None = None
                   ) -> TableAssignment | None:
    """Make ``referee`` (a user, or ``None`` to clear) the referee of ``table`` for every round, or
    for ``round`` only (which wins over the tournament-wide assignment). Matches at that table
    that are not signed yet take the new referee. ``referee`` must be one of the tournament's people
    (:func:`referees.may_referee`), else ``TournamentError`` on ``referee``."""
    table = _int(table, "table", minimum=1, maximum=10_000)
    with transaction.atomic():
        tournament = _lock_tournament(tournament)
        _require_manager(by, tournament)
        if round is not None and round.tournament_id != tournament.pk:
            raise TournamentError(_("Round %(number)s belongs to another tournament.") % {"number": round.number},
                                  "round")
        if referee is not None and not (getattr(referee, "pk", None) and getattr(referee, "is_active", False)):
            raise TournamentError(_("The referee is an active user."), "referee")
        if referee is not None and not referees.may_referee(tournament, referee):
            raise referees.refusal()
        current = TableAssignment.objects.filter(tournament=tournament, table=table, round=round).first()
        before = current.referee_id if current else None
        assignment = None
        if referee is None:
            if current is not None:
                current.delete()
        elif current is None:
            assignment = TableAssignment.objects.create(tournament=tournament, table=table, round=round,
                                                        referee=referee)
        else:
            current.referee = referee
            current.save(update_fields=["referee"])
            assignment = current
        matches = Match.objects.filter(tournament=tournament, table=table, status=Match.Status.OPEN,
                                       tournament_result__isnull=True)
        if round is not None:
            matches = matches.filter(round=round)
        else:
            own = TableAssignment.objects.filter(tournament=tournament, table=table, round__isnull=False)
            matches = matches.exclude(round__in=own.values("round"))
        for match in matches.select_related("round"):
            match.referee_id = _referees(tournament, match.round).get(table)
            match.save(update_fields=["referee", "updated_at"])
        _audit(tournament, by, AuditEntry.Action.REFEREE_ASSIGNED, round=round,
               before={"table": table, "referee": before},
               after={"table": table, "referee": referee.pk if referee is not None else None})
        return assignment
