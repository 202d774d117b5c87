"""Standings (tournaments.services.standings): official results only, walkovers as configured,
each tiebreak order, lot recorded, and a constant number of queries."""
import pytest

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.models import Round, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def org():
    return f.user("org")


def league(org, count, slug="liga", **stage):
    """A round robin of ``count`` pairs with all its rounds generated (results to be set)."""
    t = f.tournament(org, slug=slug)
    pairs = f.pairs(t, count)
    services.configure_stage(t, org, format="round_robin", **stage)
    return t, pairs


def result(org, t, a, b, winner, points=(12, 0), games=None):
    """Set the result of the match between pairs ``a`` and ``b`` (already generated)."""
    match = Match.objects.get(tournament=t, pair_a__in=[a, b], pair_b__in=[a, b])
    pa, pb = points if match.pair_a_id == a.pk else points[::-1]
    won = [1, 0] if winner == match.pair_a_id else [0, 1]
    services.set_result(match, org, winner=winner, games=games or won, points=[pa, pb], reason="test")


def ranking(t):
    return [row.pair.name for row in services.standings(t).rows]


def test_tiebreak_orders_change_the_ranking(org):
    outcomes = {}
    for tiebreaks in (["matches_won", "point_difference", "points_scored"],
                      ["matches_won", "points_scored", "point_difference"],
                      ["matches_won", "head_to_head", "point_difference"],
                      ["matches_won", "sonneborn_berger", "points_scored"]):
        t, (p1, p2, p3, p4) = league(org, 4, slug=f"t{len(outcomes)}", tiebreaks=tiebreaks)
        rnd = services.generate_first_round(t, org)
        for number in (1, 2, 3):
            if number > 1:
                rnd = services.generate_next_round(t, org)
            for m in Match.objects.filter(round=rnd):
                pair = {m.pair_a_id, m.pair_b_id}
                if p1.pk in pair:  # P1 beats everybody 12-0
                    result(org, t, p1, p2 if p2.pk in pair else p3 if p3.pk in pair else p4, p1.pk)
                elif pair == {p2.pk, p3.pk}:
                    result(org, t, p2, p3, p2.pk, points=(12, 11))
                elif pair == {p3.pk, p4.pk}:
                    result(org, t, p3, p4, p3.pk, points=(12, 10))
                else:  # P4 beats P2 12-0
                    result(org, t, p4, p2, p4.pk, points=(12, 0))
        outcomes[tuple(tiebreaks)] = ranking(t)
        table = services.standings(t)
        assert table.tiebreaks == tiebreaks and table.rows[0].values["matches_won"] == 3
    # point differences: P2 12-11 v P3, 0-12 v P1, 0-12 v P4 -> 12-35 = -23;
    # P3 11-12, 0-12, 12-10 -> 23-34 = -11; P4 0-12, 10-12, 12-0 -> 22-24 = -2
    assert outcomes[("matches_won", "point_difference", "points_scored")] == ["P1", "P4", "P3", "P2"]
    assert outcomes[("matches_won", "points_scored", "point_difference")] == ["P1", "P3", "P4", "P2"]
    # head to head among P2, P3, P4 is a cycle (1 win each): then point difference
    assert outcomes[("matches_won", "head_to_head", "point_difference")] == ["P1", "P4", "P3", "P2"]
    # Sonneborn-Berger: beaten opponents' scores are all 1 -> tie; points scored decides
    assert outcomes[("matches_won", "sonneborn_berger", "points_scored")] == ["P1", "P3", "P4", "P2"]


def test_head_to_head_decides_between_two_tied_pairs(org):
    # P2 and P3 win 2 matches each; P2 beat P3, P3 has the better point difference.
    games = {("P2", "P3"): ("P2", (12, 11)), ("P2", "P4"): ("P2", (12, 11)), ("P1", "P2"): ("P1", (12, 0)),
             ("P1", "P3"): ("P3", (0, 12)), ("P3", "P4"): ("P3", (12, 0)), ("P1", "P4"): ("P4", (0, 12))}
    rankings = {}
    for tiebreaks in (["matches_won", "head_to_head", "point_difference"],
                      ["matches_won", "point_difference", "head_to_head"]):
        t, pairs = league(org, 4, slug=tiebreaks[1].replace("_", "-"), tiebreaks=tiebreaks)
        by_name = {p.name: p for p in pairs}
        rnd = services.generate_first_round(t, org)
        for number in (1, 2, 3):
            if number > 1:
                rnd = services.generate_next_round(t, org)
            for m in Match.objects.filter(round=rnd).select_related("pair_a", "pair_b"):
                key = tuple(sorted((m.pair_a.name, m.pair_b.name)))
                winner, points = games[key]
                result(org, t, by_name[key[0]], by_name[key[1]], by_name[winner].pk, points=points)
        rankings[tiebreaks[1]] = ranking(t)
        rows = {r.pair.name: r for r in services.standings(t).rows}
        assert (rows["P2"].won, rows["P3"].won, rows["P2"].point_difference, rows["P3"].point_difference) == (
            2, 2, -10, 23)
    assert rankings["head_to_head"][:2] == ["P2", "P3"]
    assert rankings["point_difference"][:2] == ["P3", "P2"]


def test_buchholz_and_median_buchholz_in_a_swiss(org):
    t = f.tournament(org, slug="suico")
    f.pairs(t, 8)
    services.configure_stage(t, org, format="swiss", swiss_rounds=3,
                             tiebreaks=["matches_won", "buchholz", "median_buchholz"])
    rnd = services.generate_first_round(t, org)
    for number in (1, 2, 3):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        for m in Match.objects.filter(round=rnd):
            winner = m.pair_a_id if (m.pair_a_id + m.pair_b_id + number) % 3 else m.pair_b_id
            services.set_result(m, org, winner=winner, games=[1, 0] if winner == m.pair_a_id else [0, 1],
                                reason="t")
    wins, opponents = {}, {}
    for m in Match.objects.filter(tournament=t).select_related("tournament_result"):
        wins[m.tournament_result.winner_id] = wins.get(m.tournament_result.winner_id, 0) + 1
        opponents.setdefault(m.pair_a_id, []).append(m.pair_b_id)
        opponents.setdefault(m.pair_b_id, []).append(m.pair_a_id)
    table = services.standings(t)
    for row in table.rows:
        scores = sorted(wins.get(o, 0) for o in opponents[row.pair.pk])
        assert row.values["matches_won"] == wins.get(row.pair.pk, 0)
        assert row.values["buchholz"] == sum(scores)
        assert row.values["median_buchholz"] == sum(scores[1:-1])
    keys = [(r.values["matches_won"], r.values["buchholz"], r.values["median_buchholz"]) for r in table.rows]
    assert keys == sorted(keys, reverse=True)


def test_only_official_results_count_and_walkover_scores_as_configured(org):
    for walkover_scores in (False, True):
        t, pairs = league(org, 4, slug=f"wo{walkover_scores}", walkover_scores=walkover_scores)
        rnd = services.generate_first_round(t, org)
        signed, absent = Match.objects.filter(round=rnd).order_by("table")
        f.play(signed, signed.pair_a, org, receive_it=False)
        assert all(row.played == 0 for row in services.standings(t).rows)
        services.record_walkover(absent, absent.pair_b_id, org)
        rows = {r.pair.pk: r for r in services.standings(t).rows}
        winner, loser = rows[absent.pair_a_id], rows[absent.pair_b_id]
        assert (winner.won, winner.played, loser.lost) == (1, 1, 1)
        assert (winner.games_for, winner.points_for) == ((1, 12) if walkover_scores else (0, 0))
        assert rows[signed.pair_a_id].played == 0
        f.receive(signed, org)
        assert {r.pair.pk: r for r in services.standings(t).rows}[signed.pair_a_id].won == 1


def test_lot_is_recorded_and_reproducible(org):
    t, pairs = league(org, 6)
    stage = Stage.objects.get(tournament=t)
    first = services.standings(t)
    assert first.lot_seed == stage.standings_lot_seed
    assert ranking(t) == [r.pair.name for r in first.rows]
    assert sorted(r.lot for r in first.rows) == list(range(1, 7))
    assert [r.pair.name for r in first.rows] == [r.pair.name for r in sorted(first.rows, key=lambda r: r.lot)]


def test_pending_pairs_are_left_out_and_withdrawn_pairs_stay(org):
    t, pairs = league(org, 4)
    services.update_pair(pairs[3], org, status="pending")
    services.generate_first_round(t, org)
    services.withdraw_pair(pairs[0], org, "x")
    rows = {r["pair_name"]: r for r in services.standings(t).as_dict()["rows"]}
    assert set(rows) == {"P1", "P2", "P3"}
    assert rows["P1"]["withdrawn"] and not rows["P2"]["withdrawn"]


def _swiss_with_results(org, slug, count):
    t = f.tournament(org, slug=slug)
    f.pairs(t, count)
    services.configure_stage(t, org, format="swiss", swiss_rounds=3,
                             tiebreaks=["matches_won", "buchholz", "median_buchholz", "sonneborn_berger",
                                        "head_to_head", "point_difference"])
    rnd = services.generate_first_round(t, org)
    for number in (1, 2):
        if number > 1:
            rnd = services.generate_next_round(t, org)
        for i, m in enumerate(Match.objects.filter(round=rnd)):
            if i % 3 == 0:
                services.record_walkover(m, m.pair_b_id, org)
            else:
                services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], points=[12, i % 11], reason="t")
    return t


def test_standings_run_a_constant_number_of_queries(org, django_assert_max_num_queries,
                                                     django_assert_num_queries):
    small = _swiss_with_results(org, "small", 6)
    large = _swiss_with_results(org, "large", 40)
    t = type(small).objects.get(pk=small.pk)
    with django_assert_max_num_queries(5):
        services.standings(t)
    t = type(large).objects.get(pk=large.pk)
    with django_assert_max_num_queries(5):
        table = services.standings(t)
    assert len(table.rows) == 40 and sum(r.byes for r in table.rows) == 0
    groups = f.tournament(org, slug="groups")
    f.pairs(groups, 12)
    services.configure_stage(groups, org, format="groups_knockout", group_count=3)
    services.generate_first_round(groups, org)
    with django_assert_max_num_queries(5):
        assert len(services.standings(groups).groups) == 3
    assert Round.objects.filter(tournament=large).count() == 2
