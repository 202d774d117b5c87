"""axe-core on the main pages (issue 14 §6): home, a tournament's public page, its bracket, the
standings of the round robin, a súmula, the referee's tables, the login page; on a phone and a
laptop. Fails on any serious or critical violation.

axe-core is vendored (tests/browser/vendor/axe.min.js, from the npm registry package ``axe-core``
4.10.3, MPL-2.0, license beside it) and injected by Playwright, so the test runs offline.
Screenshots of the phone pages: /tmp/axe-<name>.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from .conftest import phone_context, sign_in

pytestmark = pytest.mark.browser

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCKING = {"serious", "critical"}


@pytest.fixture
def demo(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", verbosity=0, stdout=open("/dev/null", "w"))
    from scoring.models import Match

    match = Match.objects.filter(tournament__slug="torneio-de-demonstracao").order_by("pk").first()
    return {"match": match}


def violations(page) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return [v for v in result if v["impact"] in BLOCKING]


def login(page, base: str, username: str) -> None:
    sign_in(page, base, username)


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_the_main_pages_have_no_serious_accessibility_violation(live_server, browser, demo, size):
    if size == "phone":
        context = phone_context(browser, bypass_csp=True)  # axe goes in as an inline script: the CSP refuses it
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR", bypass_csp=True)
    page = context.new_page()
    base = live_server.url
    slug = "torneio-de-demonstracao"
    public = {
        "login": "/entrar/",
        "home": "/",
        "tournament": f"/torneios/{slug}/",
        "bracket": f"/torneios/{slug}/chave/",
        "standings": "/torneios/torneio-de-pontos-corridos/classificacao/",
        "projector": f"/torneios/{slug}/telao/",  # issue 26 §9
    }
    found = {}
    for name, path in public.items():
        page.goto(base + path)
        if size == "phone":
            page.screenshot(path=f"/tmp/axe-{name}.png", full_page=False)
        found[name] = violations(page)
    login(page, base, "arbitro")
    for name, path in {"tables": "/arbitragem/", "sumula": f"/sumulas/partida/{demo['match'].pk}/"}.items():
        page.goto(base + path)
        if size == "phone":
            page.screenshot(path=f"/tmp/axe-{name}.png", full_page=False)
        found[name] = violations(page)
    context.clear_cookies()
    login(page, base, "organizador")  # the dashboard by state (issue 26 §12)
    page.goto(f"{base}/torneios/{slug}/painel/")
    found["dashboard"] = violations(page)
    context.close()
    bad = {name: v for name, v in found.items() if v}
    assert not bad, bad
