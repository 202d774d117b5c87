"""An event's fair-play report: the flags of :mod:`fairplay.flags` computed over what its súmulas recorded, each
with the matches that show it and how unusual it is on the site; who may read it (the event's organizers and
referees, ``events.access.manages`` and ``tournaments.services.referees.may_referee``) and the audit of every
request (:class:`~fairplay.models.ReportAccess`). docs/fair-play.md.

What is read: every hand of the event (``scoring.HandEntry``: its game, how it ended, its value, its winner and
when it reached the server), when each match could start (the room's last call of it, from the audit log
``draw.AuditEntry`` "match_called", else its round's generation) and, for the base rates, the hands of the site's
last :data:`SITE_MATCHES` matches with hands. A fixed number of queries whatever the number of matches.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Max

from draw.models import AuditEntry
from events import access
from scoring.models import HandEntry, Match
from tournaments.models import Tournament
from tournaments.services import referees

from . import flags as rules
from .models import ReportAccess

#: the site's matches (the latest with hands) the base rates are read from
SITE_MATCHES = 300


def may_read(user, tournament: Tournament) -> bool:
    """The event's organizers (and the site's operators) and the people who may referee its tables."""
    return access.manages(user, tournament) or referees.may_referee(tournament, user)


def record_access(user, tournament: Tournament, granted: bool) -> None:
    ReportAccess.objects.create(tournament=tournament, user=user if getattr(user, "pk", None) else None,
                                granted=granted)


def _records(matches: dict[int, Match], hands) -> list[rules.MatchRecord]:
    found: dict[int, rules.MatchRecord] = {}
    for match_id, game, ended_by, value, winner, at in hands:
        m = matches.get(match_id)
        if m is None:
            continue
        record = found.get(match_id)
        if record is None:
            start = getattr(m, "ready_at", None)
            record = found[match_id] = rules.MatchRecord(match_id, m.pair_a_id, m.pair_b_id,
                                                         start.timestamp() if start else None)
        record.hands.append(rules.Hand(at.timestamp(), game, ended_by, value, winner))
    return list(found.values())


_HAND_FIELDS = ("game__match_id", "game__number", "ended_by", "value", "winner", "created_at")


def event_records(tournament: Tournament) -> tuple[dict[int, Match], list[rules.MatchRecord]]:
    """The event's matches (with their pairs and round) and their records for the flags. Three queries."""
    matches = {m.pk: m for m in Match.objects.filter(tournament=tournament)
               .select_related("pair_a", "pair_b", "round")}
    called = dict(AuditEntry.objects.filter(tournament=tournament, action=AuditEntry.Action.MATCH_CALLED,
                                            match__isnull=False)
                  .values("match_id").annotate(last=Max("at")).values_list("match_id", "last"))
    for m in matches.values():
        m.ready_at = called.get(m.pk) or (m.round.generated_at if m.round is not None else None)
    hands = HandEntry.objects.filter(game__match__tournament=tournament).order_by("created_at")
    return matches, _records(matches, hands.values_list(*_HAND_FIELDS))


def site_records(exclude: int) -> list[rules.MatchRecord]:
    """The site's latest matches with hands (not of the event ``exclude``): the base rates. Two queries."""
    ids = list(HandEntry.objects.exclude(game__match__tournament_id=exclude).values("game__match_id")
               .annotate(last=Max("created_at")).order_by("-last").values_list("game__match_id", flat=True)
               [:SITE_MATCHES])
    matches = {m.pk: m for m in Match.objects.filter(pk__in=ids)}
    for m in matches.values():
        m.ready_at = None  # only the games' pace is read from them
    return _records(matches, HandEntry.objects.filter(game__match_id__in=ids).order_by("created_at")
                    .values_list(*_HAND_FIELDS))


@dataclass
class FlagRow:
    """A flag as the report shows it: what, about whom, the súmulas, the figure and how unusual."""

    flag: rules.Flag
    matches: list[Match]
    pair: object | None  # the pair it names (runs), else None (the match's pairs)
    opponent: object | None
    base_rate: float | None  # pace, burst: the share of the site's games / matches as fast (0..1)
    site_count: int  # how many games or matches that base rate is over

    @property
    def percent(self) -> float | None:
        return None if self.base_rate is None else 100 * self.base_rate


@dataclass
class Report:
    tournament: Tournament
    rows: list[FlagRow]
    matches: int  # matches with hands looked at
    pairs: int  # pairs tested for runs


def event_report(tournament: Tournament) -> Report:
    matches, records = event_records(tournament)
    found = rules.all_flags(records)
    site = site_records(tournament.pk) if any(f.kind in ("pace", "burst") for f in found) else []
    games = [seconds for r in site for _n, seconds, typed in rules.game_seconds(r) if typed >= rules.MIN_PACE_HANDS]
    bursts = rules.burst_flags(site)
    pairs = {p.pk: p for m in matches.values() for p in (m.pair_a, m.pair_b)}
    rows = []
    for f in found:
        base, count = None, 0
        if f.kind == "pace":
            base, count = rules.base_rate(games, f.figure), len(games)
        elif f.kind == "burst":
            base, count = (len(bursts) / len(site) if site else 0.0), len(site)
        rows.append(FlagRow(f, [matches[pk] for pk in f.matches if pk in matches], pairs.get(f.pair),
                            pairs.get(f.detail.get("opponent")), base, count))
    rows.sort(key=lambda row: (row.flag.kind, row.flag.p_value or 0.0, row.flag.figure))
    return Report(tournament, rows, len(records), len({r.pair_a for r in records} | {r.pair_b for r in records}))
