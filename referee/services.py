"""Every write of the referee module: rulings on claimed infractions (propose, confirm, escalate to
the organizer, the organizer's decision), appeals and their decision, escalation policies and the
tournament's referee settings; plus who may do what (``can_rule``, ``is_organizer``...).

Pages (referee/views.py) and the API (referee/api.py) only call these functions: every
permission is checked here, so both refuse the same things, with the errors of
``config.errors`` (400 bad input naming the field, 403 not allowed, 409 not in this state).

Roles:

- **organizer** (``tournament.organizer``, staff, superusers; staff for friendlies): everything in
  their tournaments; alone decides escalated rulings (art. 26), appeals, policies and settings;
- **referee**: proposes, confirms and escalates rulings of the matches they referee
  (``Match.referee``, set by the tournament from the table assignments);
- **player**: claims (proposes) and appeals for their own pair only, identified by their PIN or a
  one-time code (the same checks as signing the súmula, ``scoring.services.sign``);
- **anyone**: reads the rulings of tournament matches and the catalog.

The rulings come from the engine (``referee.engine.rulings.propose_ruling``) with the match's rule
set and the state of the súmula (:func:`table_state`); a tento is always claimed by the offender's
opponents. A confirmed ruling is recorded on the súmula as a penalty entry citing its article and
its id (``scoring.services.record_penalty``), even when it costs nothing (a warning, art. 22/23):
the súmula keeps every ruling (art. 25).

Escalation (``EscalationPolicy``): the nth confirmed ruling of a code against the same pair in a
tournament takes the nth step of the policy (the last repeating): ``warning`` (recorded, no
points), ``tento`` (the engine's consequence, or the tento in play when that is a warning), ``match_loss`` (the offender loses the match: the
súmula records penalties taking the opponents to 12 in the current game and in every game still
needed to win the match, each citing the ruling's article and id). Without a policy, the engine's
consequence applies. A circuit with ``escalation_across_stages`` counts, too, the same
two players' rulings in its other stages.
"""
from __future__ import annotations


from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError
from referee.engine.errors import ReportError
from referee.engine.game import points_to_game, value_in_play
from referee.engine.messages import render as render_message
from referee.engine.infractions import CATALOG
from referee.engine.rulings import TableState, propose_ruling
from scoring import access, pins
from scoring import services as scoring
from scoring.content import load_games
from scoring.models import Match
from scoring.words import engine_messages, pair_names
from seasons.models import CircuitStage
from tournaments.models import Pair, Player, TableAssignment, Tournament

from .models import NOT_COVERED, EscalationPolicy, Ruling

HAND_VALUES = (1, 3, 6, 9, 12)
STANDING = (Ruling.Status.CONFIRMED, Ruling.Status.CHANGED)  # rulings that count for escalation
ART_26 = "art. 26"


def _user_ok(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


# ------------------------------------------------------------------------------------ roles


def is_organizer(user, match_or_tournament) -> bool:
    """The tournament's organizer, staff or a superuser (events.access.manages)."""
    if isinstance(match_or_tournament, Tournament):
        return access.manages(user, match_or_tournament)
    return access.is_organizer(user, match_or_tournament)


def is_match_referee(user, match: Match) -> bool:
    """The match's referee (``Match.referee``: the tournament sets it from the table assignments,
    scoring.access.is_referee)."""
    return access.is_referee(user, match)


def is_referee_or_organizer(user) -> bool:
    """Staff, a superuser, a tournament's organizer, or the referee of a match or of a table."""
    if not _user_ok(user):
        return False
    return bool(access.operates_site(user) or Tournament.objects.filter(access.organizes(user, "")).exists()
                or Match.objects.filter(referee=user).exists()
                or TableAssignment.objects.filter(referee=user).exists())


def can_rule(user, match: Match) -> bool:
    """Propose, confirm and escalate rulings of ``match``: its referee or the organizer."""
    return is_match_referee(user, match) or is_organizer(user, match)


def can_read(user, match: Match) -> bool:
    """Rulings of tournament matches are public; a friendly's only for who may rule on it."""
    return match.tournament_id is not None or can_rule(user, match)


def _require_rule(user, match: Match) -> None:
    if not can_rule(user, match):
        raise Forbidden(_("Only the match's referee or the tournament's organizer rules on its infractions."))


def _require_organizer(user, match_or_tournament, what: str) -> None:
    if not is_organizer(user, match_or_tournament):
        raise Forbidden(what)


def verify_player(match: Match, team: int, player: Player | int, *, pin: str | None = None,
                  code: str | None = None, client: str | None = None) -> Player:
    """The player of ``team``'s pair identified by their PIN or a one-time code, as for signing the
    súmula (``scoring.services.sign``: same pair check, same codes, the same counting per player and
    client in ``scoring.pins``). A failure is recorded in the match's audit trail and raises
    :class:`Forbidden`. Callers check the state of what is asked before calling this."""
    team = _team(team, "team")
    if bool(pin) == bool(code):
        raise ServiceError(_("Identify yourself with your PIN or with a one-time code (one of them)."), "pin")
    player_id = player.pk if isinstance(player, Player) else player
    pair, other = match.pair(team), match.pair(1 - team)
    signer = next((p for p in access.pair_players(pair) if p.pk == player_id), None)
    if signer is None or any(p.pk == player_id for p in access.pair_players(other)):
        raise Forbidden(pair_names.contract(_("Only a player of %(pair)s acts for it.") % {"pair": pair.name},
                                            pair.name), "player")
    pins.require(signer, client=client, pin=pin, code=code, match=match, team=team, purpose="referee")
    return signer


# ------------------------------------------------------------------------------- helpers


def _team(value, field: str) -> int:
    if type(value) is not int or value not in (0, 1):
        raise ServiceError(_("A team is 0 (pair A) or 1 (pair B)."), field)
    return value


def _reason(value, field: str = "reason") -> str:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise ServiceError(_("Give a reason."), field)
    if len(text) > 300:
        raise ServiceError(_("The reason is a text of at most 300 characters."), field)
    return text


def _lock_match(match: Match | int) -> Match:
    pk = match.pk if isinstance(match, Match) else match
    return Match.objects.select_for_update(of=("self",)).select_related(
        "tournament", "pair_a", "pair_b").get(pk=pk)


def _lock_ruling(ruling: Ruling | int) -> Ruling:
    pk = ruling.pk if isinstance(ruling, Ruling) else ruling
    ruling = Ruling.objects.select_for_update(of=("self",)).get(pk=pk)
    ruling.match = _lock_match(ruling.match_id)
    return ruling


def _playing_state(match: Match) -> dict:
    scoring.refuse_closed(match)  # a W.O., a disqualification or a withdrawal closed the súmula (art. 26)
    state = scoring.entry_state(match, load_games(match))
    if match.status != Match.Status.OPEN or state.get("game") is None:
        raise Conflict(_("The match is over: infractions are claimed while it is played (art. 25)."), "match")
    return state


def table_state(match: Match, facts: dict | None = None) -> TableState:
    """The :class:`TableState` of the hand being played, from the súmula: the current game's score and
    the dealer of the next hand. What the súmula cannot know comes from the referee's ``facts``:
    ``value`` (the hand's value in play, 1/3/6/9/12, default the engine's ``value_in_play``: 1 before any
    raise, art. 11; a mão de onze's 3 and a mão de ferro's value, where nobody raises, art. 18, 19), ``raised_team`` (the team
    facing an unanswered raise, art. 14), ``any_card`` (a card of this hand is on the table),
    ``wrong_deal`` (a seat got too many or too few cards, art. 6). Conflict when the match is over."""
    facts = facts or {}
    if not isinstance(facts, dict):
        raise ServiceError(_("The facts are an object."), "facts")
    state = _playing_state(match)
    value = facts.get("value")
    if value is not None and (type(value) is not int or value not in HAND_VALUES):
        raise ServiceError(_("The value in play is 1, 3, 6, 9 or 12 (art. 11)."), "facts.value")
    try:  # art. 24 "perda do tento em jogo": the engine's value in play for this score
        value = value_in_play(tuple(state["score"]), scoring.rules_of(match), value)
    except ReportError as error:
        raise ServiceError(engine_messages.render_error(error.as_dict(), match), "facts.value") from None
    raised = facts.get("raised_team")
    if raised is not None:
        _team(raised, "facts.raised_team")
    for flag in ("any_card", "wrong_deal"):
        if not isinstance(facts.get(flag, False), bool):
            raise ServiceError(_("%(flag)s is true or false.") % {"flag": flag}, f"facts.{flag}")
    return TableState(score=tuple(state["score"]), dealer=state["dealer"], value=value, raised_team=raised,
                      any_card=facts.get("any_card", False), wrong_deal=facts.get("wrong_deal", False))


def _pair_rulings(tournament_id: int, pair_id: int):
    """Rulings against ``pair_id`` (it was the offending team) in the tournament."""
    return Ruling.objects.filter(match__tournament_id=tournament_id).filter(
        Q(match__pair_a_id=pair_id, offender_team=0) | Q(match__pair_b_id=pair_id, offender_team=1))


def _circuit_rulings(tournament_id: int, pair_id: int):
    """Rulings against the same two players (as a pair, whatever its name) in the other stages of
    the circuits of ``tournament_id`` that count escalation across their stages (the circuit's
    option ``escalation_across_stages``; art. 26). None when no such circuit."""
    others = set(CircuitStage.objects.filter(circuit__escalation_across_stages=True,
                                             circuit__stages__tournament_id=tournament_id)
                 .exclude(tournament_id=tournament_id).values_list("tournament_id", flat=True))
    if not others:
        return None
    pair = Pair.objects.only("first_player_id", "second_player_id").get(pk=pair_id)
    a, b = pair.first_player_id, pair.second_player_id
    same = Pair.objects.filter(tournament_id__in=others).filter(
        Q(first_player_id=a, second_player_id=b) | Q(first_player_id=b, second_player_id=a)).values("pk")
    return Ruling.objects.filter(Q(match__pair_a_id__in=same, offender_team=0)
                                 | Q(match__pair_b_id__in=same, offender_team=1))


def _step(match: Match, code: str, offender_team: int, exclude: int | None = None) -> tuple[str, int]:
    """The escalation step of a new ruling of ``code`` against the offending pair, and its rank n:
    the pair's standing rulings of the code in the tournament, and, when a circuit of the tournament
    counts across its stages, the same two players' in its other stages (art. 26)."""
    if match.tournament_id is None or code == NOT_COVERED:
        return "", 1
    pair_id = match.pair_a_id if offender_team == 0 else match.pair_b_id
    earlier = _pair_rulings(match.tournament_id, pair_id).filter(code=code, status__in=STANDING)
    if exclude:
        earlier = earlier.exclude(pk=exclude)
    n = earlier.count() + 1
    across = _circuit_rulings(match.tournament_id, pair_id)
    if across is not None:
        n += across.filter(code=code, status__in=STANDING).count()
    policy = EscalationPolicy.objects.filter(tournament_id=match.tournament_id, code=code).first()
    return (policy.step_for(n) if policy else ""), n


def _apply_step(ruling: Ruling, engine_points: int, engine_beneficiary: int | None, state: TableState) -> None:
    """Set the ruling's points and beneficiary from its step (Portuguese texts: they go on the súmula).

    A ``tento`` step costs a tento: when the engine's consequence is a warning (no points, art. 22, 23),
    the step gives the opponents the tento in play (the hand's value at that moment: "O Valor do Tento",
    regras 4 jogadores; art. 24), never 0 points beside a súmula line that says "tento"."""
    opponents = 1 - ruling.offender_team
    if ruling.step == "tento" and (not engine_points or engine_beneficiary is None):
        ruling.points, ruling.beneficiary = state.value, opponents
    elif ruling.step == "warning":
        ruling.points, ruling.beneficiary = 0, None
    elif ruling.step == "match_loss":
        ruling.points, ruling.beneficiary = points_to_game(state.score, opponents), opponents
        ruling.ends_hand = True
    else:
        ruling.points, ruling.beneficiary = engine_points, engine_beneficiary


def _set_message(ruling: Ruling, data: dict) -> None:
    """The ruling's message as data (``message_data``: the engine's ruling, with the escalation step when one
    applies) and as its Portuguese text with the pairs by number (``message``, for what reads text only)."""
    if ruling.step:
        data = {"key": "record.step", "params": {"ruling": data, "nth": ruling.step_number,
                                                  "step": {"key": f"step.{ruling.step}", "params": {}}}}
    ruling.message_data = data
    ruling.message = render_message(data["key"], data["params"])[:400]


# ------------------------------------------------------------------------------ rulings


def propose(match: Match, claimant_team: int, offender_seat: int, code: str, facts: dict | None, by, *,
            player: Player | int | None = None, pin: str | None = None,
            one_time_code: str | None = None, client: str | None = None) -> Ruling:
    """A claim at the table, as a ruling in status ``proposed`` (nothing on the súmula yet).

    ``by`` is the match's referee or the organizer; or a player of ``claimant_team``'s pair claims
    for it (``player`` with ``pin`` or ``one_time_code``). ``code`` is an infraction of the catalog
    (``referee.engine.infractions.CATALOG``) or ``"not_covered"`` (art. 26: the referee escalates it to
    the organizer; ``facts["description"]`` says what happened). ``facts`` completes the table state
    (:func:`table_state`) and the engine's facts (art. 6: ``{"outcome": "accepted"|"run"|"asked"}``).
    The claimant must be the offender's opponents. The consequence is the engine's, after the
    escalation step of the tournament's policy. Raises ServiceError (the engine refuses the claim now:
    wrong moment, wrong seat, its article), Forbidden, Conflict (match over).
    """
    claimant_team = _team(claimant_team, "claimant_team")
    if type(offender_seat) is not int or not 0 <= offender_seat <= 3:
        raise ServiceError(_("The offender's seat is 0, 1, 2 or 3."), "offender_seat")
    if code != NOT_COVERED and code not in CATALOG:
        raise ServiceError(_("Unknown infraction %(code)s: see the catalog.") % {"code": code}, "code")
    facts = dict(facts or {})
    if not can_rule(by, match):
        if player is None:
            raise Forbidden(_("Only the match's referee, the organizer or a player of the claiming pair "
                              "(with their PIN or a one-time code) claims an infraction."))
        with transaction.atomic():  # the claim is judged before the PIN: any PIN gets the same refusal
            _claim(_lock_match(match), claimant_team, offender_seat, code, facts, by, None)
        player = verify_player(match, claimant_team, player, pin=pin, code=one_time_code, client=client)
    else:
        player = None
    with transaction.atomic():
        ruling = _claim(_lock_match(match), claimant_team, offender_seat, code, facts, by, player)
        ruling.save()
        return ruling


def _claim(match: Match, claimant_team: int, offender_seat: int, code: str, facts: dict, by,
           player: Player | None) -> Ruling:
    """The ruling a claim gives now (not saved), or the refusal."""
    state = table_state(match, facts)
    games = load_games(match)
    hand_number = len([e for e in games[-1].entries if e.kind == "hand"]) + 1
    common = dict(match=match, game_number=games[-1].number, hand_number=hand_number,
                  claimant_team=claimant_team, offender_seat=offender_seat, code=code, facts=facts,
                  referee=by if _user_ok(by) else None, claimed_by_player=player,
                  table_link=getattr(by, "table_link", None))
    if code == NOT_COVERED:
        description = facts.get("description")
        if not isinstance(description, str) or not description.strip():
            raise ServiceError(_("Describe the case the regulation does not cover (art. 26)."),
                               "facts.description")
        offender = offender_seat & 1
        ruling = Ruling(**common, offender_team=offender, article=ART_26, points=0, beneficiary=None)
        _set_message(ruling, {"key": "record.not_covered",
                              "params": {"seat": offender_seat, "description": description.strip()[:300]}})
    else:
        try:
            engine = propose_ruling(scoring.rules_of(match), code, offender_seat, state, facts)
        except ReportError as error:
            field = {"infraction": "code", "seat": "offender_seat"}.get(error.field, error.field or "code")
            raise ServiceError(engine_messages.render_error(error.as_dict(), match), field) from None
        ruling = Ruling(**common, offender_team=engine.offender, article=engine.article,
                        ends_hand=engine.ends_hand, deal_lost=engine.deal_lost)
        ruling.step, ruling.step_number = _step(match, code, engine.offender)
        if engine.match_loss and ruling.step in ("", "tento"):  # art. 19 read as the match (art19_match)
            ruling.step = "match_loss"
        _apply_step(ruling, engine.points, engine.beneficiary, state)
        _set_message(ruling, engine.message_data(offender_seat))
    if claimant_team == ruling.offender_team:
        raise ServiceError(_("A tento is claimed by the offender's opponents (regras 4 jogadores, tento)."),
                           "claimant_team")
    return ruling


def _record(ruling: Ruling, by) -> None:
    """Put a ruling on the súmula: one penalty entry citing its article and id (0 points for a warning),
    or for ``match_loss`` one per game still needed, each taking the opponents to 12."""
    match = ruling.match
    offender = ruling.offender_team if ruling.beneficiary is None else 1 - ruling.beneficiary
    reason, data = ruling.message[:300], ruling.message_data or None
    if ruling.step != "match_loss":
        # a tento that ends the hand in play (art. 24) or a lost deal (art. 5) passes the deal (art. 4);
        # a warning leaves the hand going on
        ends_hand = ruling.deal_lost or (ruling.ends_hand and ruling.beneficiary is not None and ruling.points > 0)
        scoring.record_penalty(match, offender, ruling.points, ruling.article, reason, by, ruling_id=ruling.pk,
                               reason_data=data, ends_hand=ends_hand)
        return
    while True:
        match.refresh_from_db()
        if match.winner is not None:
            return
        state = _playing_state(match)
        scoring.record_penalty(match, offender, points_to_game(state["score"], 1 - offender), ruling.article, reason, by,
                               ruling_id=ruling.pk, reason_data=data)


def confirm(ruling: Ruling, by) -> Ruling:
    """The referee (or the organizer) confirms a proposed ruling: it goes on the súmula as a penalty
    entry (``scoring.services.record_penalty``) with its article and ``ruling_id``, even a warning or a
    ruling that costs nothing (0 points). The escalation step is computed again now. Cases not covered
    (art. 26) are not confirmed: escalate them. Conflict when not proposed or the match is over."""
    with transaction.atomic():
        ruling = _lock_ruling(ruling)
        _require_rule(by, ruling.match)
        if ruling.status != Ruling.Status.PROPOSED:
            raise Conflict(_("This ruling is %(status)s: only a proposed ruling is confirmed.")
                           % {"status": ruling.get_status_display()}, "status")
        if ruling.code == NOT_COVERED:
            raise Conflict(_("A case the regulation does not cover is decided by the organizer (art. 26): "
                             "escalate it."), "code")
        state = table_state(ruling.match, ruling.facts)
        games = load_games(ruling.match)  # the hand being played now (a hand may have been entered since)
        ruling.game_number = games[-1].number
        ruling.hand_number = len([e for e in games[-1].entries if e.kind == "hand"]) + 1
        engine = propose_ruling(scoring.rules_of(ruling.match), ruling.code, ruling.offender_seat, state,
                                ruling.facts)
        ruling.step, ruling.step_number = _step(ruling.match, ruling.code, ruling.offender_team, exclude=ruling.pk)
        _apply_step(ruling, engine.points, engine.beneficiary, state)
        _set_message(ruling, engine.message_data(ruling.offender_seat))
        ruling.status, ruling.confirmed_at = Ruling.Status.CONFIRMED, timezone.now()
        ruling.confirmed_by = by
        ruling.save()
        _record(ruling, by)
        return ruling


def escalate(ruling: Ruling, by, reason: str) -> Ruling:
    """Art. 26: the referee sends a proposed ruling (a case not covered, or a doubt) to the organizer,
    who decides it with :func:`decide_escalated`. Nothing goes on the súmula until then."""
    reason = _reason(reason)
    with transaction.atomic():
        ruling = _lock_ruling(ruling)
        _require_rule(by, ruling.match)
        if ruling.status != Ruling.Status.PROPOSED:
            raise Conflict(_("Only a proposed ruling is escalated to the organizer (art. 26)."), "status")
        ruling.status, ruling.escalated_at, ruling.escalation_reason = Ruling.Status.ESCALATED, timezone.now(), reason
        ruling.save(update_fields=["status", "escalated_at", "escalation_reason"])
        return ruling


def reject(ruling: Ruling, by, reason: str) -> Ruling:
    """The referee (or the organizer) rejects an unfounded claim, with a reason the pairs see: nothing goes
    on the súmula and the claim leaves the referee's list. Only a proposed ruling is rejected (a confirmed
    one is changed on appeal, art. 26)."""
    reason = _reason(reason)
    with transaction.atomic():
        ruling = _lock_ruling(ruling)
        _require_rule(by, ruling.match)
        if ruling.status != Ruling.Status.PROPOSED:
            raise Conflict(_("This ruling is %(status)s: only a proposed ruling is rejected.")
                           % {"status": ruling.get_status_display()}, "status")
        ruling.status, ruling.rejected_at, ruling.rejected_by = Ruling.Status.REJECTED, timezone.now(), by
        ruling.rejection_reason = reason
        ruling.save(update_fields=["status", "rejected_at", "rejected_by", "rejection_reason"])
        return ruling


def claims_waiting_for(user, limit: int = 200):
    """Claims (proposed rulings) of open matches that ``user`` may rule on, oldest first: the matches they
    referee, and every match of the tournaments they organize (staff: every tournament)."""
    if not _user_ok(user):
        return Ruling.objects.none()
    qs = Ruling.objects.filter(status=Ruling.Status.PROPOSED, match__status=Match.Status.OPEN)
    qs = qs.filter(access.operates_site_condition(user) | Q(match__referee=user)
                   | access.organizes(user, "match__tournament"))
    return qs.select_related("match", "match__pair_a", "match__pair_b", "claimed_by_player", "referee") \
        .order_by("created_at", "id")[:limit]


def decide_escalated(ruling: Ruling, by, points: int, beneficiary: int | None, reason: str) -> Ruling:
    """Art. 26: the organizer decides an escalated ruling: ``points`` (0 to 12) to ``beneficiary``
    (a team; ``None`` with 0 points: nobody scores). It goes on the súmula citing art. 26 and the
    ruling's id, and the ruling is confirmed (the organizer's decision is final: no appeal)."""
    reason = _reason(reason)
    if type(points) is not int or not 0 <= points <= 12:
        raise ServiceError(_("The organizer's decision gives 0 to 12 points (art. 26)."), "points")
    if beneficiary is None and points:
        raise ServiceError(_("Say which pair scores the points of the decision (art. 26)."), "beneficiary")
    if beneficiary is not None:
        _team(beneficiary, "beneficiary")
    with transaction.atomic():
        ruling = _lock_ruling(ruling)
        _require_organizer(by, ruling.match, _("Only the organizer decides escalated cases (art. 26)."))
        if ruling.status != Ruling.Status.ESCALATED:
            raise Conflict(_("Only an escalated ruling is decided by the organizer (art. 26)."), "status")
        ruling.points, ruling.beneficiary, ruling.article, ruling.step = points, beneficiary, ART_26, ""
        if ruling.message_data:
            _set_message(ruling, {"key": "record.decided", "params": {"ruling": ruling.message_data, "reason": reason}})
        else:  # a ruling recorded before messages were data: its text, as written
            ruling.message = f"{ruling.message} — decisão do organizador (art. 26): {reason}"[:400]
        ruling.status, ruling.confirmed_at, ruling.confirmed_by = Ruling.Status.CONFIRMED, timezone.now(), by
        ruling.decided_by, ruling.decision_reason = by, reason
        ruling.save()
        _record(ruling, by)
        return ruling


def rulings_of(match: Match, user=None):
    """The rulings of a match, oldest first (public for tournament matches)."""
    if not can_read(user, match):
        raise Forbidden(_("The rulings of a friendly are shown to its referee and staff only."))
    return Ruling.objects.filter(match=match).select_related("referee", "claimed_by_player").prefetch_related(
        "appeals")


def history(pair: Pair):
    """Every ruling of ``pair`` in its tournament: against it (it offended) or claimed by it, oldest
    first. ``ruling.offender_team`` with ``ruling.match.pair_a_id`` tells which side the pair was."""
    return Ruling.objects.filter(match__tournament_id=pair.tournament_id).filter(
        Q(match__pair_a=pair) | Q(match__pair_b=pair)).select_related(
        "match__pair_a", "match__pair_b").order_by("created_at", "id")
