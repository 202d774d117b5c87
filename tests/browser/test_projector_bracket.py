"""The projector's bracket at 1920×1080, read from 5 m: the live part of the bracket in the tables'
grid with names of 54 px (~25 mm capitals on a 55" TV, as the standings), measured in the page with
getBoundingClientRect, with 8 and with 16 pairs; a withdrawn pair marked "(desistente)"; the final
placings after the bracket once the champion is known; axe finds nothing serious or moderate.

Screenshots: $TRUCO_SHOTS/projector-bracket-8.png, $TRUCO_SHOTS/projector-bracket-16.png,
$TRUCO_SHOTS/projector-bracket-16-2.png, $TRUCO_SHOTS/projector-placings.png (1920×1080).
"""
from __future__ import annotations

import pytest

from .conftest import shot
from .test_accessibility import STRICT, violations

pytestmark = [pytest.mark.browser, pytest.mark.presentation]
SCREEN = {"width": 1920, "height": 1080}
#: DejaVu Sans' capitals are 0.73 em: 25 mm capitals at 0.634 mm a pixel (a 55" TV's 1080 lines) need 54 px
NAME_PX = 53.5
NAMES = ["Os Zapeiros de Canoas", "Copas do Sul", "Truqueiros da Serra", "Espadilha Gaúcha", "Mão de Onze",
         "Flor do Pampa", "Sete Belo", "Quatro de Paus", "Retruco Alegre", "Vale Quatro", "Pé de Truco",
         "Envido Velho", "Os Manilheiros", "Falta Envido", "Zap e Copas", "Ás de Espadas"]

MEASURE = """() => [...document.querySelectorAll('.slide:not([hidden]) [data-testid=bracket-name]')].map(el => {
    const r = el.getBoundingClientRect();
    return {text: el.textContent, height: r.height, top: r.top, bottom: r.bottom, right: r.right,
            font: parseFloat(getComputedStyle(el).fontSize)};
})"""


def named(t) -> None:
    from tournaments.models import Pair

    for pair, name in zip(Pair.objects.filter(tournament=t).order_by("pk"), NAMES):
        pair.name = name
        pair.save(update_fields=["name"])


def measured(page, key: str) -> list[dict]:
    from playwright.sync_api import expect

    expect(page.get_by_test_id(f"slide-{key}")).to_be_visible()
    names = page.evaluate(MEASURE)
    assert names, key
    for name in names:
        assert name["font"] >= NAME_PX, name
        assert name["bottom"] <= SCREEN["height"] and name["right"] <= SCREEN["width"], name  # nothing cut off
    return names


@pytest.mark.parametrize("pairs", [8, 16])
def test_projector_bracket_names_are_54_px_with_8_and_16_pairs(live_server, browser, transactional_db, pairs):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf
    from tournaments import services

    org = pf.organizer()
    t = pf.tournament(org, f"chave-{pairs}", pairs=pairs, third_place=True, draw=False)
    named(t)
    services.generate_first_round(t, org)
    pf.play_some(t, org, 2)
    gone = pf.open_matches(t)[0].pair_b
    services.withdraw_pair(gone, org, "ill")  # art. 26: its match becomes a walkover
    context = browser.new_context(viewport=SCREEN, locale="pt-BR", bypass_csp=True)  # axe goes in inline
    page = context.new_page()
    base = f"{live_server.url}/torneios/{t.slug}/telao/?tela="
    page.goto(base + "bracket")
    names = measured(page, "bracket")
    print(f"{pairs} pairs, bracket: {len(names)} names, font {min(n['font'] for n in names)} px, "
          f"box {min(n['height'] for n in names):.1f}–{max(n['height'] for n in names):.1f} px, "
          f"lowest at {max(n['bottom'] for n in names):.0f} px")
    expect(page.get_by_test_id("withdrawn").first).to_have_text("(desistente)")
    shot(page, f"projector-bracket-{pairs}.png")
    assert not violations(page, STRICT)
    if pairs == 16:  # the round of 16 and the quarterfinals, then the semifinals and the finals
        page.goto(base + "bracket-2")
        measured(page, "bracket-2")
        shot(page, "projector-bracket-16-2.png")
    context.close()


def test_projector_ends_with_the_final_placings(live_server, browser, transactional_db):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf

    org = pf.organizer()
    t = pf.tournament(org, "final", pairs=8, third_place=True, draw=False)
    named(t)
    from tournaments import services

    services.generate_first_round(t, org)
    pf.play_all(t, org)
    context = browser.new_context(viewport=SCREEN, locale="pt-BR", bypass_csp=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/torneios/{t.slug}/telao/?tela=placings-1")
    expect(page.get_by_test_id("champion")).to_contain_text("Campeã")
    rows = page.get_by_test_id("placings").locator("tbody tr")
    expect(rows).to_have_count(8)
    expect(page.get_by_test_id("slide-title")).to_have_text("Classificação final")
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('[data-testid=placings] td.name')).fontSize)")
    bottom = page.evaluate("document.querySelector('[data-testid=placings] tbody tr:last-child').getBoundingClientRect().bottom")
    print(f"placings: font {font} px, last line's bottom {bottom:.0f} px")
    assert font >= NAME_PX and bottom <= SCREEN["height"]
    shot(page, "projector-placings.png")
    assert not violations(page, STRICT)
    context.close()
