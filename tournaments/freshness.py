"""A tournament's one change marker: what its public pages, the live pages' polls, the projector and
the room monitor ask before they build anything ("did anything change since my copy?").

:func:`state` reads, in ONE query built with the ORM, the tournament's row with its organizer's name
and, for each table its pages read (rounds, pairs, the format's stages, check-ins, table
assignments, matches with their events — every hand, signature and receipt writes one — results,
the audit trail and the room's options), the count, the largest id and the latest timestamps, as
correlated subqueries. A caller above this app adds the rows it alone shows (``also``: the room
monitor adds the calls to the referee). ``State.tag`` is the marker; :func:`etag` hashes it with
what else a page depends on (the path, the user, the language); ``last_modified`` is the latest
timestamp.

Used by ``tournaments.conditional.PublicConditionalGetMiddleware`` (every public page),
``tournaments.live`` (the live pages' and the projector's polls) and ``referee.monitor``.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, OuterRef, Subquery

from scoring.models import Match, MatchEvent

from .models import AuditEntry, CheckIn, Pair, Result, RoomSettings, Round, Stage, TableAssignment, Tournament

#: name -> (the rows, the path from a row to its tournament, the timestamps that move when a row changes)
Source = tuple[object, str, tuple[str, ...]]

SOURCES: dict[str, Source] = {
    "round": (Round.objects, "tournament", ("generated_at",)),
    "pair": (Pair.objects, "tournament", ("registered_at", "withdrawn_at")),
    "stage": (Stage.objects, "tournament", ("updated_at",)),
    "checkin": (CheckIn.objects, "round__tournament", ("checked_in_at",)),
    "table": (TableAssignment.objects, "tournament", ()),
    "match": (Match.objects, "tournament", ("updated_at",)),
    "event": (MatchEvent.objects, "match__tournament", ("at",)),
    "result": (Result.objects, "tournament", ("recorded_at",)),
    "audit": (AuditEntry.objects, "tournament", ("at",)),
    "room": (RoomSettings.objects, "tournament", ("updated_at",)),
}

# What the pages show of the organizer (the name); any other field is read when first used.
ORGANIZER_FIELDS = ("id", "username", "first_name", "last_name")


@dataclass(frozen=True)
class State:
    tournament: Tournament  # with its organizer: the page's views reuse it
    values: tuple
    last_modified: datetime | None

    @property
    def tag(self) -> str:
        """The change marker: it moves whenever anything the pages show changes."""
        return hashlib.sha256(repr(self.values).encode()).hexdigest()[:20]


def _scalar(rows, path: str, value) -> Subquery:
    """One value (the aggregate ``value``) over the tournament's ``rows`` reached by ``path``."""
    return Subquery(rows.filter(**{path: OuterRef("pk")}).order_by().values(path).annotate(v=value).values("v")[:1])


def _annotations(sources: dict[str, Source]) -> dict[str, Subquery]:
    out = {}
    for name, (rows, path, stamps) in sources.items():
        out[f"m_{name}_n"] = _scalar(rows, path, Count("pk"))
        out[f"m_{name}_max"] = _scalar(rows, path, Max("pk"))
        for stamp in stamps:
            out[f"m_{name}_{stamp}"] = _scalar(rows, path, Max(stamp))
    return out


def state(slug: str, also: dict[str, Source] | None = None) -> State | None:
    """The tournament ``slug`` with its organizer and its change marker (None when there is no such
    tournament), in one query. ``also``: more sources, as :data:`SOURCES`, that the caller shows."""
    marks = _annotations({**SOURCES, **(also or {})})
    fields = [f.name for f in Tournament._meta.concrete_fields] + [f"organizer__{f}" for f in ORGANIZER_FIELDS]
    tournament = next(iter(Tournament.objects.filter(slug=slug).select_related("organizer").only(*fields)
                           .annotate(**marks).order_by()[:1]), None)
    if tournament is None:
        return None
    values = {field.attname: getattr(tournament, field.attname) for field in Tournament._meta.concrete_fields}
    values.update((name, getattr(tournament, name)) for name in marks)
    values["organizer_name"] = tournament.organizer.get_full_name() if tournament.organizer_id else ""
    stamps = [value for value in values.values() if isinstance(value, datetime)]
    return State(tournament, tuple(sorted((key, str(value)) for key, value in values.items())),
                 max(stamps, default=None))


def etag(current: State, *parts: object) -> str:
    digest = hashlib.sha256(repr((current.values, parts)).encode()).hexdigest()[:32]
    return f'W/"{digest}"'
