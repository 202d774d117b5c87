"""The table page: what a phone opens from the QR code of the table card,
with no account and no login (mounted at /mesa/).

``/mesa/<token>/`` is one screen: the running score, the hand to enter (value buttons by pair),
the last entries with who entered them (and "disputed"), every entry of the match by game (collapsed),
undo, "call the referee", and behind "more" the claims, appeals, signatures and the change of a
player's PIN. It updates in place:
the page's script talks to the REST API with ``Authorization: Table <token>`` and an
``Idempotency-Key`` per entry, keeps entries in IndexedDB while the network is down and sends
them in order when it is back (static/table.js, kept loadable offline by /mesa/sw.js).

``/mesa/<token>/estado/`` is the page's state as JSON; ``/mesa/<token>/pin/`` changes a player's PIN
with the current one (tournaments.pins).

The token is a match's table link, or the card of a physical table (
``tables.cards``): then the page is the match assigned to that table now (``match`` and
``card`` in the boot and the state: the page reloads when ``match`` changes), or "no match at this
table now" between rounds (the state's ``match`` is null and ``idle`` says so).
"""
from __future__ import annotations

import json

from django.http import Http404, HttpResponse, JsonResponse, RawPostDataException
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from config.api import error_body
from config.errors import ServiceError
from referee.engine.game import value_fixed, value_in_play
from referee.engine.infractions import CATALOG
from scoring import access, holds
from scoring import services as scoring
from scoring.display import load_match
from scoring.entry_screen import screen_boot, screen_state, screen_texts
from scoring.models import Match, Signature
from scoring.words import engine_messages
from scoring.pins import client_of, set_device_cookie
from tables import cards as table_cards
from tables import conflicts as table_conflicts
from tables.links import closed_by_walkover, ensure_links, resolve, walkover_refusal
from tournaments import pins
from room.models import MatchCall
from room.services import clock, ready

from . import appeals, calls, services
from .models import Ruling

CLAIMABLE = ("burned_card", "saw_partner_cards", "false_call", "two_cards_at_once", "card_out_of_turn",
             "guidance_word", "stolen_card", "looked_at_covered", "stolen_points")


def _link(token: str):
    """The match's table link the token names, directly or through the table's card (the card
    of a physical table answers with the match assigned to it now); None when a card's table has no match
    now (with the card as ``_link.card``); 404 for anything else."""
    link = resolve(token)
    if link is not None:
        return link, None
    card = table_cards.resolve(token)
    if card is None:
        if closed_by_walkover(token):   # a W.O. (art. 26) is said as such: 410, the page says why
            raise WalkoverClosed(walkover_refusal())
        raise Http404(_("This table link no longer works: the súmula was received, or the organizer issued a "
                        "new link. Ask the organizing table."))
    match = table_cards.current_match(card)
    link = ensure_links([match]).get(match.pk) if match is not None else None
    if link is None:  # no match now, or its links were revoked (closed until a reissue)
        return None, card
    return link, card


class WalkoverClosed(Exception):
    """The token is the link of a match decided by W.O. (art. 26): closed to entries, said so."""


def presence_context(match: Match) -> dict | None:
    """What the table page shows of the room: who said they are at the table, and the clock."""
    if match.tournament_id is None or match.table is None or match.round_id is None:
        return None
    room = ready.room_of(match.tournament_id)
    call = MatchCall.objects.filter(match=match).first()
    now = timezone.now()
    state = clock.clock_of(match, room, now, call=call, first_hand=clock.first_hands([match.pk]).get(match.pk))
    limit_at = (state.started_at + timezone.timedelta(minutes=room.time_limit)
                if room.time_limit and state.started_at else None)
    return {"a": call.present_a_at if call else None, "b": call.present_b_at if call else None,
            "clock": state, "limit_at": limit_at, "room": room, "open": state.started_at is None,
            "time_up": limit_at is not None and now >= limit_at, "procedure": room.end_of_time,
            "pair_a": match.pair_a, "pair_b": match.pair_b, "match_id": match.pk}


def _walkover_answers(view):
    """``view`` answers a W.O.'s link with 410 and the reason (art. 26): a page for the page, JSON else. The
    service worker drops a 410's copies like a 404's."""
    from functools import wraps

    @wraps(view)
    def wrapped(request, token: str, *args, **kwargs):
        try:
            return view(request, token, *args, **kwargs)
        except WalkoverClosed as closed:
            if view.__name__ == "page":
                return render(request, "referee/table_closed.html", {"message": str(closed)}, status=410)
            return JsonResponse(error_body("token", str(closed)), status=410)
    return wrapped


def _card_data(card) -> dict | None:
    return {"table": card.table, "tournament": card.tournament.name} if card is not None else None


def _idle(card) -> dict:
    """A card's state between rounds: no match at this table now."""
    return {"match": None, "card": _card_data(card),
            "idle": _("No match at table %(table)s now: this page follows the next one by itself.")
            % {"table": card.table}}


def table_state(match: Match, known_preview: str | None = None) -> dict:
    """Everything the table page shows, as JSON: the entry screen's state (scoring.entry_screen) with the
    disputes (``disputes``: every one, open or settled; ``signing.held``: the open ones, which stop the
    signatures), the pending conflicts between the table's phones (``conflicts``,
    ``tables.conflicts``), the open calls, the rulings and the signatures. ``known_preview``: the key of the
    engine's preview the page holds (sent again only when it changed)."""
    disputes = calls.disputes_data(match)
    data = screen_state(match, disputes={(d["game"], d["hand"]) for d in disputes if d["open"]},
                        known_preview=known_preview)
    version = scoring.current_version(match)
    signatures = {s.role: s for s in version.signatures.select_related("player")} if version else {}
    now = timezone.now()
    rulings = []
    for ruling in Ruling.objects.filter(match=match).order_by("created_at"):
        deadline = appeals.appeal_deadline(ruling)
        rulings.append({"id": ruling.pk, "message": engine_messages.render_stored(ruling.message_data, ruling.message, match),
                        "article": ruling.article,
                        "status": ruling.get_status_display(), "points": ruling.points,
                        "appealable": deadline is not None and deadline > now,
                        "deadline": deadline.isoformat() if deadline else None})
    held = [{"id": d["id"], "game": d["game"], "hand": d["hand"],
             "message": holds.Hold(id=d["id"], game=d["game"], hand=d["hand"]).message} for d in disputes if d["open"]]
    return {
        **data,
        "match": match.pk,  # a table card's page reloads when the table's match changes
        "calls": calls.table_calls(match),  # waiting, or answered ("on the way: Carla, 14:35") until closed
        "disputes": disputes,  # every dispute, open and settled
        "conflicts": table_conflicts.pending_data(match),  # a phone's entry refused as stale, until it chooses
        "signing": {
            "signable": (version is not None and match.winner is not None and match.status == Match.Status.OPEN
                         and not held),
            "held": held,
            "version": version.number if version else None, "digest": version.digest if version else None,
            "signed": {role: (signatures[role].player.name if role in signatures and signatures[role].player_id
                              else None) for role in ("team0", "team1")},
            "countersigned": Signature.Role.REFEREE in signatures,
        },
        "rulings": rulings,
        "claim": _claim_value(match, data["state"]),
    }


def _claim_value(match: Match, state: dict) -> dict | None:
    """The tento in play a claim at the table preselects (art. 24 "perda do tento em jogo": the engine's
    value for this score, 1 before any raise, art. 11), with the values the table may state instead (only
    the hand's own in a mão de onze or de ferro, where nobody raises, art. 18, 19); None once the match is
    over (infractions are claimed while it is played, art. 25). ``state``: the entry state the page's
    state already holds (the súmula is not read a second time on every poll)."""
    if match.status != Match.Status.OPEN or state.get("game") is None:
        return None
    try:
        scoring.refuse_closed(match)  # a W.O., a disqualification or a withdrawal closed the súmula (art. 26)
    except ServiceError:
        return None
    score = tuple(state["score"])
    value = value_in_play(score, scoring.rules_of(match), None)
    return {"value": value, "values": [value] if value_fixed(score) else list(services.HAND_VALUES)}


def texts() -> dict:
    """The table page's own words, beside the entry screen's (placeholders %(name)s)."""
    return {
        **screen_texts(),
        "dispute": _("Dispute"),
        "dispute_theirs": _("Dispute the súmula's (call the referee)"),
        "called": _("Referee called at %(time)s: wait at the table."),
        "call_waiting": _("A referee was called at %(time)s."),
        "nothing_to_undo": _("Nothing to undo."),
        "sign_title": _("Signatures (art. 25): each pair confirms every entry"),
        "sign": _("Sign"),
        "signed_by": _("signed by %(name)s"),
        "all_signed": _("Both pairs signed: take the súmula to the organizing table."),
        "pin": _("PIN"),
        "who_signs": _("Who signs?"),
        "appeal_filed": _("Appeal recorded (art. 26): the organizer decides it; until then the ruling stands."),
        "no_rulings": _("No ruling to appeal."),
        "changed": _("PIN changed."),
        "claim_where": _("Game %(game)s · hand %(hand)s · tento in play: %(value)s (art. 24)"),
        "claim_over": _("The match is over: infractions are claimed while it is played (art. 25)."),
        # the disputes' outcome (state.disputes) and a table card's next match
        "dispute_open": _("Disputed: the súmula waits for the referee."),
        "dispute_confirmed": _("The referee confirmed hand %(hand)s of game %(game)s."),
        "dispute_corrected": _("The referee corrected the súmula (hand %(hand)s of game %(game)s)."),
        "next_match": _("This table has a new match: loading it."),
        # a conflict of the other phone of this table (state.conflicts), or this phone's refused undo
        "other_conflict": _("Conflict on the other phone of this table: game %(game)s, hand %(hand)s was entered "
                            "differently there. A player chooses on that phone what stays (or call the referee)."),
        "other_undo_conflict": _("The other phone of this table tried to undo entry %(position)s of game %(game)s "
                                 "after an entry of this one: refused, nothing was undone."),
        "own_undo_conflict": _("This phone's undo (game %(game)s, entry %(position)s) was refused: the other phone "
                               "entered since. Check the entries."),
        "own_undo_ok": _("OK, keep the súmula as it is"),
        # the referee: calls and disputes queued like hands, their answer, the table's withdrawal
        "call_label": _("Call to the referee"),
        "calling": _("Calling the referee…"),
        "call_answered": _("A referee answered at %(time)s."),
        "call_waiting_since": _("Referee called at %(time)s · waiting for an answer"),
        "call_coming": _("Referee on the way: %(name)s, %(time)s"),
        "dispute_label": _("Dispute of G%(game)s · hand %(hand)s"),
        "dispute_confirm_title": _("Dispute hand %(hand)s of game %(game)s?"),
        "dispute_confirm_text": _("%(what)s. Disputing calls the referee to the table; nobody signs the súmula until "
                                  "the referee decides (art. 25). You can withdraw it until the referee answers."),
        "dispute_sent": _("Dispute sent: referee called at %(time)s. You can withdraw it until the referee answers."),
        "dispute_cancelled": _("Not disputed: nothing was sent."),
        "withdraw": _("Withdraw the dispute"),
        "withdraw_call": _("Cancel the call"),
        "withdraw_label": _("Withdrawal of the dispute of G%(game)s · hand %(hand)s"),
        "withdraw_call_label": _("Cancellation of the call"),
        "withdrawing": _("Withdrawing…"),
        "dispute_withdrawn": _("Dispute withdrawn by the table."),
        "dispute_withdrawn_now": _("Dispute withdrawn: the súmula is no longer held by it."),
        "call_withdrawn": _("Call cancelled."),
        "action_refused": _("%(what)s not sent: %(message)s"),
        "keep_tab": _("Do not close or reload this tab: %(n)s entries are only on this phone until the network is "
                      "back (over plain HTTP the page cannot reopen offline)."),
    }


def _players(match: Match) -> list[list[dict]]:
    return [[{"id": p.pk, "name": p.name} for p in access.pair_players(pair)] for pair in (match.pair_a, match.pair_b)]


@never_cache
@require_GET
@_walkover_answers
def page(request, token: str):
    link, card = _link(token)
    if link is None:  # a table card between rounds
        response = render(request, "referee/table_idle.html", {"card": card, **_idle(card)})
        response["Refresh"] = "30"  # the next round's match appears without a tap
        set_device_cookie(request, response)
        return response
    match = load_match(link.match_id)
    boot = screen_boot(match)
    boot.update({
        "token": link.token, "match": match.pk, "card": _card_data(card), "players": _players(match), "t": texts(),
        "claims": [{"code": code, "title": CATALOG[code].title, "article": CATALOG[code].article}
                   for code in CLAIMABLE if code in CATALOG],
        "initial": table_state(match),
    })
    boot["urls"].update({
        "state": request.path + "estado/", "pin": request.path + "pin/",
        "sign": f"/api/scoring/matches/{match.pk}/signatures/",
        "calls": f"/api/referee/matches/{match.pk}/calls/",
        "withdraw": reverse("referee-call-withdraw", kwargs={"pk": 0}),
        "conflict": f"/api/scoring/matches/{match.pk}/conflicts/0/",
        "rulings": f"/api/referee/matches/{match.pk}/rulings/", "appeal": "/api/referee/rulings/0/appeals/",
        "sw": reverse("table:sw"), "script": reverse("table:script"),
    })
    response = render(request, "referee/table.html", {"match": match, "boot": boot,
                                                      "presence": presence_context(match)})
    set_device_cookie(request, response)  # each phone counts its own PIN failures (scoring/pins.py)
    return response


@never_cache
@require_GET
@_walkover_answers
def state(request, token: str):
    link, card = _link(token)
    if link is None:
        return JsonResponse(_idle(card))
    # ?preview=<key>: the engine's preview the page holds, not sent again while unchanged (scoring.entry_screen)
    return JsonResponse({**table_state(load_match(link.match_id), request.GET.get("preview")), "card": _card_data(card)})


@csrf_exempt  # no session: the token in the URL is the credential
@require_POST
@_walkover_answers
def change_pin(request, token: str):
    """A player of the match changes their own PIN with the current one."""
    link, card = _link(token)
    if link is None:
        return JsonResponse(error_body("", _idle(card)["idle"]), status=409)
    match = load_match(link.match_id)
    try:
        # UTF-8 without a byte order mark, as the API's parser (config/api.py): json.loads of bytes would
        # also take UTF-16 and a BOM
        data = json.loads((request.body or b"{}").decode("utf-8"))
    except (ValueError, RawPostDataException):  # a form post: its body was read as a form (400, not 500)
        data = None
    if not isinstance(data, dict):
        return JsonResponse(error_body("", _("Send a JSON object.")), status=400)
    team = next((t for t, players in enumerate(_players(match)) if data.get("player") in {p["id"] for p in players}),
                None)
    if team is None:
        return JsonResponse(error_body("player", _("Only a player of this table changes their PIN here.")), status=403)
    try:
        # the current PIN is checked as for signing (same lockout after wrong PINs)
        player = services.verify_player(match, team, data["player"], pin=str(data.get("current") or "") or None,
                                        code=None, client=client_of(request))
        pins.set_own_pin(player, str(data.get("new") or ""))
    except ServiceError as error:
        return JsonResponse(error_body(error.field, error.message), status=error.status)  # the API's one shape
    return JsonResponse({"changed": True})


def _script(request, template: str) -> HttpResponse:
    response = HttpResponse(render(request, template).content, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def service_worker(request):
    """The service worker that keeps the table page loadable offline (scope /mesa/)."""
    response = _script(request, "referee/table_sw.js")
    response["Service-Worker-Allowed"] = "/mesa/"
    return response


@require_GET
def script(request):
    """The table page's script (served here, not as a static file: it must load offline from the same scope)."""
    return _script(request, "referee/table.js")
