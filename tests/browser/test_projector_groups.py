"""The projector of a groups → knockout event, at 1920×1080: one standings table per
group (not one mixed table), a game in progress with its score, names large enough to read at 5 m
(~25 mm capitals on a 55" TV: 54 px at 1080 lines), and in the knockout the standings slide stays;
the public "Chave" tab during the groups says what comes, and the details page names the format.

Screenshots: $TRUCO_SHOTS/projector-groups.png, $TRUCO_SHOTS/projector-tables.png, $TRUCO_SHOTS/projector-knockout-standings.png.
"""
from __future__ import annotations

import pytest

from .conftest import shot

pytestmark = [pytest.mark.browser, pytest.mark.presentation]
SCREEN = {"width": 1920, "height": 1080}
#: capitals of 25 mm on a 55" 16:9 TV (685 mm for 1080 lines: 0.634 mm a pixel) are 39.4 px; DejaVu
#: Sans' capitals are 0.73 em, so the names' font is at least 54 px (a pixel's rounding allowed)
NAME_PX = 53


def test_projector_shows_each_group_live_scores_and_keeps_the_standings_in_the_knockout(
        live_server, browser, transactional_db):
    from playwright.sync_api import expect

    from scoring.models import Game
    from tests.tournaments import pages_fixtures as pf
    from tournaments import services
    from tournaments.models import Stage

    org = pf.organizer()
    t = pf.tournament(org, "clube", pairs=12, format="groups_knockout", group_count=3, qualifiers_per_group=2,
                      third_place=True)
    pf.play_some(t, org, 3)
    playing = pf.open_matches(t)[0]
    game = Game.objects.filter(match=playing).order_by("number").first() or Game(match=playing, number=1)
    game.score_a, game.score_b = 7, 5  # a game in progress at that table (what its súmula says so far)
    game.save()

    context = browser.new_context(viewport=SCREEN, locale="pt-BR")
    page = context.new_page()
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=standings-1")
    slide = page.get_by_test_id("slide-standings-1")
    expect(slide).to_be_visible()
    expect(slide.get_by_test_id("group-table")).to_have_count(2)  # groups A and B; C on the next slide
    expect(slide.locator("caption").first).to_have_text("Grupo A")
    expect(page.get_by_test_id("slide-title")).to_contain_text("Classificação dos grupos")
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector("
                         "'[data-testid=slide-standings-1] td.name')).fontSize)")
    assert size >= NAME_PX, size
    shot(page, "projector-groups.png")
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=standings-2")
    expect(page.get_by_test_id("slide-standings-2").get_by_test_id("group-table")).to_have_count(1)

    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=tables-1")
    row = page.get_by_test_id(f"table-{playing.pk}")
    expect(row.get_by_test_id("live-score")).to_contain_text("7–5")
    size = page.evaluate(f"parseFloat(getComputedStyle(document.querySelector("
                         f"'[data-testid=table-{playing.pk}] .pairs')).fontSize)")
    assert size >= NAME_PX, size
    shot(page, "projector-tables.png")

    # the public pages during the groups: the bracket tab says what comes; the format is named whole
    page.goto(f"{live_server.url}/torneios/{t.slug}/chave/")
    expect(page.get_by_test_id("bracket-ahead")).to_contain_text("fase de grupos está em andamento")
    expect(page.get_by_test_id("bracket-ahead")).to_contain_text("Passam os 2 primeiros de cada grupo")
    page.goto(f"{live_server.url}/torneios/{t.slug}/")
    expect(page.get_by_test_id("format-name")).to_have_text(
        "3 grupos, todos contra todos → Eliminação simples, com disputa de 3º lugar")

    # the knockout: the bracket, and the groups' standings still on a slide
    knockout = Stage.objects.filter(tournament=t, position=2, started_at__isnull=False)
    for _round in range(6):  # the groups' three rounds, then the knockout starts
        for match in pf.open_matches(t):
            pf.decide(match, org)
        if knockout.exists():
            break
        services.generate_next_round(t, org)
    assert knockout.exists()
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/")
    expect(page.locator("[data-slide=bracket]")).to_have_count(1)
    expect(page.locator("[data-slide=standings-1] [data-testid=group-table]")).to_have_count(2)
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=standings-1")
    shot(page, "projector-knockout-standings.png")
    context.close()
