"""Pages of the súmula (mounted at /sumulas/): the phone-first entry page for the referee, signing,
corrections and the public verification of a digest.

Thin views: plain forms, POST-redirect-GET; every rule and permission is the service's
(``scoring.services``), whose errors are shown as messages naming the field and the article.
With JavaScript the entry page enters hands in place instead (``scoring.entry_views``); these
forms stay its fallback.
"""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from referee.engine.game import eleven_state
from referee.engine.summary import ENDINGS

from . import access, entry_views, pins, services
from .display import ENDING_LABELS, load_match, match_context, seat_names, verification
from .models import Match
from .words import engine_messages, pair_names
from .words.field_words import page_message


def _match(pk: int) -> Match:
    try:
        return load_match(pk)
    except Match.DoesNotExist:
        raise Http404(_("No match with this number.")) from None


PENDING = "scoring_pending_entry"


def _require_enter(request, match: Match):
    if not request.user.is_authenticated:
        if request.method == "POST":
            # The session expired mid-entry: keep what was sent and come back to the
            # page after the login (a GET, not this POST-only URL), which offers to record it.
            request.session[PENDING] = {"match": match.pk, "path": request.path,
                                        "data": {k: v for k, v in request.POST.items() if k != "csrfmiddlewaretoken"}}
            return redirect_to_login(reverse("scoring:match", kwargs={"pk": match.pk}))
        return redirect_to_login(request.get_full_path())
    if not access.can_enter(request.user, match):
        raise PermissionDenied(_("Only the match's referee or the tournament's organizer enters this súmula."))
    return None


def _back(request, match: Match, default: str = "scoring:match") -> HttpResponseRedirect:
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return HttpResponseRedirect(target)
    return redirect(default, pk=match.pk)


def _fail(request, error: services.ScoringError) -> None:
    messages.error(request, page_message(error.message, error.field))


def _int(value, default=None):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


@require_GET
def match_list(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    matches = services.matches_for(request.user)[:200]
    return render(request, "scoring/match_list.html", {"matches": matches})


@require_GET
def match_entry(request, pk: int):
    match = _match(pk)
    denied = _require_enter(request, match)
    if denied:
        return denied
    context = match_context(match, request.user)
    if match.status != Match.Status.RECEIVED:  # the table's own page, to hand over or to print
        from tables.links import ensure_links, table_path

        from .site import absolute

        link = ensure_links([match]).get(match.pk)
        context["table_url"] = absolute(table_path(link), request) if link else None
    if context["state"].get("game"):  # the entry screen that updates in place
        context["boot"] = entry_views.page_boot(request, match, context["games"])
        context["report_hint"] = entry_views.report_hint(context["boot"]["seats"], context["state"]["dealer"],
                                                         context["state"]["score"])
    pending = request.session.get(PENDING)
    if pending and pending.get("match") == match.pk:
        context["pending_entry"] = pending
        del request.session[PENDING]
    return render(request, "scoring/match_entry.html", context)


def _write(request, pk: int, action):
    """Run ``action(match)`` for a POST of the entry page; errors become messages; back to the page."""
    match = _match(pk)
    denied = _require_enter(request, match)
    if denied:
        return denied
    try:
        note = action(match)
    except services.Forbidden as error:
        raise PermissionDenied(error.message) from None
    except services.ScoringError as error:
        _fail(request, error)
    else:
        if note:
            messages.success(request, note)
    return _back(request, match)


@require_POST
def record_hand(request, pk: int):
    def action(match):
        ended_by = request.POST.get("ended_by") or "tricks"
        value = _int(request.POST.get("value"), request.POST.get("value"))
        winner = _int(request.POST.get("winner"))
        if ended_by == "deal_lost" or value == 0:
            winner = None  # nobody scores (art. 5, 6, 11.4)
        elif ended_by == "eleven_refused" and winner is None:
            game = match.games.order_by("-number").first()  # the team at 11 runs: the other scores (art. 18)
            runner = eleven_state((game.score_a, game.score_b))[1]
            winner = None if runner is None else 1 - runner
        entry = {"winner": winner, "ended_by": ended_by, "value": value}
        try:
            hand = services.record_hand(match, entry, request.user, expect=request.POST.get("expect"))
        except services.Conflict as error:
            number = error.field == "expect" and _same_as_last(match, entry, request.user)
            if number:  # a double tap: the first tap recorded it; said calmly, not as an error
                messages.info(request, _("Hand %(number)s was already recorded by your first tap: nothing was done "
                                         "again.") % {"number": number})
                return None
            raise
        if hand.winner is None:
            note = _("Hand %(number)s recorded: nobody scores.") % {"number": hand.number}
        else:
            note = _("Hand %(number)s recorded: %(pair)s +%(points)s.") % {
                "number": hand.number, "pair": match.pair(hand.winner).name, "points": hand.points}
        if hand.game_over:
            over = hand.game_over
            note = _("Game %(game)s: %(pair)s %(a)s × %(b)s") % {
                "game": over["number"], "pair": over["winner_name"], "a": over["score"][over["winner"]],
                "b": over["score"][1 - over["winner"]]} + " · " + note
        return note

    return _write(request, pk, action)


def _same_as_last(match: Match, entry: dict, user) -> int | bool:
    """The last hand's number when it is this very entry, just recorded by this user (the second tap of a
    double tap); else False."""
    from datetime import timedelta

    from django.utils import timezone

    from .models import HandEntry

    last = HandEntry.objects.filter(game__match=match).order_by("-game__number", "-position").first()
    return (last is not None and last.created_by_id == user.pk and last.winner == entry["winner"]
            and last.ended_by == entry["ended_by"] and last.value == entry["value"]
            and last.created_at > timezone.now() - timedelta(seconds=30)) and last.number


@require_POST
def record_report(request, pk: int):
    def action(match):
        text = request.POST.get("report") or ""
        try:
            report = json.loads(text)
        except ValueError as error:
            raise services.ScoringError(_("This is not valid JSON: %(error)s") % {"error": error}, "report") from None
        if not isinstance(report, dict):
            raise services.ScoringError(_("The hand report must be a JSON object."), "report")
        hand = services.record_hand(match, {"report": report}, request.user)
        note = ngettext("Hand %(number)s recorded from its report: %(ending)s, %(points)s point.",
                        "Hand %(number)s recorded from its report: %(ending)s, %(points)s points.", hand.points) % {
            "number": hand.number, "ending": ENDING_LABELS.get(hand.ended_by, hand.ended_by), "points": hand.points}
        for violation in hand.violations:
            messages.warning(request, f"{violation.get('article', '')}: "
                                      f"{engine_messages.render(violation, match)}")
        return note

    return _write(request, pk, action)


@require_POST
def set_dealer(request, pk: int):
    def action(match):
        game = services.set_first_dealer(match, _int(request.POST.get("dealer"), -1), request.user)
        return _("Game %(game)s: %(name)s deals first (art. 1).") % {  # by name, as on the PDF
            "game": game.number, "name": seat_names(match)[game.first_dealer]}

    return _write(request, pk, action)


@require_POST
def record_penalty(request, pk: int):
    def action(match):
        penalty = services.record_penalty(
            match, _int(request.POST.get("offender"), -1), _int(request.POST.get("points"), 0),
            request.POST.get("article", ""), request.POST.get("reason", ""), request.user,
            expect=request.POST.get("expect"),
        )
        return _("Penalty recorded (%(article)s): %(pair)s +%(points)s.") % {
            "article": penalty.article, "pair": match.pair(penalty.beneficiary).name, "points": penalty.points}

    return _write(request, pk, action)


@require_POST
def undo(request, pk: int):
    def action(match):
        last = (_int(request.POST.get("game"), 0), _int(request.POST.get("position"), 0))
        services.undo_last(match, request.user, expect=request.POST.get("expect"),
                           last=last if all(last) else None)  # a form of an older page: ``expect`` alone
        return _("The last entry was undone (it stays in the match's audit trail).")

    return _write(request, pk, action)


@require_POST
def issue_code(request, pk: int):
    def action(match):
        team = _int(request.POST.get("team"), -1)
        _record, code = services.issue_code(match, team, request.user)
        return _("One-time code for %(pair)s: %(code)s (valid 10 minutes, single use).") % {
            "pair": match.pair(team).name, "code": code}

    return _write(request, pk, action)


@require_POST
def countersign(request, pk: int):
    def action(match):
        services.countersign(match, request.user, digest=request.POST.get("digest") or None,
                             reason=request.POST.get("reason", ""))
        return _("Countersigned by the referee.")

    return _write(request, pk, action)


@require_POST
def receive(request, pk: int):
    match = _match(pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("scoring:match", kwargs={"pk": pk}))
    try:
        services.mark_received(match, request.user)
    except services.Forbidden as error:
        raise PermissionDenied(error.message) from None
    except services.ScoringError as error:
        _fail(request, error)
    else:
        messages.success(request, _("Súmula received at the organizing table: the result is official (art. 25)."))
    return _back(request, match)


def sign(request, pk: int):
    """A player signs for their pair (PIN or one-time code). Public: the PIN is the credential."""
    match = _match(pk)
    if not access.can_read(request.user, match):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    if request.method == "POST":
        role = request.POST.get("role", "")
        try:
            signature = services.sign(
                match, role, _int(request.POST.get("player"), 0),
                pin=request.POST.get("pin") or None, code=request.POST.get("code") or None,
                digest=request.POST.get("digest") or None, client=pins.client_of(request), by=request.user,
            )
        except services.Forbidden as error:
            if error.field != "player":  # a wrong PIN or code: say so and let them try again
                _fail(request, error)
                return _back(request, match, "scoring:sign")
            context = match_context(match, request.user)  # signing for the other pair: refused outright
            context["sign_error"] = error
            return render(request, "scoring/sign.html", context, status=403)
        except services.ScoringError as error:
            _fail(request, error)
        else:
            pair_name = match.pair(0 if role == "team0" else 1).name
            messages.success(request, pair_names.contract(_("%(player)s signed for %(pair)s.") % {
                "player": signature.player.name, "pair": pair_name}, pair_name))
        return _back(request, match, "scoring:sign")
    return render(request, "scoring/sign.html", match_context(match, request.user))


@require_POST
def pin_unlock(request, pk: int):
    """The referee (or the organizer) unlocks the PIN of a player of the match (scoring/pins.py)."""
    match = _match(pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    try:
        pins.unlock(match, _int(request.POST.get("player"), 0), request.user)
    except services.Forbidden as error:
        raise PermissionDenied(error.message) from None
    messages.success(request, _("PIN unlocked: its failed attempts were cleared."))
    return _back(request, match, "scoring:sign")


def correct(request, pk: int):
    match = _match(pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not access.can_correct(request.user, match):
        raise PermissionDenied(_("Only the match's referee or the tournament's organizer corrects the súmula."))
    context = match_context(match, request.user)
    context["hand_endings"] = [(code, ENDING_LABELS[code]) for code in ENDINGS]
    if request.method == "POST":
        change = _change_from(request.POST)
        try:
            version = services.correct(match, [change], request.POST.get("reason", ""), request.user)
        except services.ScoringError as error:
            _fail(request, error)
            context["form"] = request.POST
            return render(request, "scoring/correct.html", context, status=400)
        messages.success(request, _("Correction recorded as version %(number)s: the pairs sign again.")
                         % {"number": version.number})
        return redirect("scoring:match", pk=match.pk)
    context["form"] = {}
    return render(request, "scoring/correct.html", context)


def _change_from(data) -> dict:
    op = data.get("op", "")
    change = {"op": op, "game": _int(data.get("game"))}
    if op == "remove_entry":
        change["position"] = _int(data.get("position"))
    elif op in ("replace_hand", "insert_hand"):
        ended_by = data.get("ended_by") or "tricks"
        value = _int(data.get("value"))
        winner = _int(data.get("winner"))
        change.update({"winner": None if ended_by == "deal_lost" or value == 0 else winner,
                       "ended_by": ended_by, "value": value})
        if op == "replace_hand":
            change["hand"] = _int(data.get("hand"))
        elif data.get("after"):
            change["after"] = _int(data.get("after"))
    elif op == "insert_penalty":
        change.update({"offender": _int(data.get("offender")), "points": _int(data.get("points")),
                       "article": data.get("article", ""), "reason": data.get("penalty_reason", "")})
        if data.get("after"):
            change["after"] = _int(data.get("after"))
    elif op == "set_first_dealer":
        change["dealer"] = _int(data.get("dealer"))
    return change


@require_GET
def verify_form(request):
    digest = (request.GET.get("digest") or "").strip().lower()
    if digest:
        return redirect("scoring:verify", digest=digest)
    return render(request, "scoring/verify_form.html")


@require_GET
def verify(request, digest: str):
    found = verification(digest.strip().lower())
    if found is None:
        return render(request, "scoring/verify_not_found.html", {"digest": digest}, status=404)
    return render(request, "scoring/verify.html", found)
