"""Appeals against a ruling and the tournament's referee rules: a pair appeals a ruling within the
tournament's window (its player's PIN or a one-time code, as for signing), the organizer decides it
(art. 26: upheld, overturned or changed, with a reason); escalation policies per infraction and the
tournament's referee settings (the appeal window). Every permission is checked here, as in
``referee.services`` (rulings), whose locks and checks these use.
"""
from __future__ import annotations

from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, ServiceError
from referee.engine.infractions import CATALOG
from scoring import services as scoring
from tournaments.models import Player, Tournament

from .models import STEPS, Appeal, EscalationPolicy, RefereeSettings, Ruling
from .services import _lock_ruling, _reason, _require_organizer, _team, verify_player


# ------------------------------------------------------------------------------ appeals


def appeal_window(tournament: Tournament | None) -> timedelta:
    minutes = RefereeSettings._meta.get_field("appeal_window_minutes").default
    if tournament is not None:
        row = RefereeSettings.objects.filter(tournament=tournament).first()
        minutes = row.appeal_window_minutes if row else minutes
    return timedelta(minutes=minutes)


def appeal_deadline(ruling: Ruling):
    """Until when a pair may appeal ``ruling`` (None when it cannot be appealed: not confirmed by a
    referee, or decided by the organizer)."""
    if ruling.status != Ruling.Status.CONFIRMED or ruling.decided_by_id or ruling.confirmed_at is None:
        return None
    return ruling.confirmed_at + appeal_window(ruling.match.tournament)


def appeal(ruling: Ruling, team: int, player: Player | int, *, pin: str | None = None, code: str | None = None,
           reason: str = "", client: str | None = None, by=None) -> Appeal:
    """A pair appeals a confirmed ruling to the organizer, within the tournament's appeal window
    (``RefereeSettings.appeal_window_minutes``, default 30, from the confirmation). Only a player of one
    of the match's pairs, for their own pair, with their PIN or a one-time code (:func:`verify_player`).
    One open appeal per ruling; an organizer's decision (art. 26) is not appealed. ``by``: the request's
    credential; through a table link the appeal records it (``table_link``)."""
    reason = _reason(reason)
    team = _team(team, "team")
    with transaction.atomic():  # the state before the PIN: any PIN gets the same refusal
        _appealable(_lock_ruling(ruling))
    signer = verify_player(ruling.match, team, player, pin=pin, code=code, client=client)
    with transaction.atomic():
        ruling = _lock_ruling(ruling)
        _appealable(ruling)
        try:
            with transaction.atomic():
                return Appeal.objects.create(ruling=ruling, team=team, player=signer, reason=reason,
                                             table_link=getattr(by, "table_link", None))
        except IntegrityError:
            raise Conflict(_("This ruling already has an open appeal: the organizer decides it first (art. 26)."), "ruling") from None


def _appealable(ruling: Ruling) -> None:
    if ruling.status != Ruling.Status.CONFIRMED or ruling.decided_by_id:
        raise Conflict(_("Only a confirmed ruling of the referee is appealed (the organizer's decisions are "
                         "final, art. 26)."), "status")
    if timezone.now() > appeal_deadline(ruling):
        raise Conflict(_("The appeal window is over: %(minutes)s minutes after the ruling.")
                       % {"minutes": int(appeal_window(ruling.match.tournament).total_seconds() // 60)},
                       "ruling")
    if ruling.appeals.filter(decided_at__isnull=True).exists():
        raise Conflict(_("This ruling already has an open appeal: the organizer decides it first (art. 26)."), "ruling")


def decide_appeal(appeal: Appeal, by, decision: str, reason: str, new_points: int | None = None) -> Appeal:
    """The organizer decides an appeal (art. 26). ``upheld``: nothing changes. ``overturned``: the
    ruling's entries are removed from the súmula by a correction (``scoring.services.correct``: a new
    version with the reason, every signature voided, the old versions kept). ``changed``: its entries
    are replaced by one entry of ``new_points`` (0 to 12) at the same place, by a correction too."""
    reason = _reason(reason)
    if decision not in Appeal.Decision.values:
        raise ServiceError(_("An appeal is decided upheld, overturned or changed (art. 26)."), "decision")
    if decision == Appeal.Decision.CHANGED and (type(new_points) is not int or not 0 <= new_points <= 12):
        raise ServiceError(_("A changed ruling gives its new points, 0 to 12 (art. 26)."), "new_points")
    with transaction.atomic():
        appeal = Appeal.objects.select_for_update().get(pk=appeal.pk)
        ruling = _lock_ruling(appeal.ruling_id)
        _require_organizer(by, ruling.match, _("Only the organizer decides appeals (art. 26)."))
        if appeal.decided_at is not None:
            raise Conflict(_("This appeal was already decided: the organizer's decision is final (art. 26)."), "appeal")
        if decision != Appeal.Decision.UPHELD:
            entries = sorted(ruling.penalties(), key=lambda e: (e.game.number, e.position), reverse=True)
            changes = [{"op": "remove_entry", "game": e.game.number, "position": e.position} for e in entries]
            offender = ruling.offender_team
            if decision == Appeal.Decision.CHANGED:
                first = entries[-1] if entries else None
                game = first.game.number if first else ruling.game_number
                changes.append({"op": "insert_penalty", "game": game, "after": first.position - 1 if first else 0,
                                "offender": offender, "points": new_points, "article": ruling.article,
                                "reason": ruling.message[:300], "reason_data": ruling.message_data or None,
                                "ruling_id": ruling.pk,
                                # the tento still ends the hand it ended (art. 24), and the deal passes (art. 4)
                                "ends_hand": bool(first and first.dealer is not None and new_points)})
                ruling.points, ruling.beneficiary = new_points, (1 - offender) if new_points else None
            if changes:
                scoring.correct(ruling.match, changes, f"Recurso {appeal.pk} (art. 26): {reason}"[:300], by)
            ruling.status = decision
            ruling.save(update_fields=["status", "points", "beneficiary"])
        appeal.decision, appeal.decision_reason, appeal.new_points = decision, reason, new_points
        appeal.decided_by, appeal.decided_at = by, timezone.now()
        appeal.save()
        return appeal


# ------------------------------------------------------------------- policies and settings


def set_policy(tournament: Tournament, by, code: str, steps: list | None) -> EscalationPolicy | None:
    """The organizer sets the escalation steps of ``code`` (e.g. ``["warning", "tento", "match_loss"]``);
    ``None`` or ``[]`` removes the policy (the engine's consequence applies)."""
    _require_organizer(by, tournament, _("Only the organizer sets the escalation policies."))
    if code not in CATALOG:
        raise ServiceError(_("Unknown infraction %(code)s: see the catalog.") % {"code": code}, "code")
    if not steps:
        EscalationPolicy.objects.filter(tournament=tournament, code=code).delete()
        return None
    if not isinstance(steps, list) or any(step not in STEPS for step in steps):
        raise ServiceError(_("The steps are a list of: %(steps)s.") % {"steps": ", ".join(STEPS)}, "steps")
    policy, _created = EscalationPolicy.objects.update_or_create(tournament=tournament, code=code,
                                                                 defaults={"steps": steps})
    return policy


def settings_of(tournament: Tournament) -> RefereeSettings:
    """The tournament's referee settings (the defaults, unsaved, when never set)."""
    return RefereeSettings.objects.filter(tournament=tournament).first() or RefereeSettings(tournament=tournament)


def set_settings(tournament: Tournament, by, appeal_window_minutes: int) -> RefereeSettings:
    """The organizer sets how many minutes after a confirmed ruling a pair may appeal (1 to 1440)."""
    _require_organizer(by, tournament, _("Only the organizer changes the referee settings."))
    if type(appeal_window_minutes) is not int or not 1 <= appeal_window_minutes <= 1440:
        raise ServiceError(_("The appeal window is 1 to 1440 minutes."), "appeal_window_minutes")
    row, _created = RefereeSettings.objects.update_or_create(
        tournament=tournament, defaults={"appeal_window_minutes": appeal_window_minutes})
    return row
