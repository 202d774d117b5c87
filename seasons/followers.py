"""What the seasons app does when the layer below tells it something (registered in
``SeasonsConfig.ready``; tournaments never imports this app, docs/architecture.md):

- :func:`follow_results`: every decision on results (``tournaments.services.after_results``, the last
  follower, after the room and the live pages): the decided matches are marked in the decision's
  transaction and the ratings' sync is queued after its commit (docs/ratings.md);
- :func:`rating_order_changed`: matches, or every match of tournaments, placed elsewhere in the rating
  order (two tables swapped, a tournament's date changed): marked, and the sync queued;
- :func:`players_merged`: a player merge or its undoing: the pairs it repointed played matches that now
  rate as the kept person's, so those are marked and the sync queued;
- the stages' placings (``services.circuits.refresh_stage_placings``) and the ratings read by the
  tournaments' seeding and forecasts (``services.ratings.pair_ratings``, ``current_ratings``) are
  registered as they are.
"""
from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from draw.models import Match

from .services import ratings


def follow_results(tournament, by, match_ids: list[int]) -> None:
    ratings.mark_changed(match_ids)  # the ratings compare these matches only, in this transaction
    transaction.on_commit(ratings.queue_sync)


def rating_order_changed(match_ids: Iterable[int] = (), *, tournaments: Iterable[int] = ()) -> None:
    ratings.mark_changed(match_ids, tournaments=tournaments)
    transaction.on_commit(ratings.queue_sync)


def players_merged(merge) -> None:
    pairs = {pk for key, ids in merge.moved.items() if key.startswith("events.pair.") for pk in ids}
    if not pairs:
        return
    ratings.mark_changed(Match.objects.filter(Q(pair_a__in=pairs) | Q(pair_b__in=pairs),
                                              tournament_result__isnull=False).values_list("pk", flat=True))
    transaction.on_commit(ratings.queue_sync)
