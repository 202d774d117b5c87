"""Player ratings kept in step with the official results (the computation is the pure
``draw.pairing.ratings``; this module feeds it and stores its history).

* Which matches rate: every official result with a winner that was played: a received súmula
  (art. 25) or a result set by the organizer (art. 26); walkovers and double walkovers do not
  (nothing was played at the table). The partners of each pair are its two players (a
  substitute's games are not told apart).
* The order: the tournament's date, the tournament, the stage, the round, the table, the match
  id (the key of :func:`official_matches`), so the ratings are the same whatever order the results came in.
* :func:`sync_ratings` brings the history up to date from where it stops. Each rated match keeps
  a copy of what was rated (:class:`~seasons.models.RatedResult`: its place in the
  order, the key, the pairs and their players, the winner, the tentos, the kind, the súmula
  version, the method); ``RatingEntry`` holds one row per player per match. What changed is
  marked in the transaction that changes it (:func:`mark_changed`, a
  :class:`~seasons.models.RatingChange` row), as tournaments tells this app (``seasons.followers``):
  every decision on results by ``after_results.results_changed`` (the matches), a tournament's date
  by ``update_tournament`` (its matches), two tables swapped by ``overrides.swap_tables``, a player
  merge (``tournaments.players``). The sync compares only the marked matches with their copies (by the event, not
  the site); the history is kept up to the first new, changed or gone one in the rating order and
  only the matches after it are rated again, from the players' ratings at that point. A new
  result at the end adds four rows; a correction, an undo, a result of an older tournament, a
  changed date re-rate from that match on; a change of method re-rates everything. It runs after
  each decision (``queue_sync`` on commit: the Celery task ``seasons.sync_ratings``); a lost
  task leaves its marks to the next sync. ``sync_ratings(full=True)`` (``manage.py sync_ratings
  --full``, the periodic task ``seasons.check_ratings``) compares every official result
  instead: what no service marks (a player merged, a data fix, a tournament deleted by an
  operator) is found there. Costs: docs/ratings.md.
* The method is the latest :class:`~seasons.models.RatingMethodChoice` (a site operator's choice,
  :func:`choose_method`, the page ``/ratings/metodo/``), else ``settings.TRUCO_RATING_METHOD``
  (``match`` by default; ``margin``, ``hands``: docs/ratings.md).
"""
from __future__ import annotations

import functools
import hashlib
import logging
import operator
from collections import defaultdict, namedtuple
from collections.abc import Iterable

from celery import shared_task
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, Max, Min, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError

from scoring.models import HandEntry
from events.access import operates_site
from draw.pairing.ratings import METHODS, RatedMatch, Rating, Ratings, ordered, pair_rating

from draw.models import Result
from events.models import Pair
from people.models import Player

from ..models import RatedResult, RatingChange, RatingEntry, RatingMethodChoice, RatingSync

log = logging.getLogger("seasons.ratings")


def rating_method() -> str:
    chosen = RatingMethodChoice.objects.values_list("method", flat=True).first()
    return chosen or getattr(settings, "TRUCO_RATING_METHOD", "match")


def may_choose_method(user) -> bool:
    """The rating list is one for every organizer: only a site operator chooses its method."""
    return bool(user and getattr(user, "is_authenticated", False) and operates_site(user))


@transaction.atomic
def choose_method(by, method: str, *, current: str) -> bool:
    """The site's rating method becomes ``method``; ``current`` is the method the chooser saw (a stale
    page is refused, 409). The same method again changes nothing (False). A change is recorded
    (:class:`RatingMethodChoice`) and every match is rated again after the commit (True)."""
    if not may_choose_method(by):
        raise Forbidden(_("Only a site operator chooses the rating method: the ratings are one list for "
                          "every organizer."), "method")
    if method not in METHODS:
        raise ServiceError(_("Rating method: one of %(methods)s.") % {"methods": ", ".join(METHODS)}, "method")
    list(RatingMethodChoice.objects.select_for_update().all()[:1])  # one change at a time
    now = rating_method()
    if method == now:
        return False
    if current != now:
        raise Conflict(_("The rating method was changed to %(now)s meanwhile: look again before choosing.")
                       % {"now": now}, "current")
    RatingMethodChoice.objects.create(method=method, previous=now, chosen_by=by)
    transaction.on_commit(queue_sync)
    return True


OFFICIAL = Q(kind__in=[Result.Kind.SUMULA, Result.Kind.MANUAL], winner__isnull=False)
# what a rated result copies (RatedResult's columns) and where each is read from the result
SOURCE = {"date": "tournament__date", "tournament_id": "tournament_id", "stage": "stage_key", "round": "round_key",
          "table": "table_key", "match_pair_a": "match__pair_a_id", "pair_a": "pair_a_id",
          "pair_a_first": "pair_a__first_player_id", "pair_a_second": "pair_a__second_player_id",
          "pair_b_first": "pair_b__first_player_id", "pair_b_second": "pair_b__second_player_id",
          "winner": "winner_id", "points_a": "points_a", "points_b": "points_b", "kind": "kind",
          "sumula_version": "version_key"}
PLACE = ("date", "tournament_id", "stage", "round", "table", "match_id")  # a copy's place in the order
Row = namedtuple("Row", ["match_id", *SOURCE.values()])
Changed = namedtuple("Changed", [*Row._fields, "was"])  # with its place rated before (None: new)
FEW = 500  # fewer matches or players than this: read by their ids, else by date


def _official():
    """The rated official results, with their key's parts as the key has them (0 for none)."""
    return Result.objects.filter(OFFICIAL).annotate(
        stage_key=Coalesce("match__round__stage__position", 0), round_key=Coalesce("match__round__number", 0),
        table_key=Coalesce("match__table", 0), version_key=Coalesce("sumula_version", 0))


def _rows() -> list:
    """The rated official results as plain values."""
    return list(_official().values_list("match_id", *SOURCE.values(), named=True))


def _key(row) -> tuple:
    """A result's place in the rating order (:func:`draw.pairing.ratings.ordered`'s key)."""
    return (row.tournament__date.isoformat(), row.tournament_id, row.stage_key, row.round_key, row.table_key), \
        row.match_id


def official_matches(method: str | None = None, hands: bool | None = None) -> tuple[list[RatedMatch], dict]:
    """Every rated official match in rating order (its key: the date, tournament, stage, round, table)
    and each match's date; one query for the results (plain values, no model instances), one for the
    hands when they count."""
    return _matches(_rows(), method or rating_method(), hands)


def _matches(rows: list, method: str, hands: bool | None = None) -> tuple[list[RatedMatch], dict]:
    with_hands: dict[int, list[tuple[int, int]]] = defaultdict(list)
    if rows and (hands if hands is not None else method == "hands"):
        entries = HandEntry.objects.filter(game__match__tournament_result__isnull=False, winner__isnull=False)
        if len(rows) < FEW:
            entries = entries.filter(game__match_id__in=[row.match_id for row in rows])
        for match_id, winner, value, points in (
                entries.order_by("game__match_id", "game__number", "position")
                .values_list("game__match_id", "winner", "value", "points")):
            with_hands[match_id].append((winner, value or points))
    matches, dates = [], {}
    for row in rows:
        team_a = (row.pair_a__first_player_id, row.pair_a__second_player_id)
        team_b = (row.pair_b__first_player_id, row.pair_b__second_player_id)
        pa, pb, a_won = row.points_a, row.points_b, row.winner_id == row.pair_a_id
        if row.match__pair_a_id != row.pair_a_id:  # the result's pairs in the match's order (hands: team 0 is pair A)
            team_a, team_b, pa, pb, a_won = team_b, team_a, pb, pa, not a_won
        matches.append(RatedMatch(_key(row)[0], row.match_id, team_a, team_b, 0 if a_won else 1, pa, pb,
                                  tuple(with_hands.get(row.match_id, ()))))
        dates[row.match_id] = row.tournament__date
    return ordered(matches), dates


def fingerprint(m: RatedMatch, method: str) -> str:
    seen = (method, m.team_a, m.team_b, m.winner, m.points_a, m.points_b, m.hands if method == "hands" else ())
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


def mark_changed(match_ids: Iterable[int] = (), *, tournaments: Iterable[int] = ()) -> None:
    """Inside the caller's transaction: these matches (a result decided, changed or taken back), or
    every match of these tournaments (a changed date), may rate differently now. The next sync
    compares them, and only them, with what was rated (:class:`RatingChange`: committed or rolled
    back with the change; a lost task leaves them to the next sync)."""
    RatingChange.objects.bulk_create([RatingChange(match=pk) for pk in sorted(set(match_ids))]
                                     + [RatingChange(tournament=pk) for pk in sorted(set(tournaments))])


def sync_ratings(method: str | None = None, *, full: bool = False) -> int:
    """Bring the rating history in step with the official matches; the number of matches rated now.
    By default only the marked matches (:func:`mark_changed`) are compared with what was rated;
    ``full``: every official result on the site (``manage.py sync_ratings --full`` and the periodic
    task: a change that did not go through a service, a data fix, is found there)."""
    for attempt in range(2):
        try:
            return _sync(method or rating_method(), full)
        except IntegrityError:  # another worker wrote the same rows first: compare again
            if attempt:
                raise
    return 0


def _not_as_rated(method: str):
    """The rated official results that are new or no longer as rated (by ``method``): the database
    compares each with its :class:`RatedResult` (one index probe a result; only those that differ
    are read back)."""
    same = RatedResult.objects.filter(match=OuterRef("match_id"), method=method,
                                      **{column: OuterRef(source) for column, source in SOURCE.items()})
    return _official().filter(~Exists(same)).order_by()


def _marked(marks: list) -> Q:
    """The marked matches: by their id, or by their tournament."""
    return Q(match_id__in={m for _pk, m, _t in marks if m}) | Q(tournament_id__in={t for _pk, _m, t in marks if t})


def _compare_marked(method: str, marks: list) -> tuple[list, dict]:
    """The marked matches only (by the event, not the site): their official results that are new or
    no longer as rated (plain values, with ``was``: the place rated before, None for new) and the
    rated ones no longer official (match id: place). Two queries, compared here."""
    if not marks:
        return [], {}
    where = _marked(marks)
    now = list(_official().filter(where).values_list("match_id", *SOURCE.values(), named=True))
    copies = {row[0]: row for row in RatedResult.objects.filter(where).values_list("match_id", "sequence", "method",
                                                                                   *SOURCE)}
    changed = []
    for row in now:
        copy = copies.get(row.match_id)
        if copy is None or copy[2] != method or copy[3:] != row[1:]:
            changed.append(Changed(*row, copy[1] if copy else None))
    official = {row.match_id for row in now}
    return changed, {match: copy[1] for match, copy in copies.items() if match not in official}


def _compare_all(method: str, total: int) -> tuple[list, dict]:
    """Every official result on the site compared with its copy, by the database (one anti-join; only
    those that differ are read back), and the copies whose result is gone (a count says whether any
    is, then one query lists them); as :func:`_compare_marked`."""
    was = Subquery(RatedResult.objects.filter(match=OuterRef("match_id")).values("sequence")[:1])
    changed = list(_not_as_rated(method).annotate(was=was).values_list("match_id", *SOURCE.values(), "was",
                                                                       named=True))
    # the rated matches still official and as rated are the official ones less the changed: the rest is gone
    if not total - (Result.objects.filter(OFFICIAL).count() - len(changed)) - sum(1 for row in changed if row.was):
        return changed, {}
    still = Exists(Result.objects.filter(OFFICIAL, match=OuterRef("match_id")))
    return changed, dict(RatedResult.objects.filter(~still).values_list("match_id", "sequence"))


def _restart_point(method: str, marks: list | None = None, tail: tuple = ()) -> tuple[int, int, list, set]:
    """How many rated matches stay as they are: the history up to the first new, changed or gone
    official result in the rating order; with where the history stops now, the official results
    that are new or changed (plain values) and the matches no longer rated. ``marks``
    (:class:`RatingChange` rows, with ``tail``: the last copy's sequence, method and place): only
    those matches are compared; None: every official result,
    and a hole left by a deleted match or tournament (an operator's deletion, no service's) is
    found too."""
    if marks is None:
        total, last = RatedResult.objects.aggregate(n=Count("pk"), last=Max("sequence")).values()
        total, last = total or 0, last or 0
        changed, gone = _compare_all(method, total)
    else:
        total = last = tail[0]
        changed, gone = _compare_marked(method, marks)
    cuts = [last]
    if total != last:  # rows deleted with their match or tournament: up to the first hole
        sequences = RatedResult.objects.order_by("sequence").values_list("sequence", flat=True)
        cuts.append(next(n for n, sequence in enumerate(sequences) if sequence != n + 1))
    if gone:
        cuts.append(min(gone.values()) - 1)
    if changed:
        cuts += [row.was - 1 for row in changed if row.was]
        first = min(changed, key=_key)  # the earliest place that is new or moved
        # the stored rows are in the rating order: the first after ``first`` makes room for it (none
        # when the last one is before it: a new result at the end)
        after = None
        if not tail or ((tail[2].isoformat(), *tail[3:7]), tail[7]) > _key(first):
            after = RatedResult.objects.filter(date__gte=first.tournament__date).filter(_after(first)).aggregate(
                n=Min("sequence"))["n"]
        cuts.append(after - 1 if after else last)
    return max(0, min(cuts)), last, changed, set(gone)


def _after(row) -> Q:
    """The rated results placed after ``row`` in the rating order (its key, then the match id)."""
    key = [("date", row.tournament__date), ("tournament_id", row.tournament_id), ("stage", row.stage_key),
           ("round", row.round_key), ("table", row.table_key), ("match_id", row.match_id)]
    return functools.reduce(operator.or_, (Q(**dict(key[:n]), **{f"{key[n][0]}__gt": key[n][1]})
                                           for n in range(len(key))))


@transaction.atomic
def _sync(method: str, full: bool) -> int:
    checked, _created = RatingSync.objects.select_for_update().get_or_create(pk=1)  # one sync at a time
    marks = list(RatingChange.objects.values_list("pk", "match", "tournament"))
    # every copy has the method of the last sync: the last one tells where the history stops and how
    tail = RatedResult.objects.order_by("-sequence").values_list("sequence", "method", *PLACE).first()
    if not tail or tail[1] != method:  # nothing rated yet (an upgraded site), or another method: every match
        full = True
    start, last, changed, gone = _restart_point(method, None if full else marks, tail)
    for n in range(0, len(marks), FEW):
        RatingChange.objects.filter(pk__in=[pk for pk, *_ in marks[n:n + FEW]]).delete()
    if full:
        checked.checked_at = timezone.now()
        checked.save(update_fields=["checked_at"])
    if not changed and not gone and start == last:
        return 0
    # after ``start``: the changed results and the rated ones still as they were (their stored copy)
    moved = {row.match_id for row in changed} | gone
    as_rated = []
    if start < last:
        after = RatedResult.objects.filter(sequence__gt=start)
        as_rated = after.exclude(match_id__in=moved) if len(moved) < FEW else [
            r for r in after if r.match_id not in moved]
    rows = changed + [_as_row(r) for r in as_rated]  # all placed after the point kept
    matches, dates = _matches(rows, method)
    if start < last:
        RatingEntry.objects.filter(sequence__gt=start).delete()
        RatedResult.objects.filter(sequence__gt=start).delete()
    ratings = Ratings(method, current=_ratings_at(start, {p for m in matches for p in (*m.team_a, *m.team_b)}),
                      sequence=start)
    changes = ratings.rate(matches)
    prints = {m.match_id: fingerprint(m, method) for m in matches}
    RatingEntry.objects.bulk_create(
        [RatingEntry(player_id=c.player, match_id=c.match_id, sequence=c.sequence, method=method,
                     mu=c.after.mu, sigma=c.after.sigma, rating=c.after.display, date=dates[c.match_id],
                     fingerprint=prints[c.match_id]) for c in changes], batch_size=2000)
    sources = {row.match_id: row for row in rows}
    RatedResult.objects.bulk_create(
        [RatedResult(match_id=m.match_id, sequence=start + n, method=method,
                     **{column: getattr(sources[m.match_id], source) for column, source in SOURCE.items()})
         for n, m in enumerate(matches, 1)], batch_size=2000)
    return len(matches)


def _as_row(rated: RatedResult):
    """A stored rated result in the shape of a result's values (it is what the result still holds)."""
    return Row(rated.match_id, *(getattr(rated, column) for column in SOURCE))


def _ratings_at(sequence: int, players: set) -> dict:
    """Each of ``players``' rating after the first ``sequence`` rated matches (its last row by then)."""
    if not sequence or not players:
        return {}
    if len(players) < FEW:  # a few new matches: each player's last row by then, one index probe each
        last = RatingEntry.objects.filter(player=OuterRef("pk"), sequence__lte=sequence).order_by("-sequence")
        rows = Player.objects.filter(pk__in=players).order_by().annotate(
            last_mu=Subquery(last.values("mu")[:1]), last_sigma=Subquery(last.values("sigma")[:1]))
        return {player: Rating(mu, sigma) for player, mu, sigma in rows.values_list("pk", "last_mu", "last_sigma")
                if mu is not None}
    last = RatingEntry.objects.filter(player=OuterRef("player_id"), sequence__lte=sequence).order_by("-sequence")
    return {player: Rating(mu, sigma) for player, mu, sigma in
            RatingEntry.objects.filter(sequence__lte=sequence, sequence=Subquery(last.values("sequence")[:1]))
            .order_by().values_list("player_id", "mu", "sigma")}


@shared_task(name="seasons.sync_ratings")
def sync_ratings_task() -> int:
    """The rating history in step with the official results (:func:`sync_ratings`); the number of
    matches rated. Queued after each decision on results (:func:`queue_sync`)."""
    return sync_ratings()


@shared_task(name="seasons.check_ratings")
def check_ratings_task() -> int:
    """Periodic (Celery beat): every official result compared with what was rated, not only the
    matches marked changed (a change that did not go through a service, a data fix); the number of
    matches rated again."""
    return sync_ratings(full=True)


def queue_sync() -> None:
    """After a commit: the ratings task sent (or run here when Celery is eager). It never fails the
    request whose result is already committed: a broker down or a failed run is logged, and the
    marks it leaves (:func:`mark_changed`, committed with the decision) are taken by the next sync."""
    try:
        sync_ratings_task.delay()
    except Exception as error:  # noqa: BLE001 - kombu's OperationalError, redis's ConnectionError, a failed run
        log.error("ratings not brought up to date (%s: %s); the next official result will",
                  type(error).__name__, str(error)[:160])


def current_rating(player: Player | int) -> Rating | None:
    """A player's rating now (``None``: not rated yet)."""
    row = (RatingEntry.objects.filter(player=player).order_by("-sequence").values_list("mu", "sigma").first())
    return Rating(*row) if row else None


def current_ratings(players: list[int]) -> dict[int, Rating]:
    out: dict[int, Rating] = {}
    for player, mu, sigma in (RatingEntry.objects.filter(player__in=players).order_by("player_id", "sequence")
                              .values_list("player_id", "mu", "sigma")):
        out[player] = Rating(mu, sigma)
    return out


def pair_ratings(pairs: list[Pair]) -> dict[int, Rating]:
    """Each pair's combined rating (``pairing.ratings.pair_rating``; a newcomer counts as a new rating)."""
    ratings = current_ratings([pid for p in pairs for pid in (p.first_player_id, p.second_player_id)])
    return {p.pk: pair_rating(ratings.get(p.first_player_id, Rating()), ratings.get(p.second_player_id, Rating()))
            for p in pairs}


def history(player: Player | int) -> list[RatingEntry]:
    return list(RatingEntry.objects.filter(player=player).order_by("sequence"))
