"""The forecasts on the pair's page (a phone) and on the projector (1920×1080) follow the hands entered,
without a reload: the live poll sees the new hand and swaps the fragment with the new estimate.

Screenshots: $TRUCO_SHOTS/forecast-pair-390.png and $TRUCO_SHOTS/forecast-projector-1080.png."""
from __future__ import annotations

import random
from datetime import timedelta

import pytest

from .conftest import phone_context, shot

pytestmark = pytest.mark.browser
SCREEN = {"width": 1920, "height": 1080}
NAMES = ["Os Invictos", "Zap de Ouro", "Sete Copas", "Gaudérios", "Mão de Ferro", "Truco Seco", "Espadilha",
         "Pica-Fumo", "Casal 38", "Os Mineiros", "Flor de Lis", "Quatro Paus", "Sem Sorte", "Vale Seis",
         "Borboletas", "Os Veteranos", "Zapeiros", "Manilha Forte", "Lá do Sul", "Ás de Espadas", "Tchê Truco",
         "Cangaceiros", "Rio Grande", "Os Primos"]


@pytest.fixture
def room(transactional_db):
    from django.utils import timezone

    from scoring.models import Match
    from tests.forecast.test_service import _hands
    from tests.tournaments import factories as f
    from tournaments import services

    org = f.user("org")
    t = f.tournament(org, slug="noite")
    for pair, name in zip(f.pairs(t, 24), NAMES):
        pair.name = name
        pair.save(update_fields=["name"])
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    matches = list(Match.objects.filter(tournament=t).select_related("pair_a", "pair_b").order_by("table"))
    rng = random.Random(7)
    now = timezone.now()
    for i, m in enumerate(matches[:10]):  # ten tables in play, at different scores and paces
        winners = [0 if rng.random() < 0.35 + 0.03 * i else 1 for _ in range(4 + i)]
        _hands(m, org, winners, started=now - timedelta(minutes=2.2 * len(winners)), minutes_each=2.0)
    return org, t, matches


def test_the_pair_page_and_the_projector_follow_the_hands_without_reloading(live_server, browser, room):
    from playwright.sync_api import expect

    from scoring import services as scoring

    org, t, matches = room
    mine = matches[0]
    context = phone_context(browser)
    context.clock.install()
    page = context.new_page()
    page.goto(f"{live_server.url}/torneios/{t.slug}/duplas/{mine.pair_a_id}/")
    page.evaluate("window.__sameDocument = true")
    said = page.get_by_test_id("pair-forecast")
    expect(said).to_contain_text("sua mesa deve terminar por volta de")
    before = said.inner_text()
    shot(page, "forecast-pair-390.png", full_page=False)

    screen = browser.new_context(viewport=SCREEN, locale="pt-BR")
    screen.clock.install()
    projector = screen.new_page()
    projector.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=tables-1")
    row = projector.get_by_test_id(f"table-{mine.pk}")
    expect(row.get_by_test_id("table-forecast")).to_be_visible()
    assert projector.get_by_test_id("table-forecast").count() == 10
    projector.evaluate("window.__sameDocument = true")
    shot(projector, "forecast-projector-1080.png")
    bar = row.locator(".bar .a").inner_text()

    for _ in range(2):  # pair B takes two hands of 1: the game goes on, pair A's chance falls
        scoring.record_hand(mine, {"winner": 1, "ended_by": "tricks", "value": 1}, org)
    page.clock.run_for(4_000)
    projector.clock.run_for(4_000)
    expect(said).not_to_have_text(before, timeout=10_000)
    expect(row.locator(".bar .a")).not_to_have_text(bar, timeout=10_000)
    assert page.evaluate("window.__sameDocument") is True and projector.evaluate("window.__sameDocument") is True
    context.close()
    screen.close()
