"""What waits for the organizer on the referee's side, for ``tournaments.waiting`` (registered in
``RefereeConfig.ready``): calls to the referee not taken, disputed entries not resolved, a table's
phones at odds (answered on the page "Minhas mesas", which shows them to the organizer too:
``calls.open_calls_for``), late tables (a W.O. proposal, past the time limit: the room monitor), rulings
sent up by a referee and appeals not decided (art. 26, the review page).

Fixed queries for the counts; the late tables read the monitor's tiles of the tournaments in
progress only (a few queries each: an organizer runs one or two on a day).
"""
from __future__ import annotations

from django.db.models import Count, Q
from django.urls import reverse
from django.utils.translation import ngettext

from scoring.models import EntryConflict, Match
from tournaments.models import Tournament
from tournaments.waiting import Waiting

from . import monitor
from .models import Appeal, RefereeCall, Ruling


def _per_tournament(queryset, field: str) -> dict[int, int]:
    return dict(queryset.values_list(field).annotate(n=Count("pk")).order_by())


def waiting(tournaments: list[Tournament]) -> dict[int, list[Waiting]]:
    ids = [t.pk for t in tournaments]
    calls = RefereeCall.objects.filter(match__tournament__in=ids)
    counts = {
        "calls": _per_tournament(calls.filter(kind=RefereeCall.Kind.CALL, taken_at__isnull=True), "match__tournament"),
        "disputes": _per_tournament(calls.filter(kind=RefereeCall.Kind.DISPUTE, resolved_at__isnull=True),
                                    "match__tournament"),
        "conflicts": _per_tournament(EntryConflict.objects.filter(
            match__tournament__in=ids, settled_at__isnull=True, match__status=Match.Status.OPEN), "match__tournament"),
        "escalated": _per_tournament(Ruling.objects.filter(match__tournament__in=ids,
                                                           status=Ruling.Status.ESCALATED), "match__tournament"),
        "appeals": _per_tournament(Appeal.objects.filter(Q(ruling__match__tournament__in=ids),
                                                         decided_at__isnull=True), "ruling__match__tournament"),
    }
    late = {}
    for t in tournaments:
        if t.status == Tournament.Status.IN_PROGRESS:
            tiles, _next = monitor.tiles(t)
            late[t.pk] = sum(1 for tile in tiles if tile.state in ("late", "over_time"))
    tables, review = reverse("referee:tables"), reverse("referee:review")
    out: dict[int, list[Waiting]] = {}
    for t in tournaments:
        def n(key: str, pk: int = t.pk) -> int:
            return counts[key].get(pk, 0)

        out[t.pk] = [
            Waiting("calls", n("calls"), ngettext("%(counter)s call to the referee", "%(counter)s calls to the referee",
                                                  n("calls")) % {"counter": n("calls")}, tables, order=20),
            Waiting("disputes", n("disputes"), ngettext("%(counter)s disputed entry", "%(counter)s disputed entries",
                                                        n("disputes")) % {"counter": n("disputes")}, tables, order=21),
            Waiting("conflicts", n("conflicts"), ngettext(
                "%(counter)s table with its phones at odds", "%(counter)s tables with their phones at odds",
                n("conflicts")) % {"counter": n("conflicts")}, tables, order=22),
            Waiting("late", late.get(t.pk, 0), ngettext("%(counter)s late table", "%(counter)s late tables",
                                                        late.get(t.pk, 0)) % {"counter": late.get(t.pk, 0)},
                    reverse("monitor:room", kwargs={"slug": t.slug}), order=30),
            Waiting("escalated", n("escalated"), ngettext(
                "%(counter)s case sent by a referee", "%(counter)s cases sent by referees",
                n("escalated")) % {"counter": n("escalated")}, review, order=40),
            Waiting("appeals", n("appeals"), ngettext("%(counter)s appeal to decide", "%(counter)s appeals to decide",
                                                      n("appeals")) % {"counter": n("appeals")}, review + "#appeals",
                    order=41),
        ]
    return out
