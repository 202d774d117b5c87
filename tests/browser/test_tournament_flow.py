"""An organizer runs an 8-pair single-elimination tournament end to end in the browser.

Creates the tournament, registers the pairs (a CSV with a bad row is refused with its
report, then a good CSV, then one pair with the form), checks them in, makes the draw,
records the quarterfinals and semifinals on the dashboard (a W.O. and results set by hand
with a reason), plays the final through its súmula (a hand entered on scoring's page, both
pairs sign with one-time codes, the organizer receives it: art. 25) and finds the champion
on the public bracket page.

Drives Debian's chromium through Playwright (never ``playwright install``). Screenshots:
$TRUCO_SHOTS/t-dashboard.png and $TRUCO_SHOTS/t-bracket.png (phone, 390×844), $TRUCO_SHOTS/t-dashboard-1280.png and
$TRUCO_SHOTS/t-bracket-1280.png (desktop, 1280×800); $TRUCO_SHOTS/t-dashboard-full.png (the whole dashboard on a
phone, after the draw).
"""
from __future__ import annotations

import re

import pytest

from .conftest import PHONE, log_in, phone_context, shot

DESKTOP = {"width": 1280, "height": 800}

pytestmark = pytest.mark.browser

BAD_CSV = "dupla;jogador 1;jogador 2\nZap;Ana Souza;Beto Lima\n;Caio Reis;Duda Melo\n"
GOOD_CSV = (
    "dupla;jogador 1;apelido 1;jogador 2;clube 2\n"
    "Zap;Ana Souza;Aninha;Beto Lima;Clube do Truco\n"
    "Copas;Caio Reis;;Duda Melo;\n"
    "Espadilha;Edu Prado;;Fábio Luz;\n"
    "Pica-fumo;Gil Ramos;;Hugo Dias;\n"
    "Manilha;Ivo Nunes;;Jair Costa;\n"
    "Os Seis;Kátia Lins;;Lia Moura;\n"
    "Truco Ladrão;Mia Rocha;;Nei Alves;\n"
)


@pytest.fixture
def organizer(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    # organizers sign in on the site's own page (LOGIN_URL)
    from tests.tournaments.factories import organizer

    return organizer("organizador", password="truco-demo", first_name="Olga")


def test_organizer_runs_an_eight_pair_bracket(live_server, browser, organizer):
    from playwright.sync_api import expect

    context = phone_context(browser)
    page = context.new_page()
    confirmations = []  # the irreversible steps ask first: the organizer says yes
    page.on("dialog", lambda dialog: (confirmations.append(dialog.message), dialog.accept()))

    # -- log in and create the tournament ---------------------------------------
    page.goto(f"{live_server.url}/torneios/novo/")
    assert "/entrar/" in page.url
    log_in(page, "organizador", "truco-demo")
    expect(page.locator("h1")).to_have_text("Novo torneio")
    page.fill("#id_name", "Copa do Bar")
    page.fill("#id_date", "2026-11-21")
    page.fill("#id_venue", "Bar do Zé")
    page.select_option("#id_best_of", "1")
    page.select_option("#id_format", "single_elimination")
    page.check("#id_check_in_required")
    page.click('[data-testid="new-tournament"] button[type=submit]')
    expect(page.locator("h1")).to_have_text("Copa do Bar")
    dashboard = page.url.split("#")[0]
    assert dashboard.endswith("/torneios/copa-do-bar/painel/")
    expect(page.locator(".messages")).to_contain_text("Torneio criado")

    # -- registration: a bad CSV is refused with its report, then the good one ----
    csv = page.locator('[data-testid="csv-form"]')
    page.locator("summary", has_text="Importar duplas de um arquivo CSV").click()
    csv.locator('input[type="file"]').set_input_files(
        files=[{"name": "duplas.csv", "mimeType": "text/csv", "buffer": BAD_CSV.encode()}])
    csv.locator("button[type=submit]").click()
    report = page.locator('[data-testid="csv-report"]')
    expect(report).to_contain_text("Nada foi importado")
    expect(report.locator("tbody tr")).to_have_count(1)
    expect(report.locator("tbody td").first).to_have_text("3")  # the row without a pair name
    csv = page.locator('[data-testid="csv-form"]')
    csv.locator('input[type="file"]').set_input_files(
        files=[{"name": "duplas.csv", "mimeType": "text/csv", "buffer": GOOD_CSV.encode()}])
    csv.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("7 duplas importadas")  # plural agreement, was "7 dupla(s) importada(s)"

    # the eighth pair with the form
    form = page.locator('[data-testid="pair-form"]')
    if not form.is_visible():  # open before the import (no pair yet), it stays open: the import came in the background
        page.locator("summary", has_text="Cadastrar uma dupla").click()
    form.locator("#pair_name").fill("Casal 20")
    form.locator("#pair_first_name").fill("Olavo Pires")
    form.locator("#pair_second_name").fill("Paula Quintas")
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("Dupla Casal 20 cadastrada")
    expect(page.locator('[data-testid="roster"] > li')).to_have_count(8)

    # -- check-in: tap each pair ------------------------------------------------------
    for _ in range(8):
        page.locator('button[data-testid="checkin"][aria-pressed="false"]').first.click()
        page.wait_for_load_state()
    expect(page.locator('button[data-testid="checkin"][aria-pressed="true"]')).to_have_count(8)
    expect(page.locator("#checkin-title")).to_contain_text("8/8")

    # -- the draw ------------------------------------------------------------------
    page.locator('[data-testid="draw"]').click()
    page.wait_for_load_state()
    assert any("sorteio" in text for text in confirmations)  # asked before drawing
    expect(page.locator(".messages")).to_contain_text("Sorteio feito")
    matches = page.locator('[data-testid="matches-playing"] > li')  # by state: all playing
    expect(matches).to_have_count(4)
    expect(page.locator('[data-testid="matches-playing"] .st-open')).to_have_count(4)
    page.goto(dashboard)
    shot(page, "t-dashboard.png")
    shot(page, "t-dashboard-full.png", full_page=True)
    page.set_viewport_size(DESKTOP)
    shot(page, "t-dashboard-1280.png")
    page.set_viewport_size(PHONE)

    def open_match(index: int):
        # a decided match moves to the folded "done" list: the next one is the first playing
        return page.locator('[data-testid="matches-playing"] > li').nth(index)

    def walkover(index: int) -> None:
        item = open_match(index)
        item.locator("summary", has_text="W.O.").click()
        wo = item.locator('[data-testid="walkover-form"]')
        wo.locator('input[name="absent"]').nth(1).check()
        wo.locator('input[name="reason"]').fill("não compareceu")
        wo.locator("button[type=submit]").click()
        wo.wait_for(state="detached")  # posted in the background: the card came back among the done
        expect(page.locator(".messages")).to_contain_text("W.O. registrado")

    def by_hand(index: int, winner: int) -> None:
        item = open_match(index)
        item.locator("summary", has_text="Resultado manual").click()
        result = item.locator('[data-testid="result-form"]')
        result.locator('input[name="winner"]').nth(winner).check()
        result.locator('input[name="points_a"]').fill("12" if winner == 0 else "8")
        result.locator('input[name="points_b"]').fill("8" if winner == 0 else "12")
        result.locator('input[name="reason"]').fill("súmula de papel conferida na mesa")
        result.locator("button[type=submit]").click()
        result.wait_for(state="detached")  # posted in the background: the card came back among the done
        expect(page.locator("#messages")).to_contain_text("Resultado lançado")  # the undo toast

    # -- quarterfinals: one W.O., three results set by hand ---------------------------
    walkover(0)
    by_hand(0, 0)
    by_hand(0, 1)
    by_hand(0, 0)
    # -- semifinals: the dashboard moved on by itself ----------------------------------
    expect(page.locator("#matches-title")).to_contain_text("Semifinais")
    expect(page.locator('[data-testid="matches-playing"] > li')).to_have_count(2)
    by_hand(0, 1)
    by_hand(0, 0)

    # -- the final through its súmula ------------------------------------------------
    expect(page.locator("#matches-title")).to_contain_text("Final")
    final = open_match(0)
    finalists = final.locator(".vs > span")
    winner_name = finalists.nth(0).inner_text()
    final.locator("a", has_text="Súmula").click()
    # the entry screen updates in place: the signing part comes in without a reload
    page.locator("#values .col", has=page.locator("h3", has_text=winner_name)).locator(
        "button[data-value='12']").click()
    expect(page.locator("#signing .result")).to_contain_text(winner_name)
    for team, role in ((0, "team0"), (1, "team1")):
        page.locator(f'form[action$="/codigo/"]:has(input[name="team"][value="{team}"]) button').click()
        page.wait_for_load_state()
        message = page.locator(".messages").inner_text()
        code = re.search(r"\b(\d{6})\b", message).group(1)
        signing = page.locator(f'form:has(input[name="role"][value="{role}"])')
        signing.locator('[data-testid="signers"] label.tap').first.click()  # the signer taps their own name
        signing.locator('input[name="code"]').fill(code)
        signing.locator("button[type=submit]").click()
        page.wait_for_load_state()
    expect(page.locator(".signed-ok")).to_have_count(2)

    # back on the dashboard: the súmula is signed; receive it (art. 25)
    page.goto(dashboard)
    expect(page.locator('[data-testid="matches-todo"] .st-signed')).to_have_count(1)  # to do: receive it
    page.locator('[data-testid="receive"]').click()
    expect(page.locator(".messages")).to_contain_text("oficial")
    expect(page.locator('[data-testid="next-step"]')).to_contain_text("O torneio terminou")

    # -- the public bracket, as any visitor sees it ------------------------------------
    visitor = phone_context(browser)
    public = visitor.new_page()
    public.goto(f"{live_server.url}/torneios/copa-do-bar/chave/")
    expect(public.locator('[data-testid="champion"]')).to_contain_text(winner_name)
    expect(public.locator("svg.bracket .bk-champion-name")).to_contain_text(winner_name[:10])
    expect(public.locator("svg.bracket g.bk-match")).to_have_count(7)
    expect(public.locator("svg.bracket")).to_contain_text("W.O.")
    shot(public, "t-bracket.png")
    public.set_viewport_size(DESKTOP)
    shot(public, "t-bracket-1280.png")

    from scoring.models import Match
    from tournaments.models import AuditEntry, Result, Tournament

    tournament = Tournament.objects.get(slug="copa-do-bar")
    assert tournament.status == Tournament.Status.FINISHED
    final = Match.objects.filter(tournament=tournament).order_by("-round__number").first()
    assert final.status == Match.Status.RECEIVED
    assert Result.objects.get(match=final).kind == Result.Kind.SUMULA
    assert Result.objects.filter(tournament=tournament, kind=Result.Kind.MANUAL).count() == 5
    assert AuditEntry.objects.filter(tournament=tournament, action="result_set",
                                 reason="súmula de papel conferida na mesa").count() == 5
