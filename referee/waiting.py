"""What waits for the organizer on the referee's side, for ``tournaments.waiting`` (registered in
``RefereeConfig.ready``): calls to the referee not taken, disputed entries not resolved, a table's
phones at odds (answered on the page "Minhas mesas", which shows them to the organizer too:
``calls.open_calls_for``), late tables (a W.O. proposal, past the time limit: the room monitor), rulings
sent up by a referee and appeals not decided (art. 26, the review page).

One query for the counts, one for the rooms; the late tables read the monitor's tiles of the
tournaments in progress whose room keeps time (a few queries each: an organizer runs one or two on a day).
"""
from __future__ import annotations

from django.db.models import OuterRef, Q
from django.urls import reverse
from django.utils.translation import ngettext

from scoring.models import Match
from tables.models import EntryConflict
from room.models import RoomSettings
from tournaments.models import Tournament
from tournaments.waiting import Waiting
from tournaments.waiting import count_of

from . import monitor
from .models import Appeal, RefereeCall, Ruling


def _late_tables(tournaments: list[Tournament]) -> dict[int, int]:
    """Tables past their tolerance (a W.O. proposal) or the time limit, by the monitor's tiles, of the
    tournaments in progress whose room keeps time at all (none by default: one query)."""
    playing = {t.pk: t for t in tournaments if t.status == Tournament.Status.IN_PROGRESS}
    timed = (RoomSettings.objects.filter(tournament__in=list(playing))
             .filter(Q(time_limit__isnull=False) | Q(tolerance_first__isnull=False) | Q(tolerance_later__isnull=False))
             .values_list("tournament", flat=True)) if playing else []
    late = {}
    for pk in timed:
        tiles, _next = monitor.tiles(playing[pk])
        late[pk] = sum(1 for tile in tiles if tile.state in ("late", "over_time"))
    return late


def waiting(tournaments: list[Tournament]) -> dict[int, list[Waiting]]:
    """One query for the counts (plus the late tables' own, see :func:`_late_tables`)."""
    if not tournaments:
        return {}
    here = OuterRef("pk")
    rows = Tournament.objects.filter(pk__in=[t.pk for t in tournaments]).annotate(
        calls=count_of(RefereeCall.objects.filter(match__tournament=here, kind=RefereeCall.Kind.CALL,
                                                taken_at__isnull=True)),
        disputes=count_of(RefereeCall.objects.filter(match__tournament=here, kind=RefereeCall.Kind.DISPUTE,
                                                   resolved_at__isnull=True)),
        conflicts=count_of(EntryConflict.objects.filter(match__tournament=here, settled_at__isnull=True,
                                                      match__status=Match.Status.OPEN)),
        escalated=count_of(Ruling.objects.filter(match__tournament=here, status=Ruling.Status.ESCALATED)),
        appeals=count_of(Appeal.objects.filter(ruling__match__tournament=here, decided_at__isnull=True)),
    ).values_list("pk", "calls", "disputes", "conflicts", "escalated", "appeals")
    keys = ("calls", "disputes", "conflicts", "escalated", "appeals")
    counts = {key: {} for key in keys}
    for pk, *values in rows:
        for key, value in zip(keys, values):
            counts[key][pk] = value
    late = _late_tables(tournaments)
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
                n("escalated")) % {"counter": n("escalated")}, f"{review}?painel={t.slug}#escalated", order=40),
            Waiting("appeals", n("appeals"), ngettext("%(counter)s appeal to decide", "%(counter)s appeals to decide",
                                                      n("appeals")) % {"counter": n("appeals")},
                    f"{review}?painel={t.slug}#appeals", order=41),
        ]
    return out
