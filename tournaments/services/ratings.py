"""Player ratings kept in step with the official results (the computation is the pure
``tournaments.pairing.ratings``; this module feeds it and stores its history).

* Which matches rate: every official result with a winner that was played: a received súmula
  (art. 25) or a result set by the organizer (art. 26); walkovers and double walkovers do not
  (nothing was played at the table). The partners of each pair are its two players (a
  substitute's games are not told apart).
* The order: the tournament's date, the tournament, the stage, the round, the table, the match
  id (the key of :func:`official_matches`), so the ratings are the same whatever order the results came in.
* :func:`sync_ratings` compares the rated sequence (``RatingEntry``: one row per player per
  match, with a fingerprint of what was rated: the players, the winner, the tentos, the hands)
  with the official matches, keeps the rows up to the first difference and rates the rest from
  there: a new result at the end adds four rows; a correction, a result of an older tournament
  or players merged into one person re-rate from that match on. It runs after each official
  result (``progress._refresh_status``, on commit, as the Celery task
  ``tournaments.sync_ratings``).
* The method is the latest :class:`~tournaments.models.RatingMethodChoice` (a site operator's choice,
  :func:`choose_method`, the page ``/ratings/metodo/``), else ``settings.TRUCO_RATING_METHOD``
  (``match`` by default; ``margin``, ``hands``: docs/ratings.md).
"""
from __future__ import annotations

import hashlib
import logging
from collections import defaultdict

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from config.errors import Conflict, Forbidden, ServiceError

from scoring.models import HandEntry
from tournaments.pairing.ratings import METHODS, RatedMatch, Rating, Ratings, ordered, pair_rating

from ..models import Pair, Player, RatingEntry, RatingMethodChoice, Result

log = logging.getLogger("tournaments.ratings")


def rating_method() -> str:
    chosen = RatingMethodChoice.objects.values_list("method", flat=True).first()
    return chosen or getattr(settings, "TRUCO_RATING_METHOD", "match")


def may_choose_method(user) -> bool:
    """The rating list is one for every organizer: only a site operator chooses its method."""
    return bool(user and getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


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


def official_matches(method: str | None = None, hands: bool | None = None) -> tuple[list[RatedMatch], dict]:
    """Every rated official match in rating order (its key: the date, tournament, stage, round, table)
    and each match's date; one query for the results (plain values, no model instances), one for the
    hands when they count."""
    method = method or rating_method()
    rows = (Result.objects.filter(kind__in=[Result.Kind.SUMULA, Result.Kind.MANUAL], winner__isnull=False)
            .values_list("match_id", "tournament__date", "tournament_id", "match__round__stage__position",
                         "match__round__number", "match__table", "match__pair_a_id", "pair_a_id",
                         "pair_a__first_player_id", "pair_a__second_player_id", "pair_b__first_player_id",
                         "pair_b__second_player_id", "winner_id", "points_a", "points_b"))
    with_hands: dict[int, list[tuple[int, int]]] = defaultdict(list)
    if hands if hands is not None else method == "hands":
        for match_id, winner, value, points in (
                HandEntry.objects.filter(game__match__tournament_result__isnull=False, winner__isnull=False)
                .order_by("game__match_id", "game__number", "position")
                .values_list("game__match_id", "winner", "value", "points")):
            with_hands[match_id].append((winner, value or points))
    matches, dates = [], {}
    for (match_id, date, tournament_id, stage, rnd, table, match_pair_a, pair_a, a1, a2, b1, b2, winner,
         points_a, points_b) in rows:
        team_a, team_b, pa, pb = (a1, a2), (b1, b2), points_a, points_b
        a_won = winner == pair_a
        if match_pair_a != pair_a:  # the result's pairs in the match's order (hands: team 0 is pair A)
            team_a, team_b, pa, pb, a_won = team_b, team_a, pb, pa, not a_won
        key = (date.isoformat(), tournament_id, stage or 0, rnd or 0, table or 0)
        matches.append(RatedMatch(key, match_id, team_a, team_b, 0 if a_won else 1, pa, pb,
                                  tuple(with_hands.get(match_id, ()))))
        dates[match_id] = date
    return ordered(matches), dates


def fingerprint(m: RatedMatch, method: str) -> str:
    seen = (method, m.team_a, m.team_b, m.winner, m.points_a, m.points_b, m.hands if method == "hands" else ())
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:16]


def sync_ratings(method: str | None = None) -> int:
    """Bring the rating history in step with the official matches; the number of matches rated now."""
    for attempt in range(2):
        try:
            return _sync(method or rating_method())
        except IntegrityError:  # another worker wrote the same rows first: compare again
            if attempt:
                raise
    return 0


@transaction.atomic
def _sync(method: str) -> int:
    matches, dates = official_matches(method)
    matches = [m for m in matches if m.rates]
    stored = list(RatingEntry.objects.order_by("sequence").values_list("sequence", "match_id", "fingerprint",
                                                                       "method").distinct())
    start = 0
    for (sequence, match_id, fp, m_method), m in zip(stored, matches):
        if m_method != method or match_id != m.match_id or fp != fingerprint(m, method):
            break
        start += 1
    if start == len(stored) == len(matches):
        return 0
    RatingEntry.objects.filter(sequence__gt=start).delete()
    needed = {p for m in matches[start:] for p in (*m.team_a, *m.team_b)}
    current: dict = {}
    query = RatingEntry.objects.filter(sequence__lte=start)
    if len(needed) < 500:  # a few new matches: only their players' histories
        query = query.filter(player__in=needed)
    for player, mu, sigma in query.order_by("player", "sequence").values_list("player_id", "mu", "sigma"):
        current[player] = Rating(mu, sigma)
    ratings = Ratings(method, current=current, sequence=start)
    changes = ratings.rate(matches[start:])
    prints = {m.match_id: fingerprint(m, method) for m in matches[start:]}
    RatingEntry.objects.bulk_create(
        [RatingEntry(player_id=c.player, match_id=c.match_id, sequence=c.sequence, method=method,
                     mu=c.after.mu, sigma=c.after.sigma, rating=c.after.display, date=dates[c.match_id],
                     fingerprint=prints[c.match_id]) for c in changes], batch_size=2000)
    return len(matches) - start


def queue_sync() -> None:
    """After a commit: the ratings task sent (or run here when Celery is eager). It never fails the
    request whose result is already committed: a broker down or a failed run is logged, and the
    next official result's sync starts from the first difference, so it catches up."""
    from ..tasks import sync_ratings as task

    try:
        task.delay()
    except Exception as error:  # noqa: BLE001 - kombu's OperationalError, redis's ConnectionError, a failed run
        log.error("ratings not brought up to date (%s: %s); the next official result will",
                  type(error).__name__, str(error)[:160])


def current_rating(player: Player | int) -> Rating | None:
    """A player's rating now (``None``: not rated yet)."""
    row = (RatingEntry.objects.filter(player=player).order_by("-sequence").values_list("mu", "sigma").first())
    return Rating(*row) if row else None


def current_ratings(players: list[int]) -> dict[int, Rating]:
    out: dict[int, Rating] = {}
    for player, mu, sigma in (RatingEntry.objects.filter(player__in=players).order_by("player", "sequence")
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
