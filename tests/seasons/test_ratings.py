"""Ratings kept in step with the official results (seasons/services/ratings.py):
one history row per player per rated match, a correction re-rates from that match on, the same
results give the same ratings, walkovers do not rate; the rating page and its chart."""
from __future__ import annotations

import pytest

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401  (autouse: messages in English)
from tests.tournaments.pages_fixtures import open_matches
from tournaments import services
from tournaments.models import Pair, Result
from seasons.models import RatedResult, RatingEntry
from draw.pairing.ratings import compute
from seasons.services import ratings

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


def snapshot():
    return list(RatingEntry.objects.order_by("sequence", "player").values_list("sequence", "match_id", "player_id",
                                                                              "mu", "sigma", "rating"))


@pytest.fixture
def league():
    org = f.user("org")
    t = f.tournament(org)
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    return org, t, pairs


def decide_round(t, org, favourite):
    for m in open_matches(t):
        winner = m.pair_a if favourite(m.pair_a, m.pair_b) else m.pair_b
        a_won = winner.pk == m.pair_a_id
        services.set_result(m, org, winner=winner.pk, games=[1, 0] if a_won else [0, 1],
                            points=[12, 4] if a_won else [4, 12], reason="test")


def test_sync_rates_each_official_match_once_and_corrections_rerate_from_there(league):
    org, t, pairs = league
    first = open_matches(t)[0]
    f.play(first, first.pair_a, org, loser_points=3)  # a súmula signed and received (art. 25)
    decide_round(t, org, lambda a, b: a.pk < b.pk)
    assert ratings.sync_ratings() == 2
    assert RatingEntry.objects.count() == 8
    assert ratings.sync_ratings() == 0  # nothing new
    services.generate_next_round(t, org)
    decide_round(t, org, lambda a, b: a.pk < b.pk)
    assert ratings.sync_ratings() == 2
    assert RatingEntry.objects.count() == 16
    # the first round's second match corrected by the organizer (art. 26): re-rated from there on
    second = Result.objects.filter(tournament=t, match__round__number=1).order_by("match__table")[1]
    loser = second.pair_b if second.winner_id == second.pair_a_id else second.pair_a
    a_won = loser.pk == second.match.pair_a_id
    services.set_result(second.match, org, winner=loser.pk, games=[1, 0] if a_won else [0, 1],
                        points=[12, 11] if a_won else [11, 12], reason="súmula lida errada")
    assert ratings.sync_ratings() == 3
    after_correction = snapshot()
    # the same results from scratch give the same ratings (reproducible)
    RatingEntry.objects.all().delete()
    RatedResult.objects.all().delete()
    assert ratings.sync_ratings() == 4
    assert snapshot() == after_correction
    # and the pure computation on the same matches agrees with the stored history
    matches, _ = ratings.official_matches()
    last = {p: r for p, r in compute(matches).current.items()}
    for player, r in last.items():
        assert ratings.current_rating(player).mu == pytest.approx(r.mu)


def test_walkovers_do_not_rate_and_the_rating_page_draws_the_history(league, client):
    org, t, pairs = league
    m1, m2 = open_matches(t)
    services.record_walkover(m1, m1.pair_b, org, reason="did not show up")
    services.set_result(m2, org, winner=m2.pair_a_id, games=[1, 0], points=[12, 7], reason="test")
    assert ratings.sync_ratings() == 1
    assert not RatingEntry.objects.filter(match=m1).exists()
    player = m2.pair_a.first_player
    page = client.get(f"/jogadores/{player.pk}/rating/").content.decode()
    assert 'data-testid="rating-chart"' in page and "<circle" in page
    now = ratings.current_rating(player).display
    assert f'data-testid="rating-now">{now}<' in page and now > 1000 - 400
    walked = m1.pair_a.first_player
    empty = client.get(f"/jogadores/{walked.pk}/rating/").content.decode()
    assert "rating-now\">1000<" in empty and "<circle" not in empty
    svg = client.get(f"/jogadores/{player.pk}/rating.svg")
    assert svg["Content-Type"].startswith("image/svg+xml") and svg.content.startswith(b"<svg")
    combined = ratings.pair_ratings([Pair.objects.get(pk=m2.pair_a_id)])[m2.pair_a_id]
    assert combined.mu > 25


@pytest.mark.parametrize("method", ["margin", "hands"])
def test_other_methods_from_the_settings(league, settings, method):
    settings.TRUCO_RATING_METHOD = method
    org, t, pairs = league
    m1 = open_matches(t)[0]
    f.play(m1, m1.pair_a, org, loser_points=2)
    assert ratings.sync_ratings() == 1
    assert set(RatingEntry.objects.values_list("method", flat=True)) == {method}
    settings.TRUCO_RATING_METHOD = "match"
    assert ratings.sync_ratings() == 1  # another method: re-rated whole
    assert set(RatingEntry.objects.values_list("method", flat=True)) == {"match"}


def test_seeding_by_the_players_ratings(league):
    org, t, pairs = league
    decide_round(t, org, lambda a, b: a.pk < b.pk)  # the lower pk wins: P1 beat P4, P2 beat P3
    ratings.sync_ratings()
    t2 = f.tournament(org, slug="copa-2")
    # the same players, new pairs: winners together, losers together, and two mixed pairs
    p1, p2, p3, p4 = pairs
    new = [Pair.objects.create(tournament=t2, name=name, first_player=a, second_player=b) for name, a, b in [
        ("losers", p3.first_player, p4.first_player), ("winners", p1.first_player, p2.first_player),
        ("mixed1", p1.second_player, p3.second_player), ("mixed2", p2.second_player, p4.second_player)]]
    services.configure_stage(t2, org, format="single_elimination", seeding="players")
    services.generate_first_round(t2, org)
    names = {frozenset((m.pair_a.name, m.pair_b.name)) for m in open_matches(t2)}
    assert frozenset(("winners", "losers")) in names  # seed 1 meets seed 4
    combined = ratings.pair_ratings(new)
    assert combined[new[1].pk].mu > combined[new[2].pk].mu > combined[new[0].pk].mu


def test_a_failed_ratings_task_never_fails_the_committed_result(league, monkeypatch, caplog,
                                                                  django_capture_on_commit_callbacks):
    from seasons.services import ratings

    def down():
        raise ConnectionError("broker down")

    monkeypatch.setattr(ratings.sync_ratings_task, "delay", down)
    org, t, pairs = league
    m = open_matches(t)[0]
    with django_capture_on_commit_callbacks(execute=True):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], points=[12, 3], reason="test")
    assert Result.objects.filter(match=m).exists()
    assert "ratings not brought up to date" in caplog.text
    monkeypatch.undo()
    m2 = open_matches(t)[0]
    with django_capture_on_commit_callbacks(execute=True):  # the next result catches up (eager task)
        services.set_result(m2, org, winner=m2.pair_a_id, games=[1, 0], points=[12, 3], reason="test")
    assert RatingEntry.objects.values("match").distinct().count() == 2


def test_tables_swapped_under_a_result_set_by_hand_rate_in_their_new_order(league):
    org, t, pairs = league
    m1, m2 = sorted(open_matches(t), key=lambda m: m.table)
    for m in (m1, m2):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], points=[12, 5], reason="test")
    ratings.sync_ratings()
    assert list(RatedResult.objects.values_list("match_id", flat=True)) == [m1.pk, m2.pk]
    services.swap_tables(m1, m2, org, reason="mesas trocadas")  # the súmulas are still open
    assert ratings.sync_ratings() == 2  # marked by the swap: rated again in the tables' order
    assert list(RatedResult.objects.values_list("match_id", flat=True)) == [m2.pk, m1.pk]
    assert ratings.sync_ratings(full=True) == 0


def test_a_history_rated_by_the_former_hands_method_is_rated_again(league, settings):
    """The hands method changed under the same name: the migration drops its history, the next sync
    rates every match again (the rows then are what the method gives now)."""
    import importlib

    from django.apps import apps

    settings.TRUCO_RATING_METHOD = "hands"
    org, t, pairs = league
    m1 = open_matches(t)[0]
    f.play(m1, m1.pair_a, org, loser_points=2)
    assert ratings.sync_ratings() == 1
    fresh = snapshot()
    RatingEntry.objects.update(mu=1.0)  # as the former method left it
    importlib.import_module("seasons.migrations.0003_rate_hands_again").drop_hands_history(apps, None)
    assert not RatingEntry.objects.exists() and not RatedResult.objects.exists()
    assert ratings.sync_ratings() == 1
    assert snapshot() == fresh
