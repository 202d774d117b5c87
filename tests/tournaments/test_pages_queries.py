"""The pages run a fixed number of queries: the same with 8 pairs as with 64 (with official
results of every kind: súmula received, W.O., set by the organizer)."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournaments import pages_fixtures as pf

pytestmark = pytest.mark.django_db

# The most each page may run, whatever the number of pairs.
# Measured: bracket 8, standings 8 (9 with groups), grid 7, rounds 7 (9 for a bracket round), dashboard 12 to 15 (logged in).
MAX_QUERIES = {
    "bracket": 9,
    "standings": 10,
    "grid": 8,
    "rounds": 9,
    "dashboard": 26,  # + what waits for the organizer (tournaments.waiting: one query, the referee side one,
    # its rooms one; the public sign-up the badge reads one) + the PIN lockouts to show (one query when there is none) + the room
    # (its options, the open matches, the room's tables, a bracket's matches with entries)
    # + the score of each game in progress (the "playing" cards, one query)
}


def count(client, path: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200, path
    return len(queries)


def build(format: str, pairs: int, **stage):
    org = pf.organizer(f"org{pairs}{format[:3]}")
    t = pf.tournament(org, f"{format.replace('_', '-')}-{pairs}", pairs=pairs, format=format, **stage)
    pf.play_some(t, org, 3, sumula=1, walkovers=1)  # fewer than round 1 has, so both stay in play
    return org, t


def counts_by_pairs(client, assert_max_num_queries, page: str, make) -> dict[int, int]:
    """The queries ``tournaments:<page>`` runs for a tournament of 8 pairs and for one of 64, each
    made by ``make(pairs)`` as ``(organizer, tournament)`` (the organizer logged in unless None),
    and within ``MAX_QUERIES[page]``."""
    counts = {}
    for pairs in (8, 64):
        org, t = make(pairs)
        if org is not None:
            client.force_login(org)
        path = pf.url(page, t)
        counts[pairs] = count(client, path)
        with assert_max_num_queries(MAX_QUERIES[page]):
            client.get(path)
    return counts


@pytest.mark.parametrize("format,page,stage", [
    ("single_elimination", "bracket", {}),
    ("double_elimination", "bracket", {}),
    ("swiss", "standings", {"tiebreaks": ["match_points", "buchholz", "point_difference"]}),
    ("groups_knockout", "standings", {"group_count": 4}),
    ("round_robin", "grid", {"group_count": 4}),
    ("swiss", "rounds", {}),
    ("single_elimination", "rounds", {}),
])
def test_public_page_queries_do_not_grow_with_pairs(client, django_assert_max_num_queries, format, page, stage):
    counts = counts_by_pairs(client, django_assert_max_num_queries, page,
                             lambda pairs: (None, build(format, pairs, **stage)[1]))
    assert counts[8] == counts[64], counts


@pytest.mark.parametrize("format,stage", [
    ("single_elimination", {}),
    ("double_elimination", {}),
    ("swiss", {}),
    ("round_robin", {"group_count": 4}),
])
def test_dashboard_queries_do_not_grow_with_pairs(client, django_assert_max_num_queries, format, stage):
    counts = counts_by_pairs(client, django_assert_max_num_queries, "dashboard",
                             lambda pairs: build(format, pairs, **stage))
    assert counts[8] == counts[64], counts


def test_dashboard_before_the_draw_does_not_grow_with_pairs(client, django_assert_max_num_queries):
    def before_the_draw(pairs):
        org = pf.organizer(f"o{pairs}")
        return org, pf.tournament(org, f"antes-{pairs}", pairs=pairs, draw=False)

    counts = counts_by_pairs(client, django_assert_max_num_queries, "dashboard", before_the_draw)
    assert counts[8] == counts[64], counts
