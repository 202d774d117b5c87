"""Presence at the table from the table page: each pair taps "estamos na mesa"; the page
shows who is there and the match's clock (called, started, time limit). The POST is
``/mesa/<token>/presenca/`` with ``team`` 0 or 1 and the ``match`` the page showed (a table card's page
left open on the previous match is not obeyed): the table's link or card is the credential, as for the
rest of the page (``tournaments.services.presence``)."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from scoring.models import Match
from tournaments.models import MatchCall
from tournaments.services import clock, presence, ready

from .table_views import _link


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


@csrf_exempt  # no session: the token in the URL is the credential
@require_POST
def confirm(request, token: str):
    link, _card = _link(token)
    if link is None:
        raise Http404("no match at this table now")
    team = request.POST.get("team", "")
    if request.POST.get("match") != str(link.match_id):  # a page left open on the table's previous match
        return redirect(request.path[: -len("presenca/")])
    try:
        presence.confirm_presence(link.match_id, int(team) if team in ("0", "1") else -1)
    except ServiceError:
        pass  # the page shows the state as it is (already decided, not called)
    return redirect(request.path[: -len("presenca/")])
