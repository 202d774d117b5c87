"""The team pages on a phone (390 px and 320 px): the organizer's team event page, the public team standings
and the captain's line-up page, none wider than the screen. Screenshots under $TRUCO_SHOTS/teams-*.png."""
from __future__ import annotations

import pytest

from tests.browser.conftest import browser, chromium, shot, sign_in  # noqa: F401

pytestmark = pytest.mark.browser


def phone(browser, width: int):  # noqa: F811
    """A phone's page context in Portuguese, ``width`` px wide."""
    return browser.new_context(viewport={"width": width, "height": 800}, device_scale_factor=1, is_mobile=True,
                               has_touch=True, locale="pt-BR")


@pytest.fixture
def team_event(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.contrib.auth import get_user_model

    from teams import services
    from teams.models import TeamMatch
    from tests.teams.helpers import event, play
    from tournaments import services as tournament_services

    org = get_user_model().objects.create_user("organizadora", password="org-secret")
    t, teams = event(org, teams=4, pairs=3, slug="interclubes-parana", rule="pair_wins")
    services.create_round_robin(t, org, best_of=3)
    first, second = TeamMatch.objects.filter(tournament=t, round_number=1).order_by("pk")
    for row, plan in zip(first.tables.order_by("table"), ([0, 0], [1, 0, 1], None)):
        if plan is None:
            tournament_services.record_double_walkover(row.match, org, reason="Nenhuma dupla compareceu")
        else:
            play(row.match, plan, org)
    play(first.tables.get(decider=True).match, [1], org)  # the negra
    second_tables = list(second.tables.order_by("table"))
    play(second_tables[0].match, [0, 1, 0], org)
    play(second_tables[1].match, [0, 0], org)
    for team in teams:
        services.issue_captain_link(team, org)
    nxt = TeamMatch.objects.filter(tournament=t, round_number=2).order_by("pk").first()
    home = nxt.home
    home.refresh_from_db()
    services.submit_by_link(home, nxt, list(home.pairs.order_by("position").values_list("pair_id", flat=True)))
    return t, home


@pytest.mark.parametrize("width", [390, 320])
def test_the_team_pages_fit_a_phone(live_server, browser, team_event, width):  # noqa: F811
    from playwright.sync_api import expect

    t, captain_team = team_event
    page = phone(browser, width).new_page()
    sign_in(page, live_server.url, "organizadora", "org-secret", next_url=f"/equipes/{t.slug}/painel/")
    page.goto(f"{live_server.url}/equipes/{t.slug}/painel/")
    expect(page.get_by_test_id("team-standings")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"teams-event-{width}.png", full_page=True)

    public = phone(browser, width).new_page()
    public.goto(f"{live_server.url}/equipes/{t.slug}/")
    expect(public.get_by_test_id("best-pairs")).to_be_visible()
    assert public.evaluate("document.documentElement.scrollWidth") <= width
    shot(public, f"teams-standings-{width}.png", full_page=True)

    public.goto(f"{live_server.url}/equipes/capitao/{captain_team.captain_token}/")
    expect(public.get_by_test_id("hidden-line-up").first).to_be_visible()
    assert public.evaluate("document.documentElement.scrollWidth") <= width
    shot(public, f"teams-captain-{width}.png", full_page=True)
