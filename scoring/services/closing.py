"""A súmula closed by a decision taken above it: a W.O., a pair disqualified or withdrawn (art. 26).

The tournament decides the match without its súmula and tells scoring, through :func:`close_sumulas`, to
close it: its table links close (``table_links.close_all``: a table is told the match went by W.O.) and
the audit trail records why (a ``closed`` event with the cause, the absent team and the reason). From
then on nothing enters the súmula — no hand, penalty, undo, correction, claim nor ruling — and each of
those is refused by :func:`closed_refusal` naming the cause, the pair and the rule. The closure holds
while the match is closed by W.O. (``table_links.walkover_ids``): a pair reinstated reopens its matches
(``table_links.reopen``) and the súmula takes entries again.

Scoring knows nothing of results or pairs' standing (docs/architecture.md): the tournaments layer passes
the cause, the absent team and the reason.
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from config.errors import Conflict

from tables import links as table_links
from tables.models import TableLink

from ..models import Match, MatchEvent
from .base import event_row

#: why a súmula is closed by a decision taken above it; ``team_decided``: its team match was decided without
#: it (the event's team rule, art. 26: the first team to K games wins at once)
CAUSES = ("walkover", "disqualification", "withdrawal", "team_decided")


def close_sumulas(closures, by) -> None:
    """Close each match's súmula: ``closures`` is ``[(match, cause, absent_team, reason), ...]`` with
    ``cause`` one of :data:`CAUSES`, ``absent_team`` 0, 1 or None (both absent: a double W.O.)."""
    closures = list(closures)
    if not closures:
        return
    for _match, cause, absent, _reason in closures:
        if cause not in CAUSES or absent not in (0, 1, None):
            raise ValueError(f"closing a súmula: cause {cause!r}, absent team {absent!r}")
    table_links.close_all([match.pk for match, *_rest in closures], by, TableLink.ClosedAs.WALKOVER)
    MatchEvent.objects.bulk_create([event_row(match, MatchEvent.Kind.CLOSED, by, cause=cause, absent=absent,
                                              reason=(reason or "")[:300])
                                    for match, cause, absent, reason in closures])


def closed_refusal(match: Match, by=None) -> Conflict | None:
    """The refusal of any entry into a súmula closed by a W.O., a disqualification or a withdrawal (art. 26),
    naming the cause, the pair and the reason; None when the súmula is not so closed. A table link that
    still works belongs to a match not closed (closing revokes it): no query then."""
    link = getattr(by, "table_link", None)
    if link is not None and link.match_id == match.pk and link.revoked_at is None:
        return None
    if not table_links.walkover_ids([match.pk]):
        return None
    event = MatchEvent.objects.filter(match_id=match.pk, kind=MatchEvent.Kind.CLOSED).order_by("-at", "-id").first()
    data = event.data if event is not None else {}
    absent, cause, reason = data.get("absent"), data.get("cause", "walkover"), data.get("reason", "")
    if cause == "team_decided":
        message = _("This súmula was closed because its team match was decided without it (art. 26, the event's "
                    "team rule): nothing more enters it, neither hands, tentos, undos, corrections nor rulings.")
        return Conflict(message + (" " + _("Reason: %(reason)s") % {"reason": reason} if reason else ""), "match")
    if absent is None:
        what = _("by a double W.O. (neither pair played)")
    else:
        pair = match.pair(absent).name
        what = {"walkover": _("by a W.O. against %(pair)s"),
                "disqualification": _("by the disqualification of %(pair)s"),
                "withdrawal": _("by the withdrawal of %(pair)s")}.get(cause, _("by a W.O. against %(pair)s")) % {"pair": pair}
    message = _("This súmula was closed %(what)s (art. 26): the organizer decided the match without it, so "
                "nothing more enters it, neither hands, tentos, undos, corrections nor rulings.") % {"what": what}
    if reason:
        message += " " + _("Reason: %(reason)s") % {"reason": reason}
    return Conflict(message, "match")


def refuse_closed(match: Match, by=None) -> None:
    """Raise :func:`closed_refusal` when the súmula is closed."""
    refusal = closed_refusal(match, by)
    if refusal is not None:
        raise refusal
