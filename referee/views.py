"""Referee pages (mounted at /arbitragem/), phone-first, for the match's referee or the organizer.

- ``tables``: the matches assigned to the logged-in referee (``Match.referee``, or the
  assignments of the tables, which the tournament copies onto ``Match.referee``), with score and súmula status;
- ``claim``: a tento claimed in three taps — who claims, the infraction (the catalog, or a case not
  covered, art. 26, escalated to the organizer), the facts it needs — then the proposed ruling with
  its article and effect on the score, which the referee confirms; it lands on the súmula
  (``referee.services.propose`` / ``confirm`` / ``escalate``);
- a pair's rulings and the organizer's review of escalated rulings and appeals: ``referee.review_views``;
- ``check_hand``: the rules engine's verdict on a pasted hand report, or on the last recorded one,
  and how it differs from what the table recorded. The verdict can reveal hidden cards, so only
  the match's referee and the organizer see it (``referee.services.can_rule``).

Thin views: the engine (``referee.engine``) and the súmula's access rules decide everything.
"""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.errors import Conflict, Forbidden, ServiceError
from referee.engine import check_report
from referee.engine.game import add_points, value_fixed
from referee.engine.infractions import CATALOG
from scoring import numbering
from scoring.content import match_queryset
from scoring.display import ENDING_LABELS, load_match, seat_names
from scoring.models import Game, HandEntry, Match
from scoring.services import rules_of
from scoring.words import pair_names
from scoring.words.field_words import field_word, page_message

from . import calls, hand_form, roles, services
from .models import NOT_COVERED, RefereeCall, Ruling

MAX_REPORT_CHARS = 20_000


def _match(pk: int) -> Match:
    try:
        return load_match(pk)
    except Match.DoesNotExist:
        raise Http404(_("No match with this number.")) from None


def _require_referee(request, match: Match):
    """None when the user is the match's referee or its organizer; else a login redirect or a 403."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not services.can_rule(request.user, match):
        raise PermissionDenied(_("Only the match's referee or the tournament's organizer may do this."))
    return None


def assigned_matches(user):
    """Matches refereed by ``user`` (``Match.referee``, which the tournament keeps in step with the
    table assignments)."""
    return match_queryset().filter(referee=user)


def _with_scores(matches: list[Match]) -> list[Match]:
    """Attach ``current_score`` (the last game's points) to each match, in one query."""
    last: dict[int, Game] = {}
    for game in Game.objects.filter(match__in=[m.pk for m in matches]).order_by("match_id", "number"):
        last[game.match_id] = game
    for match in matches:
        game = last.get(match.pk)
        match.current_score = (game.score_a, game.score_b) if game else (0, 0)
        match.current_game = game.number if game else 1
    return matches


@require_GET
def tables(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    mine = assigned_matches(request.user).order_by("table", "-created_at", "-pk")
    # a match the organizer decided (W.O., a result by hand) is done, not "Aberta 0 – 0"
    decided = Q(status=Match.Status.RECEIVED) | Q(tournament_result__isnull=False)
    open_ = _with_scores(list(mine.exclude(decided)[:100]))
    done = _with_scores(list(mine.filter(decided).select_related("tournament_result")
                             .order_by("-updated_at", "-pk")[:20]))
    numbers = numbering.numbers_for(open_)  # the bracket's number, as on the bracket and the dashboard
    for match in open_:
        match.display_number = numbers.get(match.pk)
    claims = [{"ruling": r, "title": CATALOG[r.code].title if r.code in CATALOG else _("Case not covered (art. 26)"),
               "claimant": r.match.pair(r.claimant_team), "offender": r.match.pair(r.offender_team)}
              for r in services.claims_waiting_for(request.user)]
    open_calls = list(calls.open_calls_for(request.user))
    conflicts = list(calls.open_conflicts_for(request.user))
    return render(request, "referee/tables.html", {
        "open_matches": open_, "done_matches": done, "calls": open_calls, "claims": claims,
        "conflicts": conflicts,  # phones of a table at odds
        "waiting": _waiting_mark(open_calls, [c["ruling"] for c in claims], conflicts),
        "is_organizer": roles.summary(request.user).organizer,  # the same query as the header's
    })


def _waiting_mark(open_calls, claims, conflicts=()) -> str:
    """What the tables page shows as waiting, in a few characters: the page's poll compares it."""
    return ("c" + ",".join(str(c.pk) for c in open_calls) + ";r" + ",".join(str(r.pk) for r in claims)
            + ";x" + ",".join(str(x.pk) for x in conflicts))


@require_GET
def waiting(request):
    """The tables page polls this (every few seconds, a few bytes): when the mark changes a call, a dispute
    or a claim came in or was answered, and the page reloads (or says so while a form is in use)."""
    if not request.user.is_authenticated:
        return JsonResponse({"detail": _("Sign in again.")}, status=401)
    open_calls = list(calls.open_calls_for(request.user))
    claims = list(services.claims_waiting_for(request.user))
    conflicts = list(calls.open_conflicts_for(request.user))
    response = JsonResponse({"mark": _waiting_mark(open_calls, claims, conflicts),
                             "count": len(open_calls) + len(claims) + len(conflicts)})
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def answer_claim(request, pk: int):
    """The referee confirms a claim (it goes on the súmula) or rejects it with a reason (referee/services.py)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("referee:tables"))
    ruling = get_object_or_404(Ruling.objects.select_related("match"), pk=pk)
    action = request.POST.get("action", "")
    try:
        if action == "confirm":
            ruling = services.confirm(ruling, request.user)
            messages.success(request, _("Ruling confirmed (%(article)s) and recorded on the súmula.")
                             % {"article": ruling.article})
        elif action == "reject":
            services.reject(ruling, request.user, request.POST.get("reason", ""))
            messages.success(request, _("Claim rejected: nothing goes on the súmula."))
        else:
            raise ServiceError(_("Confirm or reject the claim."), "action")
    except Forbidden as error:
        raise PermissionDenied(error.message) from None
    except ServiceError as error:
        messages.error(request, page_message(error.message, getattr(error, "field", None)))
    return redirect("referee:tables")


def _last_report(match: Match) -> HandEntry | None:
    return (HandEntry.objects.filter(game__match=match, report__isnull=False)
            .select_related("game").order_by("-game__number", "-position").first())


def _differences(verdict: dict, claimed: dict | None) -> list[dict]:
    """What the table recorded against the engine: rows of field, table, engine."""
    if not claimed or "winner" not in verdict:
        return []
    rows = []
    for field, label in (("winner", _("Pair that scores")), ("points", _("Points")),
                         ("ended_by", _("How it ended"))):
        if field in claimed and claimed[field] != verdict.get(field):
            rows.append({"field": field, "label": label, "table": claimed[field], "engine": verdict.get(field)})
    return rows


def _team_name(match: Match, team) -> str:
    if team is None:
        return _("nobody")
    return match.pair(team).name if team in (0, 1) else str(team)


@require_http_methods(["GET", "POST"])
def check_hand(request, pk: int):
    match = _match(pk)
    denied = _require_referee(request, match)
    if denied:
        return denied
    context = {"match": match, "report_text": "", "verdict": None, "error": None, "source": None,
               "last_hand": _last_report(match), "differences": []}
    if request.method == "POST":
        claimed = None
        if request.POST.get("source") == "last":
            hand = context["last_hand"]
            if hand is None:
                context["error"] = _("No hand of this match was recorded with a full report.")
                return render(request, "referee/check_hand.html", _with_form(context, match), status=400)
            report = hand.report
            claimed = {"winner": hand.winner, "points": hand.points, "ended_by": hand.ended_by}
            context["source"] = hand
            context["report_text"] = json.dumps(report, ensure_ascii=False, indent=1)
        elif request.POST.get("source") == "form":
            report, problem = hand_form.report_from_form(request.POST, match)
            context["form_data"] = request.POST
            if problem:
                context["error"] = problem
                return render(request, "referee/check_hand.html", _with_form(context, match), status=400)
            claimed = report.get("claimed")
            context["report_text"] = json.dumps(report, ensure_ascii=False, indent=1)
        else:
            text = (request.POST.get("report") or "")[:MAX_REPORT_CHARS]
            context["report_text"] = text
            try:
                report = json.loads(text)
            except ValueError as error:
                where = {"line": getattr(error, "lineno", 1), "column": getattr(error, "colno", 1)}
                context["error"] = _("Hand report: this text is not valid JSON (line %(line)s, column "
                                     "%(column)s). Check the quotes, commas and brackets there.") % where
                return render(request, "referee/check_hand.html", _with_form(context, match), status=400)
            if isinstance(report, dict) and isinstance(report.get("claimed"), dict):
                claimed = dict(report["claimed"])
        verdict = check_report(report)
        context["verdict"] = verdict
        if "winner" in verdict:
            context["winner_name"] = _team_name(match, verdict["winner"])
            context["ending"] = ENDING_LABELS.get(verdict.get("ended_by"), verdict.get("ended_by"))
            context["tricks"] = [{**t, "team": _team_name(match, t.get("winner"))} for t in verdict.get("tricks", [])]
        differences = _differences(verdict, claimed)
        for row in differences:
            if row["field"] == "winner":
                row["table"], row["engine"] = _team_name(match, row["table"]), _team_name(match, row["engine"])
            elif row["field"] == "ended_by":
                row["table"] = ENDING_LABELS.get(row["table"], row["table"])
                row["engine"] = ENDING_LABELS.get(row["engine"], row["engine"])
        context["differences"] = differences
        context["claimed"] = claimed
        if verdict.get("error"):
            field = verdict["error"].get("field") or ""
            context["error_where"] = hand_form.event_label(field) or field_word(field)
    return render(request, "referee/check_hand.html", _with_form(context, match))


def _with_form(context: dict, match: Match) -> dict:
    """What the hand form needs: seats named by their players, the cards, the actions, the rows."""
    data = context.get("form_data") or {}
    score = (0, 0)
    game = match.games.order_by("-number").first()
    if game is not None:
        score = (game.score_a, game.score_b)
    context.update({
        "seats": hand_form.seat_choices(match), "cards": hand_form.card_choices(), "actions": hand_form.ACTIONS,
        "deal_rows": [{"seat": seat, "name": name, "cards": [data.get(f"deal_{seat}_{i}", "") for i in range(3)]}
                      for seat, name in hand_form.seat_choices(match)],
        "event_rows": [{"n": row + 1, "i": row, "seat": data.get(f"ev_seat_{row}", ""),
                        "action": data.get(f"ev_action_{row}", ""), "card": data.get(f"ev_card_{row}", "")}
                       for row in range(hand_form.EVENT_ROWS)],
        "form_dealer": data.get("dealer", ""), "form_vira": data.get("vira", ""),
        "form_score": (data.get("score_a", score[0]), data.get("score_b", score[1])),
        "form_claimed": data.get("claimed_winner", ""), "form_points": data.get("claimed_points", ""),
    })
    return context


# ------------------------------------------------------------------------------------ claim

DEALER_CODES = ("bottom_of_deck", "dealer_asked", "wrong_card_count")  # the offender is the dealer (art. 5, 6)


def _outcomes():
    return [("accepted", _("Accepted the truco: pays three (art. 6)")),
            ("run", _("Ran: loses one (art. 6)")),
            ("asked", _("Asked: loses the deal, nobody scores (art. 6)"))]


def _needs(match: Match, code: str) -> dict:
    """Which facts tap 3 asks for ``code``: the offender's seat, the value in play, the art. 6 outcome."""
    entry = CATALOG[code]
    tento = entry.consequence == "tento" or (code == "false_call" and rules_of(match).false_call == "tento")
    return {"seat": code not in DEALER_CODES, "value": tento, "outcome": code == "wrong_card_count"}


def _seats(match: Match, team: int) -> list[dict]:
    """The two seats of ``team`` (team 0: seats 0 and 2; team 1: 1 and 3), named by the pair's players."""
    pair = match.pair(team)
    return [{"seat": team, "name": pair.first_player.name}, {"seat": team + 2, "name": pair.second_player.name}]


def _facts(request, match: Match, code: str, seat: int) -> dict:
    needs = _needs(match, code)
    facts: dict = {}
    if needs["value"]:
        value = _int(request.POST.get("value"))
        if value is not None:  # else the engine's value in play (art. 24; 3 in a mão de onze, art. 18)
            facts["value"] = value
    if needs["outcome"]:
        facts["outcome"] = request.POST.get("outcome", "")
    if code == "saw_partner_cards":
        facts["raised_team"] = seat & 1  # the claim itself says the offender's pair was provoked (art. 14)
    if code == "dealer_asked":
        facts["wrong_deal"] = True  # asked after a wrong deal (art. 6)
    return facts


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def effect_text(match: Match, ruling: Ruling, score) -> str:
    """What the ruling does to the score, for the referee: "Copas scores 3 — 7 to 10"."""
    after = add_points(tuple(score), ruling.beneficiary, ruling.points, rules_of(match)) \
        if ruling.beneficiary is not None else tuple(score)
    if ruling.beneficiary is None or not ruling.points:
        text = _("Nobody scores — %(a)s to %(b)s") % {"a": after[0], "b": after[1]}
        return text + (" · " + _("the deal passes on") if ruling.deal_lost else "")
    name = match.pair(ruling.beneficiary).name
    return ngettext("%(pair)s scores %(points)s — %(a)s to %(b)s", "%(pair)s scores %(points)s — %(a)s to %(b)s",
                    pair_names.number(name)) % {"pair": name, "points": ruling.points, "a": after[0], "b": after[1]}


def _fail(request, error: ServiceError) -> str:
    return page_message(error.message, getattr(error, "field", None))


@require_http_methods(["GET", "POST"])
def claim(request, pk: int):
    match = _match(pk)
    denied = _require_referee(request, match)
    if denied:
        return denied
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    try:
        state = services.table_state(match)
    except Conflict as error:
        messages.error(request, error.message)
        return redirect("scoring:match", pk=match.pk)
    data = request.POST if request.method == "POST" else request.GET
    claimant = _int(data.get("claimant"))
    claimant = claimant if claimant in (0, 1) else None
    code = data.get("code") or ""
    if code not in CATALOG and code != NOT_COVERED:
        code = ""
    context = {"match": match, "teams": [match.pair_a, match.pair_b], "claimant": claimant, "code": code,
               "error": None, "proposal": None,
               "state": {"game": match.games.count(), "hand": _hand_number(match), "score": list(state.score)}}
    if request.method == "POST":
        try:
            return _claim_post(request, match, claimant, code, url)
        except Forbidden as error:
            raise PermissionDenied(error.message) from None
        except ServiceError as error:
            context["error"] = _fail(request, error)
    if claimant is not None:
        context["claimant_pair"] = match.pair(claimant)
        context["offender_seats"] = _seats(match, 1 - claimant)
    if code:
        context["infraction"] = CATALOG.get(code)
    if claimant is None:
        context["pending"] = [{"ruling": r, "title": CATALOG[r.code].title if r.code in CATALOG else r.code,
                               "claimant": match.pair(r.claimant_team)}
                              for r in match.rulings.filter(status=Ruling.Status.PROPOSED).order_by("-pk")[:5]]
    elif not code:
        context["infractions"] = _infractions_by_use()
    elif code != NOT_COVERED:
        ruling_id = _int(request.GET.get("ruling"))
        proposal = Ruling.objects.filter(pk=ruling_id, match=match, status=Ruling.Status.PROPOSED).first() \
            if ruling_id else None
        if proposal is not None:
            context["proposal"] = proposal
            context["infraction"] = CATALOG.get(proposal.code)
            context["claimant_pair"] = match.pair(proposal.claimant_team)
            context["offender_pair"] = match.pair(proposal.offender_team)
            context["step_label"] = _step_label(proposal.step)
            context["offender_name"] = next((s["name"] for s in _seats(match, proposal.offender_seat & 1)
                                             if s["seat"] == proposal.offender_seat), "")
            context["effect"] = effect_text(match, proposal, state.score)
        else:
            context["needs"] = _needs(match, code)
            # the engine's value in play (art. 24): fixed in a mão de onze or de ferro, nobody raising (art. 19)
            fixed = value_fixed(state.score)
            context["values"] = (state.value,) if fixed else services.HAND_VALUES
            context["default_value"] = state.value
            context["outcomes"] = _outcomes()
            context["dealer_seat"] = state.dealer
            context["dealer_name"] = seat_names(match)[state.dealer]  # a name, not "assento 2"
    status = 400 if context["error"] else 200
    return render(request, "referee/claim.html", context, status=status)


def _infractions_by_use() -> list[dict]:
    """The catalog, the infractions claimed most often first (then in the regulation's order)."""

    uses = dict(Ruling.objects.values_list("code").annotate(n=Count("pk")).order_by())
    items = [{"code": c, "article": i.article, "title": i.title, "window": i.claim_window,
              "house": i.house_sanction, "uses": uses.get(c, 0)}
             for c, i in CATALOG.items()]
    return sorted(items, key=lambda item: -item["uses"])  # sorted is stable: ties keep the catalog's order


def _step_label(step: str) -> str:
    return {"warning": _("a warning, no points"), "tento": _("the tento"),
            "match_loss": _("the loss of the match")}.get(step, step)


def _hand_number(match: Match) -> int:
    game = match.games.order_by("-number").first()
    return game.hands.count() + 1 if game else 1


def _claim_post(request, match: Match, claimant, code: str, url: str):
    if request.POST.get("action") == "confirm":
        ruling = Ruling.objects.filter(pk=_int(request.POST.get("ruling")), match=match).first()
        if ruling is None:
            raise Http404(_("No ruling with this number."))
        score = services.table_state(match).score
        effect = effect_text(match, ruling, score)
        ruling = services.confirm(ruling, request.user)
        messages.success(request, _("Ruling confirmed (%(article)s): %(effect)s.") % {
            "article": ruling.article, "effect": effect})
        return redirect("scoring:match", pk=match.pk)
    if claimant is None or not code:
        raise ServiceError(_("Say who claims and which infraction."), "code")
    seat = _int(request.POST.get("seat"))
    if code == NOT_COVERED:
        reason = (request.POST.get("reason") or "").strip()
        seat = seat if seat is not None else 1 - claimant
        ruling = services.propose(match, claimant, seat, NOT_COVERED, {"description": reason}, request.user)
        services.escalate(ruling, request.user, reason)
        messages.success(request, _("Case sent to the organizer, who decides it (art. 26)."))
        return redirect("scoring:match", pk=match.pk)
    if code in DEALER_CODES:
        seat = services.table_state(match).dealer
    if seat is None:
        raise ServiceError(_("Say who committed it."), "offender_seat")
    ruling = services.propose(match, claimant, seat, code, _facts(request, match, code, seat), request.user)
    return redirect(f"{url}?claimant={claimant}&code={code}&ruling={ruling.pk}")


@require_POST
def answer_call(request, pk: int):
    """A referee takes a call, closes a plain call as attended, confirms a disputed entry or records the
    correction (referee/calls.py)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("referee:tables"))
    made = get_object_or_404(RefereeCall.objects.select_related("match"), pk=pk)
    action = request.POST.get("action", "take")
    try:
        if action == "take":
            calls.take(made, request.user)
        else:
            calls.resolve(made, request.user, action)
    except ServiceError as error:
        messages.error(request, error.message)
    target = request.POST.get("next", "")  # the súmula page's form comes back to it
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                                  require_https=request.is_secure()):
        return redirect(target)
    return redirect("referee:tables")


@require_POST
def settle_conflict(request, pk: int):
    """A referee settles a conflict between the phones of a table (referee/calls.py)."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("referee:tables"))
    try:
        calls.settle_conflict(pk, request.user)
        messages.success(request, _("Conflict settled: the table's phones no longer show it."))
    except ServiceError as error:
        messages.error(request, error.message)
    return redirect("referee:tables")
