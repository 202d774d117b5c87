"""The numbers that rank people, held to the sealed official results (``manage.py verify_results``).

Ratings and circuit placings are derived data: nothing seals the rows themselves, so they are
checked by deriving them again from what is sealed (the official results, held to their seals by
``result_seals``) and comparing:

- **Ratings**: the whole history is recomputed once (``services.ratings.official_matches`` and the
  pure ``pairing.ratings.compute``, the site's current method) and compared with every stored
  :class:`~seasons.models.RatingEntry` (its sequence, method, mu, sigma and the rating shown).
  A row changed, added or removed in SQL is reported naming the player and the match;
  ``sync_ratings`` compares results with what was rated, not the rows it wrote, so it does not
  repair such a change.
- **Circuit placings**: each stage of a finished tournament must hold the tournament's final table
  (``services.standings``, the results counted as the public sees them), place for place, and an
  unfinished one none (``services.circuits.refresh_stage_placings``); the points of a place follow
  from the circuit's rules on read, so a wrong place is a wrong number of points.
- **Circuit rules and stages**: the points per place, the points past the table, the stages counted and
  which tournament is which stage are sealed when written (``circuit_seals``): a points table changed in SQL,
  or a stage added or moved, is reported as a seal that does not hold.

Nothing here changes anything: it reports.
"""
from __future__ import annotations

import math
from collections import defaultdict

from draw.pairing.ratings import compute, display

from draw.models import Result
from events.models import Tournament
from people.models import Player
from tournaments.services.standings import standings

from . import circuit_seals
from .models import CircuitPlacing, CircuitStage, RatedResult, RatingChange, RatingEntry
from .services import circuits, ratings


def _same(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


def _names(ids) -> dict[int, str]:
    return dict(Player.objects.filter(pk__in=set(ids)).values_list("pk", "name"))


def rating_problems(tournament_id: int | None = None) -> dict[int, list[str]]:
    """Stored rating rows that differ from the history recomputed from the official results:
    ``{match id: problems}`` (only matches with problems; ``tournament_id``: only its matches)."""
    method = ratings.rating_method()
    matches, _dates = ratings.official_matches(method)
    expected = {(c.player, c.match_id): c for c in compute(matches, method).history}
    stored = {(row[0], row[1]): row for row in RatingEntry.objects.values_list(
        "player_id", "match_id", "sequence", "method", "mu", "sigma", "rating").order_by()}
    only = None
    if tournament_id is not None:
        only = set(Tournament.objects.filter(pk=tournament_id).values_list("matches__pk", flat=True))
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for key in sorted(set(expected) | set(stored), key=lambda k: (k[1], k[0])):
        player, match = key
        if only is not None and match not in only:
            continue
        change, row = expected.get(key), stored.get(key)
        if row is None:
            found[match].append((player, f"no rating row; the official results give {change.after.display} "
                                         f"(sequence {change.sequence})"))
            continue
        if change is None:
            found[match].append((player, f"a rating row ({row[6]}) that no official result explains"))
            continue
        _p, _m, sequence, row_method, mu, sigma, shown = row
        wrong = []
        if sequence != change.sequence:
            wrong.append(f"sequence {sequence}, recomputed {change.sequence}")
        if row_method != method:
            wrong.append(f"method {row_method}, the site's is {method}")
        if not _same(mu, change.after.mu):
            wrong.append(f"mu {mu!r}, recomputed {change.after.mu!r}")
        if not _same(sigma, change.after.sigma):
            wrong.append(f"sigma {sigma!r}, recomputed {change.after.sigma!r}")
        if shown != change.after.display or shown != display(mu, sigma):
            wrong.append(f"rating {shown}, recomputed {change.after.display}")
        if wrong:
            found[match].append((player, "the stored rating differs from the official results: " + "; ".join(wrong)))
    names = _names(p for rows in found.values() for p, _ in rows)
    return {match: [f"player {p} ({names.get(p, '?')}): {text}" for p, text in rows]
            for match, rows in sorted(found.items())}


def rating_lag() -> str:
    """Why the rating history is not (yet) the one of the official results, or "" when it is in step:
    every official result rated once, by the site's method. With changes marked and not yet synced
    (``RatingChange``) the next sync brings it in step; without, something not done by a service did it."""
    method = ratings.rating_method()
    official = set(Result.objects.filter(ratings.OFFICIAL).values_list("match_id", flat=True))
    rated = dict(RatedResult.objects.values_list("match_id", "method"))
    missing, extra = len(official - set(rated)), len(set(rated) - official)
    other = sum(1 for m in rated.values() if m != method)
    if not (missing or extra or other):
        return ""
    return (f"{missing} official match(es) not rated, {extra} rated without an official result, "
            f"{other} rated by another method than the site's ({method})")


def ratings_pending() -> bool:
    """Changes marked and not yet synced: the ratings lag the results until ``sync_ratings`` runs."""
    return RatingChange.objects.exists()


def circuit_problems(tournament_id: int | None = None) -> list[str]:
    """Circuit stages whose stored placings are not the final table of their tournament (one line per
    pair placed differently, with the points it is credited and should be)."""
    stages = CircuitStage.objects.select_related("circuit", "tournament").order_by("circuit_id", "number")
    if tournament_id is not None:
        stages = stages.filter(tournament_id=tournament_id)
    placings = defaultdict(dict)
    for stage_id, pair_id, place in CircuitPlacing.objects.filter(stage__in=stages).values_list(
            "stage_id", "pair_id", "place"):
        placings[stage_id][pair_id] = place
    tables: dict[int, dict] = {}
    problems = []
    for stage in stages:
        tournament = stage.tournament
        if tournament.pk not in tables:
            rows = (standings(tournament).rows if tournament.status == Tournament.Status.FINISHED else [])
            tables[tournament.pk] = {line.pair.pk: (line.rank, line.pair.name) for line in rows}
        final, stored = tables[tournament.pk], placings.get(stage.pk, {})
        rules = circuits.rules_of(stage.circuit)
        where = f"circuit {stage.circuit.slug}: stage {stage.number} ({tournament.slug})"
        for pair_id in sorted(set(final) | set(stored)):
            place, should = stored.get(pair_id), final.get(pair_id, (None, None))[0]
            if place == should:
                continue
            name = final.get(pair_id, (None, None))[1] or f"pair {pair_id}"
            credited = rules.points_for(place) if place else 0
            due = rules.points_for(should) if should else 0
            problems.append(f"{where}: pair {pair_id} ({name}): placed {place or '-'} ({credited} points), "
                            f"the tournament's final table says {should or '-'} ({due} points)")
    return problems


def derived_problems(tournament_id: int | None, write) -> list[str]:
    """What ``manage.py verify_results`` reports of the ratings and the circuits' placings
    (``tournaments.services.season_hooks.derived_problems``): each problem written as a line, and what
    differs for its summary (empty: they hold). Ratings lagging behind a marked change are not compared."""
    lag, rated = rating_lag(), {}
    if lag and ratings_pending():  # a decision's sync not run yet: nothing to compare
        write(f"ratings: not checked, a sync is due ({lag}): run manage.py sync_ratings, then check again")
    elif lag:
        rated = {0: [f"not in step with the official results and no change is marked ({lag})"]}
        write(f"ratings: {rated[0][0]}")
    else:
        rated = rating_problems(tournament_id)
        for match_id, problems in rated.items():
            for problem in problems:
                write(f"match {match_id}: rating: {problem}")
    placed = circuit_seals.seal_problems(tournament_id) + circuit_problems(tournament_id)
    for problem in placed:
        write(problem)
    return ([f"ratings differ: {len(rated)} match(es)"] if rated else []) + (
        [f"circuit placings, rules or stages differ: {len(placed)}"] if placed else [])
