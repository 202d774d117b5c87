"""The projector's round clock ticks by itself: elapsed and time left from the absolute
times of the fragment, every second, with no request but the live poll. Screenshot:
$TRUCO_SHOTS/projector-clock.png (1920×1080)."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest

from .conftest import shot

pytestmark = [pytest.mark.browser, pytest.mark.presentation]


def test_the_projector_clock_ticks_without_requests(live_server, browser, transactional_db):
    from playwright.sync_api import expect

    from scoring.models import Match
    from tests.tournaments import factories as f
    from tournaments import services
    from tournaments.models import Round
    from room.services import presence, ready

    org = f.user("org")
    t = f.tournament(org)
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, time_limit=90, end_of_time="eleven_all")
    services.generate_first_round(t, org)
    called = Round.objects.get(tournament=t, number=1).generated_at
    match = Match.objects.get(tournament=t, table=1)
    for team in (0, 1):
        presence.confirm_presence(match, team, now=called - timedelta(minutes=100))  # over time by ~10 min
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="pt-BR")
    page = context.new_page()
    fetched = []
    page.on("request", lambda r: fetched.append(r.url) if "/versao/" not in r.url else None)
    page.clock.install()
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=tables-1")
    elapsed = page.locator("[data-testid=round-clock] [data-since]")
    expect(elapsed).to_have_text(re.compile(r"^0:\d\d$"))  # the round was called seconds ago
    over = page.get_by_test_id(f"table-{match.pk}").locator("[data-testid=match-clock]")
    expect(over).to_have_class("over")
    expect(over).to_have_text(re.compile(r"^\+(9|10|11):\d\d$"))  # its limit passed some 10 minutes ago
    before = len(fetched)
    page.clock.run_for(61_000)
    expect(elapsed).to_have_text(re.compile(r"^1:\d\d$"))  # a minute later, ticked by the page
    assert len(fetched) == before, fetched[before:]  # no request but the live poll's
    shot(page, "projector-clock.png")
    context.close()
