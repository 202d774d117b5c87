"""An organizer runs a groups → knockout event through the pages only, on a phone:
creates the tournament, sets two groups of three with the top 2 into a knockout on the Format panel,
imports six pairs, corrects the tournament's venue, names the knockout stage on its
own settings form, makes the draw, sets every group result by hand, generates the rounds, and plays the
knockout that the last group round builds, until the champion. Nothing but the pages: the only
service call creates the organizer's account.

Screenshots (390×844): $TRUCO_SHOTS/gk-stage-settings.png (the knockout's settings form), $TRUCO_SHOTS/gk-dashboard.png
(after the draw), $TRUCO_SHOTS/gk-knockout.png (the knockout's
semifinals on the dashboard), $TRUCO_SHOTS/gk-standings.png (the final placings).
"""
from __future__ import annotations

import pytest

from .conftest import log_in, phone_context, shot

pytestmark = pytest.mark.browser

CSV = ("dupla;jogador 1;jogador 2\nZap;Ana Souza;Beto Lima\nCopas;Caio Reis;Duda Melo\n"
       "Espadilha;Edu Prado;Fábio Luz\nPica-fumo;Gil Ramos;Hugo Dias\nManilha;Ivo Nunes;Jair Costa\n"
       "Os Seis;Kátia Lins;Lia Moura\n")


@pytest.fixture
def organizer(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from tests.tournaments.factories import organizer

    return organizer("organizador", password="truco-demo")


def test_groups_then_knockout_through_the_pages_only(live_server, browser, organizer):
    from playwright.sync_api import expect

    page = phone_context(browser).new_page()
    page.on("dialog", lambda dialog: dialog.accept())  # the irreversible steps ask first

    page.goto(f"{live_server.url}/torneios/novo/")
    log_in(page, "organizador", "truco-demo")
    page.fill("#id_name", "Copa dos Grupos")
    page.fill("#id_date", "2026-12-05")
    page.select_option("#id_best_of", "1")
    page.select_option("#id_format", "groups_knockout")
    page.click('[data-testid="new-tournament"] button[type=submit]')
    expect(page.locator("h1")).to_have_text("Copa dos Grupos")
    dashboard = page.url.split("#")[0]

    # the format: two groups, the top 2 of each into the knockout
    page.locator("#format summary").click()
    page.fill("#stage_group_count", "2")
    page.fill("#stage_qualifiers_per_group", "2")
    page.locator("#format button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Formato salvo")

    csv = page.locator('[data-testid="csv-form"]')
    page.locator("summary", has_text="Importar duplas de um arquivo CSV").click()
    csv.locator('input[type="file"]').set_input_files(
        files=[{"name": "duplas.csv", "mimeType": "text/csv", "buffer": CSV.encode()}])
    csv.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("6 duplas importadas")

    # the controls once in the API only: the tournament's venue, the knockout's own settings
    page.locator("#details summary").click()
    page.fill("#details_venue", "Bar do Zé")
    page.locator('[data-testid="details-form"] button[type=submit]').click()
    expect(page.locator(".messages")).to_contain_text("Dados do torneio salvos")
    page.locator('[data-testid="stage-row-2"] summary').click()
    settings_form = page.locator('[data-testid="stage-settings-2"]')
    settings_form.locator('input[name="name"]').fill("Mata-mata")
    shot(settings_form, "gk-stage-settings.png")
    settings_form.locator("button[type=submit]").click()
    expect(page.locator('[data-testid="stage-row-2"]')).to_contain_text("Mata-mata")

    page.locator('[data-testid="draw"]').click()
    expect(page.locator(".messages")).to_contain_text("Sorteio feito")
    shot(page, "gk-dashboard.png")

    def decide_all(count: int) -> None:
        """Set every open match of the round shown by hand, the pair listed first winning."""
        for _ in range(count):
            item = page.locator('[data-testid^="matches-"] > li:has(details[data-part="walkover"])').first  # still open
            item.locator("summary", has_text="Resultado manual").click()
            form = item.locator('[data-testid="result-form"]')
            form.locator('input[name="winner"]').first.check()
            form.locator('input[name="reason"]').fill("súmula de papel conferida")
            form.locator("button[type=submit]").click()
            form.wait_for(state="detached")  # posted in the background: the card came back among the done
            expect(page.locator("#messages")).to_contain_text("Resultado lançado")  # the undo toast

    for _round in (1, 2, 3):  # two groups of three: one match and a bye in each group per round
        expect(page.locator('[data-testid^="matches-"] > li')).to_have_count(2)
        decide_all(2)
        page.locator('[data-testid="next-round"]').click()
        page.wait_for_load_state()
    # the last group round built the knockout: two semifinals, crossed (A1 v B2, B1 v A2)
    expect(page.locator("#matches-title")).to_contain_text("Semifinais")
    expect(page.locator('[data-testid^="matches-"] > li')).to_have_count(2)
    shot(page, "gk-knockout.png", full_page=False)
    decide_all(2)
    expect(page.locator("#matches-title")).to_contain_text("Final")
    decide_all(1)
    expect(page.locator('[data-testid="next-step"]')).to_contain_text("O torneio terminou")

    page.goto(f"{live_server.url}/torneios/copa-dos-grupos/classificacao/")
    shot(page, "gk-standings.png", full_page=True)

    from tournaments.models import Stage, Tournament

    t = Tournament.objects.get(slug="copa-dos-grupos")
    assert t.status == Tournament.Status.FINISHED and t.venue == "Bar do Zé"
    knockout = Stage.objects.get(tournament=t, position=2)
    assert knockout.name == "Mata-mata" and len(knockout.entrants) == 4
    assert dashboard.endswith("/torneios/copa-dos-grupos/painel/")
