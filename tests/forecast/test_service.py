"""The forecasts of the matches in play (tournaments.forecasts): from the súmula's hands and times, the
pairs' ratings and the room's time limit; shown on the room monitor's tiles and the organizer's dashboard
("which table frees next"). A fixed number of queries whatever the number of tables."""
from __future__ import annotations

import datetime
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from referee import monitor
from scoring import services as scoring
from scoring.models import HandEntry, Match
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse: messages in English)
from tournaments import forecasts, services
from seasons.models import RatingEntry
from room.models import MatchCall
from room.services import ready


def _room(org, tables: int = 4, slug: str = "previsao", time_limit: int | None = None):
    t = f.tournament(org, slug=slug)
    f.pairs(t, tables * 2)
    services.configure_stage(t, org, format="round_robin")
    if time_limit:
        ready.configure_room(t, org, time_limit=time_limit)
    services.generate_first_round(t, org)
    return t, list(Match.objects.filter(tournament=t).select_related("pair_a", "pair_b").order_by("table"))


def _hands(match, org, winners: list[int], *, started, minutes_each: float = 2.0, value: int = 1):
    """Enter hands (1 point each) and date them ``minutes_each`` apart from ``started``."""
    MatchCall.objects.update_or_create(match=match, defaults={
        "tournament": match.tournament, "table": match.table, "called_at": started, "started_at": started,
        "present_a_at": started, "present_b_at": started})
    for i, winner in enumerate(winners, start=1):
        hand = scoring.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": value}, org)
        HandEntry.objects.filter(pk=hand.pk).update(created_at=started + timedelta(minutes=minutes_each * i))
    match.refresh_from_db()


@pytest.mark.django_db
def test_a_table_ahead_is_likely_to_win_and_a_fast_table_ends_sooner():
    org = f.user("org")
    t, matches = _room(org)
    now = timezone.now()
    slow, fast = matches[0], matches[1]
    _hands(slow, org, [0] * 8 + [1] * 2, started=now - timedelta(minutes=40), minutes_each=4.0)  # 8-2
    _hands(fast, org, [0] * 8 + [1] * 2, started=now - timedelta(minutes=10), minutes_each=1.0)  # 8-2
    found = forecasts.estimates(t.pk, matches, now=now)
    assert set(found) == {slow.pk, fast.pk}  # the others have not started: no forecast
    a, b = found[slow.pk], found[fast.pk]
    assert a.forecast.match_probability > 0.7 and a.percent_a + a.percent_b == 100
    assert 0 <= b.low <= b.minutes <= b.high
    assert b.forecast.minutes < a.forecast.minutes  # same score, a quicker pace
    assert a.pace_from == "table" and a.minutes_per_hand > b.minutes_per_hand
    assert [x.match.pk for x in forecasts.in_play(t, now=now)] == [fast.pk, slow.pk]  # the fast table frees first


@pytest.mark.django_db
def test_ratings_make_the_stronger_pair_the_favourite_before_a_point_is_scored():
    org = f.user("org")
    t, matches = _room(org)
    m = matches[0]
    for sequence, player in enumerate((m.pair_a.first_player, m.pair_a.second_player), start=1):
        RatingEntry.objects.create(player=player, match=m, sequence=sequence, method="match", mu=40.0, sigma=2.0,
                                   rating=1400, date=datetime.date(2026, 4, 1), fingerprint="x")
    now = timezone.now()
    MatchCall.objects.create(match=m, tournament=t, table=m.table, called_at=now, started_at=now)
    found = forecasts.estimates(t.pk, [m], now=now + timedelta(minutes=1))
    assert found[m.pk].forecast.match_probability > 0.6
    assert found[m.pk].pace_from == "site"  # no hand yet anywhere: the site's pace


@pytest.mark.django_db
def test_a_table_far_from_the_end_near_the_time_limit_is_at_risk(client):
    org = f.user("org")
    t, matches = _room(org, time_limit=30)
    now = timezone.now()
    m = matches[0]
    _hands(m, org, [0, 1, 0, 1], started=now - timedelta(minutes=27), minutes_each=6.0)
    m.refresh_from_db()
    assert m.time_up_at is not None  # the room wrote the time limit's end on the match at its start
    found = forecasts.estimates(t.pk, [m], now=now)
    assert found[m.pk].forecast.time_risk > 0.5 and found[m.pk].at_risk
    client.force_login(org)
    page = client.get(f"/torneios/{t.slug}/sala/").content.decode()
    assert "data-at-risk" in page and "risco de estourar o tempo" in page


@pytest.mark.django_db
def test_the_forecasts_cost_the_same_queries_for_two_or_eight_tables():
    org = f.user("org")
    counts = []
    for tables, slug in ((2, "duas"), (8, "oito")):
        t, matches = _room(org, tables=tables, slug=slug)
        now = timezone.now()
        for m in matches:
            _hands(m, org, [0, 1, 1], started=now - timedelta(minutes=10))
        matches = list(Match.objects.filter(tournament=t).select_related("pair_a", "pair_b"))
        with CaptureQueriesContext(connection) as queries:
            found = forecasts.estimates(t.pk, matches, now=now)
        assert len(found) == tables
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


@pytest.mark.django_db
def test_the_monitor_tile_and_the_dashboard_show_when_tables_should_free(client):
    org = f.user("org")
    t, matches = _room(org, slug="sala-prev")
    now = timezone.now()
    _hands(matches[0], org, [0] * 6 + [1] * 6, started=now - timedelta(minutes=20), minutes_each=1.5)  # 6-6
    tiles, _next = monitor.tiles(t)
    tile = next(tile for tile in tiles if tile.match is not None and tile.match.pk == matches[0].pk)
    assert tile.forecast is not None
    assert all(x.forecast is None for x in tiles if x is not tile)
    client.force_login(org)  # the site speaks Portuguese
    page = client.get(f"/torneios/{t.slug}/sala/").content.decode()
    assert 'data-testid="forecast"' in page and "termina em ~" in page
    dashboard = client.get(f"/torneios/{t.slug}/painel/").content.decode()
    assert 'data-testid="tables-freeing"' in dashboard and "Mesas que devem liberar primeiro" in dashboard


@pytest.mark.django_db
def test_the_events_hand_values_leave_out_the_mao_de_onze_whose_value_is_fixed():
    """art. 18: a mão de onze is played for 3 whatever happens; counting it would make raises look common."""
    from referee.engine.forecast.chain import observed_hands

    org = f.user("org")
    t, matches = _room(org)
    m = matches[0]
    _hands(m, org, [0] * 11, started=timezone.now() - timedelta(minutes=30))  # 11-0: eleven 1-point hands
    scoring.record_hand(m, {"winner": 1, "ended_by": "tricks", "value": 3}, org)  # the mão de onze, 11-3
    assert HandEntry.objects.filter(game__match=m).count() == 12
    assert forecasts.event_figures(t.pk).points == observed_hands({1: 11}, 0)[0]
