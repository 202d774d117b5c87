"""The forecasts on the live public pages: the pair's page says when its table should finish (and its
chance), or when its next match should start; the projector shows each table in play with its expected end
and a win bar. Both are in the pages' live fragments, so they follow the hands without a reload."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring.models import Match
from tests.forecast.test_service import _hands
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import Pair
from room.services import ready


def _url(name, t, **kw):
    return reverse(f"tournaments:{name}", kwargs={"slug": t.slug, **kw})


def _room(org):
    t = f.tournament(org, slug="ao-vivo")
    pairs = f.pairs(t, 6)
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, ready_matches=True)
    services.generate_first_round(t, org)
    return t, list(Match.objects.filter(tournament=t, table__isnull=False).select_related("pair_a", "pair_b")
                   .order_by("table"))


@pytest.mark.django_db
def test_the_pair_page_and_the_projector_show_the_forecast_in_their_fragments(client):
    org = f.user("org")
    t, matches = _room(org)
    now = timezone.now()
    first, second = matches[0], matches[1]
    _hands(first, org, [0] * 6 + [1] * 2, started=now - timedelta(minutes=16))  # 6-2 at 2 min a hand
    _hands(second, org, [1] * 3, started=now - timedelta(minutes=6))

    page = client.get(_url("pair", t, pair=first.pair_a_id)).content.decode()
    fragment = client.get(_url("pair", t, pair=first.pair_a_id), {"parte": "1", "v": "x"}).content.decode()
    for html in (page, fragment):
        assert 'data-testid="pair-forecast"' in html and "sua mesa deve terminar por volta de" in html
        assert "chance de vencer o confronto" in html
    # pair B of the same table sees its own, lower chance
    a = client.get(_url("pair", t, pair=first.pair_a_id), {"parte": "1"}).content.decode()
    b = client.get(_url("pair", t, pair=first.pair_b_id), {"parte": "1"}).content.decode()
    pct = [int(html.split("chance de vencer o confronto: ")[1].split("%")[0]) for html in (a, b)]
    assert pct[0] > 50 > pct[1] and sum(pct) == 100

    projector = client.get(_url("projector", t), {"parte": "1", "v": "x"}).content.decode()
    assert projector.count('data-testid="table-forecast"') == 2  # the two tables that have started
    assert "fim ~" in projector and "chance de vitória" in projector


@pytest.mark.django_db
def test_a_pair_waiting_for_its_opponent_sees_when_its_next_match_should_start(client):
    org = f.user("org")
    t, matches = _room(org)
    now = timezone.now()
    for m in matches:
        _hands(m, org, [0, 1, 0], started=now - timedelta(minutes=6))
    done = matches[0]
    winner = done.pair_a
    services.set_result(done, org, winner=winner, games=[1, 0], reason="played (test)")
    waiting = Pair.objects.get(pk=done.pair_b_id)
    html = client.get(_url("pair", t, pair=waiting.pk), {"parte": "1"}).content.decode()
    nxt = (Match.objects.filter(round__number=2).filter(pair_a=waiting).first()
           or Match.objects.filter(round__number=2, pair_b=waiting).first())
    assert nxt is not None and nxt.table is None
    assert "início provável por volta de" in html
