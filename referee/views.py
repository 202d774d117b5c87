"""Referee pages (mounted at /arbitragem/), phone-first, for the match's referee or the organizer.

- ``tables``: the matches assigned to the logged-in referee (``Match.referee``, or the
  ``TableAssignment`` of the match's table when the match has none), with score and súmula status;
- ``check_hand``: the rules engine's verdict on a pasted hand report, or on the last recorded one,
  and how it differs from what the table recorded. The verdict can reveal hidden cards, so only
  the match's referee and the organizer see it (``scoring.access.can_enter``).

Thin views: the engine (``referee.engine``) and the súmula's access rules decide everything.
"""
from __future__ import annotations

import json

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Exists, OuterRef, Q
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from referee.engine import check_report
from scoring import access
from scoring.content import match_queryset
from scoring.display import ENDING_LABELS, load_match
from scoring.models import Game, HandEntry, Match
from tournaments.models import TableAssignment

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
    if not access.can_enter(request.user, match):
        raise PermissionDenied(_("Only the match's referee or the tournament's organizer may do this."))
    return None


def assigned_matches(user):
    """Matches refereed by ``user``: their own, or at a table assigned to them (round or tournament-wide)."""
    table = TableAssignment.objects.filter(referee=user, tournament=OuterRef("tournament"), table=OuterRef("table"))
    table = table.filter(Q(round__isnull=True) | Q(round=OuterRef("round")))
    return match_queryset().filter(Q(referee=user) | Q(referee__isnull=True, table__isnull=False) & Exists(table))


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
    open_ = _with_scores(list(mine.exclude(status=Match.Status.RECEIVED)[:100]))
    done = _with_scores(list(mine.filter(status=Match.Status.RECEIVED).order_by("-received_at", "-pk")[:20]))
    return render(request, "referee/tables.html", {
        "open_matches": open_, "done_matches": done, "is_staff": request.user.is_staff,
    })


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
                return render(request, "referee/check_hand.html", context, status=400)
            report = hand.report
            claimed = {"winner": hand.winner, "points": hand.points, "ended_by": hand.ended_by}
            context["source"] = hand
            context["report_text"] = json.dumps(report, ensure_ascii=False, indent=1)
        else:
            text = (request.POST.get("report") or "")[:MAX_REPORT_CHARS]
            context["report_text"] = text
            try:
                report = json.loads(text)
            except ValueError as error:
                context["error"] = _("This is not valid JSON: %(error)s") % {"error": error}
                return render(request, "referee/check_hand.html", context, status=400)
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
    return render(request, "referee/check_hand.html", context)
