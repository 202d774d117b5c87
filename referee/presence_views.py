"""Presence at the table from the table page: each pair taps "estamos na mesa"; the page
shows who is there and the match's clock (called, started, time limit). The POST is
``/mesa/<token>/presenca/`` with ``team`` 0 or 1 and the ``match`` the page showed (a table card's page
left open on the previous match is not obeyed): the table's link or card is the credential, as for the
rest of the page (``room.services.presence``). What the page shows of it is
``referee.table_views.presence_context``."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from config.errors import ServiceError
from room.services import presence

from .table_views import _link


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
