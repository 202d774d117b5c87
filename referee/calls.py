"""Calls to the referee from a table: a plain call ("come to table 12"), or the
dispute of an entry of the súmula.

A club tournament has two to five referees for 30 to 100 tables; a referee comes when a pair
calls (art. 25: the pairs fill in and sign the súmula themselves). A call shows on the referees'
tables page (:func:`open_calls_for`) with the table and the time until a referee takes it. A
dispute marks its entry "disputed" on the table page until the referee confirms the entry
(:func:`resolve` with ``confirmed``) or corrects the súmula with a reason (``scoring.services.correct``,
then ``corrected``).

Who may call: the match's table (its link), a logged-in referee or organizer of the match.
Who takes and resolves: the match's referee, the organizer, or any referee of the tournament
(a referee on duty answers any table). The table link that made a call may withdraw it until a referee
answers (:func:`withdraw`: a dispute opened by mistake). The table page sees each call's answer
(:func:`table_calls`): waiting, or "a referee is on the way: Carla, 14:35" until the referee closes it.

An open dispute holds the súmula: :func:`holds_of` is registered with ``scoring.holds``
(``RefereeConfig.ready``), so scoring refuses signatures and the receipt while it is open; the
dispute's opening and its resolution go to the match's audit trail (``MatchEvent``).
"""
from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from scoring import access, holds
from scoring import conflicts as scoring_conflicts
from scoring.models import HandEntry, Match, MatchEvent
from tables.models import EntryConflict
from tournaments.models import TableAssignment

from .models import RefereeCall

OPEN_CALLS_LIMIT = 200


def _may_call(by, match: Match) -> bool:
    return access.is_table(by, match) or access.can_enter(by, match)


def may_answer(user, match: Match) -> bool:
    """The match's referee, the organizer, or a referee of the tournament (on duty for any table)."""
    if access.can_enter(user, match):
        return True
    if not getattr(user, "is_authenticated", False) or match.tournament_id is None:
        return False
    return (Match.objects.filter(tournament_id=match.tournament_id, referee=user).exists()
            or TableAssignment.objects.filter(referee=user, tournament_id=match.tournament_id).exists())


def call(match: Match, by, *, kind: str = "call", team: int | None = None, game: int | None = None,
         hand: int | None = None, reason: str = "") -> RefereeCall:
    """The table calls a referee; ``kind="dispute"`` names the entry (``game``, ``hand``) the pair disputes.
    A second open call of the same kind (and entry) from the table is the same call, not a new one."""
    if kind not in RefereeCall.Kind.values:
        raise ServiceError(_("A call is \"call\" or \"dispute\"."), "kind")
    if team is not None and (type(team) is not int or team not in (0, 1)):
        raise ServiceError(_("A team is 0 (pair A) or 1 (pair B)."), "team")
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if len(reason) > 300:
        raise ServiceError(_("The reason is a text of at most 300 characters."), "reason")
    if not _may_call(by, match):
        raise Forbidden(_("Only the match's table, its referee or the organizer calls a referee to it."))
    if match.status != Match.Status.OPEN:
        raise Conflict(_("The súmula is signed (art. 25): ask the organizing table."), "status")
    if kind == "dispute":
        if type(game) is not int or type(hand) is not int:
            raise ServiceError(_("Say which hand is disputed (game and hand number)."), "hand")
        if not HandEntry.objects.filter(game__match=match, game__number=game, number=hand).exists():
            raise ServiceError(_("The súmula has no hand %(hand)s in game %(game)s.") % {"hand": hand, "game": game},
                               "hand")
    else:
        game = hand = None
    link = getattr(by, "table_link", None)
    with transaction.atomic():
        Match.objects.select_for_update().filter(pk=match.pk).first()
        same = RefereeCall.objects.filter(match=match, kind=kind, resolved_at__isnull=True,
                                          game_number=game, hand_number=hand).first()
        if same is not None:
            return same
        made = RefereeCall.objects.create(
            match=match, kind=kind, team=team, game_number=game, hand_number=hand, reason=reason,
            table_link=link, created_by=by if getattr(by, "is_authenticated", False) else None)
        if kind == RefereeCall.Kind.DISPUTE:
            holds.record_opened(match, by, as_hold(made))
        return made


def take(call_: RefereeCall, by) -> RefereeCall:
    """A referee takes the call ("Estou indo"): it is no longer waiting for a referee, and the table sees who
    is coming until the referee closes it (a plain call: "Atendido", :func:`resolve` with ``done``; a dispute:
    its ruling)."""
    if not may_answer(by, call_.match):
        raise Forbidden(_("Only a referee of the tournament or the organizer takes a call."))
    with transaction.atomic():
        call_ = RefereeCall.objects.select_for_update().select_related("match").get(pk=call_.pk)
        if call_.taken_at is None:
            call_.taken_at, call_.taken_by = timezone.now(), by
            call_.save(update_fields=["taken_at", "taken_by"])
        return call_


def withdraw(call_: RefereeCall, by) -> RefereeCall:
    """The table withdraws its call (a dispute opened by mistake) before a referee answers it: only through the
    table link that made it; a second withdrawal answers the same (a phone may send it twice)."""
    link = getattr(by, "table_link", None)
    if link is None or call_.table_link_id != link.pk:
        raise Forbidden(_("Only the table link that made this call withdraws it."))
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=call_.match_id)
        call_ = RefereeCall.objects.select_for_update().select_related("match").get(pk=call_.pk)
        if call_.resolution == RefereeCall.Resolution.WITHDRAWN:
            return call_
        if call_.taken_at is not None or call_.resolved_at is not None:
            raise Conflict(_("A referee already answered this call: it can no longer be withdrawn. Talk to the "
                             "referee at the table."), "call")
        call_.resolved_at, call_.resolution = timezone.now(), RefereeCall.Resolution.WITHDRAWN
        call_.save(update_fields=["resolved_at", "resolution"])
        if call_.kind == RefereeCall.Kind.DISPUTE:
            holds.record_resolved(match, by, as_hold(call_), RefereeCall.Resolution.WITHDRAWN)
        return call_


def resolve(call_: RefereeCall, by, resolution: str) -> RefereeCall:
    """The referee closes a call: a dispute ``confirmed`` (the entry stands) or ``corrected`` (the súmula was
    corrected with a reason, art. 25); a plain call ``done`` (attended, "Atendido")."""
    if call_.kind == RefereeCall.Kind.CALL:
        if resolution != RefereeCall.Resolution.DONE:
            raise ServiceError(_("A call to the referee is closed as \"done\" (attended)."), "resolution")
    elif resolution not in (RefereeCall.Resolution.CONFIRMED, RefereeCall.Resolution.CORRECTED):
        raise ServiceError(_("A dispute is resolved as \"confirmed\" or \"corrected\"."), "resolution")
    if not may_answer(by, call_.match):
        raise Forbidden(_("Only a referee of the tournament or the organizer rules on a dispute."))
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=call_.match_id)
        call_ = RefereeCall.objects.select_for_update().get(pk=call_.pk)
        if call_.resolved_at is not None:
            raise Conflict(_("This call was already resolved."), "call")
        if (call_.kind == RefereeCall.Kind.DISPUTE and resolution == RefereeCall.Resolution.CORRECTED
                and not match.events.filter(kind__in=[MatchEvent.Kind.CORRECTION, MatchEvent.Kind.UNDO],
                                            at__gte=call_.created_at).exists()):
            raise Conflict(_("The súmula was not corrected since the dispute was opened: correct it (with a reason, "
                             "art. 25) or undo the entry, then mark the dispute corrected; or confirm the entry."),
                           "resolution")
        now = timezone.now()
        call_.taken_at = call_.taken_at or now
        call_.taken_by = call_.taken_by or by
        call_.resolved_at, call_.resolution = now, resolution
        call_.save(update_fields=["taken_at", "taken_by", "resolved_at", "resolution"])
        if call_.kind == RefereeCall.Kind.DISPUTE:
            holds.record_resolved(match, by, as_hold(call_), resolution)
        return call_


def open_calls_for(user):
    """Calls not closed (waiting for a referee, or taken and not yet attended) and disputes not resolved, of the
    matches ``user`` may answer:
    every match of the tournaments where they referee or organize."""
    if not getattr(user, "is_authenticated", False):
        return RefereeCall.objects.none()
    qs = _answerable(RefereeCall.objects.filter(resolved_at__isnull=True), user)
    return qs.select_related("match", "match__pair_a", "match__pair_b", "taken_by").order_by("created_at", "id")[:OPEN_CALLS_LIMIT]


def _answerable(qs, user):
    """``qs`` (rows with a ``match``) limited to the matches ``user`` may answer (:func:`may_answer`), in one query:
    the tournaments as subqueries."""
    return qs.filter(access.operates_site_condition(user) | Q(match__referee=user)
                     | access.organizes(user, "match__tournament")
                     | Q(match__tournament_id__in=Match.objects.filter(referee=user).values("tournament_id"))
                     | Q(match__tournament_id__in=TableAssignment.objects.filter(referee=user).values("tournament_id")))


def open_conflicts_for(user):
    """The pending conflicts between the phones of a table (``tables.conflicts``) of the matches
    ``user`` may answer, while the súmula is open: the table needs a referee if its phones do not settle them."""
    if not getattr(user, "is_authenticated", False):
        return EntryConflict.objects.none()
    qs = _answerable(EntryConflict.objects.filter(settled_at__isnull=True, match__status=Match.Status.OPEN), user)
    return qs.select_related("match", "match__pair_a", "match__pair_b").order_by("created_at", "id")[:OPEN_CALLS_LIMIT]


def settle_conflict(conflict_id: int, by) -> EntryConflict:
    """A referee of the tournament (or the organizer) settles a table's conflict: the phones talked it over, or
    the referee corrected the súmula; recorded in the match's audit trail."""
    conflict = EntryConflict.objects.select_related("match").filter(pk=conflict_id).first()
    if conflict is None:
        raise ServiceError(_("No such conflict."), "conflict")
    if not may_answer(by, conflict.match):
        raise Forbidden(_("Only a referee of the tournament or the organizer settles a table's conflict."))
    return scoring_conflicts.settle(conflict.match, conflict.pk, by, scoring_conflicts.REFEREE, answerer=True)


def as_hold(c: RefereeCall) -> holds.Hold:
    """A dispute as ``scoring.holds`` names it; ``resolve_url`` is where the referee's page posts
    ``action=confirmed`` or ``corrected`` (:func:`referee.views.answer_call`)."""
    return holds.Hold(id=c.pk, game=c.game_number, hand=c.hand_number, team=c.team, reason=c.reason,
                      opened_at=c.created_at.isoformat(), resolve_url=reverse("referee:answer-call", kwargs={"pk": c.pk}))


def holds_of(match: Match) -> list[holds.Hold]:
    """The provider of ``scoring.holds``: the match's open disputes (one query)."""
    return [as_hold(c) for c in RefereeCall.objects.filter(match=match, kind=RefereeCall.Kind.DISPUTE,
                                                           resolved_at__isnull=True).order_by("created_at", "id")]


def disputes_data(match: Match) -> list[dict]:
    """Every dispute of the match, open and settled, as the table page shows them."""
    return [{"id": c.pk, "game": c.game_number, "hand": c.hand_number, "team": c.team, "reason": c.reason,
             "opened_at": c.created_at.isoformat(), "open": c.resolved_at is None, "resolution": c.resolution or None,
             "resolved_at": c.resolved_at.isoformat() if c.resolved_at else None}
            for c in RefereeCall.objects.filter(match=match, kind=RefereeCall.Kind.DISPUTE).order_by("created_at", "id")]


def _person(user) -> str:
    return (user.first_name or user.get_full_name() or user.get_username()) if user is not None else ""


def table_calls(match: Match) -> list[dict]:
    """The calls the table page shows: every call not closed (waiting for a referee, or taken: "on the way",
    until the referee closes it). ``referee`` names who answered; ``withdrawable``: made through a table link
    and not answered yet (:func:`withdraw`)."""
    shown = (RefereeCall.objects.filter(match=match, resolved_at__isnull=True)
             .select_related("match", "taken_by").order_by("created_at", "id"))
    return [{**call_data(c), "referee": _person(c.taken_by) if c.taken_at else "",
             "withdrawable": c.taken_at is None and c.resolved_at is None and c.table_link_id is not None}
            for c in shown]


def call_data(c: RefereeCall) -> dict:
    return {"id": c.pk, "match": c.match_id, "table": c.match.table, "kind": c.kind, "team": c.team,
            "game": c.game_number, "hand": c.hand_number, "reason": c.reason,
            "called_at": c.created_at.isoformat(), "taken_at": c.taken_at.isoformat() if c.taken_at else None,
            "resolved_at": c.resolved_at.isoformat() if c.resolved_at else None, "resolution": c.resolution}
