"""axe-core on the main pages: home, a tournament's public page, its bracket, the
standings of the round robin, a súmula, the referee's tables, the login page; on a phone and a
laptop. Fails on any serious or critical violation; on the pages the phone's day relies on (home, meus
torneios, grupos, classificação, fases, the table's page, the print page, the dashboard, the login)
on any moderate one too. Also: the login's username has the focus, and after a pair is registered
the focus is back on the form, not on <body>.

axe-core is vendored (tests/browser/vendor/axe.min.js, from the npm registry package ``axe-core``
4.10.3, MPL-2.0, license beside it) and injected by Playwright, so the test runs offline.
Screenshots of the phone pages: $TRUCO_SHOTS/axe-<name>.png.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from .conftest import phone_context, shot, sign_in

pytestmark = [pytest.mark.browser, pytest.mark.presentation]

AXE = Path(__file__).parent / "vendor" / "axe.min.js"
BLOCKING = {"serious", "critical"}
STRICT = BLOCKING | {"moderate"}  # the pages held to moderate violations too


@pytest.fixture
def demo(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", verbosity=0, stdout=open("/dev/null", "w"))
    from scoring.models import Match

    match = Match.objects.filter(tournament__slug="torneio-de-demonstracao").order_by("pk").first()
    return {"match": match}


def violations(page, impacts=BLOCKING) -> list[dict]:
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                      nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return [v for v in result if v["impact"] in impacts]


def login(page, base: str, username: str) -> None:
    sign_in(page, base, username)


def test_the_main_pages_have_no_serious_accessibility_violation(live_server, browser, demo):
    """On a laptop, then on a phone, over one demo (loading it costs more than a walk through the pages)."""
    found = {size: walk(live_server, browser, demo, size) for size in ("laptop", "phone")}
    bad = {f"{size}: {name}": v for size, pages in found.items() for name, v in pages.items() if v}
    assert not bad, bad


def walk(live_server, browser, demo, size: str) -> dict:
    """The violations found on each page at ``size`` (and the focus checks' findings)."""
    from playwright.sync_api import expect

    from tables import links as table_links
    from tests.tournaments import factories as f
    from tournaments.models import Round

    if size == "phone":
        context = phone_context(browser, bypass_csp=True)  # axe goes in as an inline script: the CSP refuses it
    else:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR", bypass_csp=True)
    page = context.new_page()
    base = live_server.url
    slug, league = "torneio-de-demonstracao", "torneio-de-pontos-corridos"
    from scoring.models import Match

    link = next(iter(table_links.ensure_links(Match.objects.filter(tournament__slug=slug)).values()))  # an open table
    strict = {"login", "home", "grid", "standings", "stages", "table", "organizer-home", "print", "dashboard",
              "organizations"}
    public = {
        "login": "/entrar/",
        "home": "/",
        "tournament": f"/torneios/{slug}/",
        "bracket": f"/torneios/{slug}/chave/",
        "standings": f"/torneios/{league}/classificacao/",
        "grid": f"/torneios/{league}/grupos/",
        "stages": f"/torneios/{slug}/fases/",
        "projector": f"/torneios/{slug}/telao/",
        "table": table_links.table_path(link),
    }
    found = {}

    def check(name: str, path: str) -> None:
        page.goto(base + path)
        if size == "phone":
            shot(page, f"axe-{name}.png", full_page=False)
        found[name] = violations(page, STRICT if name in strict else BLOCKING)

    for name, path in public.items():
        check(name, path)
        if name == "login":  # the username first, no Tabs through the site's menu
            if page.evaluate("document.activeElement && document.activeElement.id") != "id_username":
                found["login-focus"] = ["the username has no focus"]
        if name == "table" and page.locator("main h1").count() != 1:
            found["table-h1"] = ["no h1 in a main landmark"]
    context.clear_cookies()
    login(page, base, "arbitro")
    for name, path in {"tables": "/arbitragem/", "sumula": f"/sumulas/partida/{demo['match'].pk}/"}.items():
        check(name, path)
    context.clear_cookies()
    login(page, base, "organizador")  # the dashboard by state
    check("dashboard", f"/torneios/{slug}/painel/")
    check("organizer-home", "/meus-torneios/")
    check("organizations", "/organizacoes/")
    check("print", f"/sumulas/impressao/rodada/{Round.objects.filter(tournament__slug=slug).order_by('number')[0].pk}/")
    if size == "phone":  # after registering a pair the focus stays on the form
        from django.contrib.auth import get_user_model

        from tournaments import services

        organizer = get_user_model().objects.get(username="organizador")
        new = f.tournament(organizer, slug="copa-axe")
        services.configure_stage(new, organizer, format="single_elimination")
        page.goto(f"{base}/torneios/{new.slug}/painel/")
        form = page.get_by_test_id("pair-form")
        form.locator("#pair_name").fill("Zap")
        form.locator("#pair_first_name").fill("Ana Souza")
        form.locator("#pair_second_name").fill("Beto Lima")
        form.locator("button[type=submit]").first.click()
        expect(page.locator("#messages")).to_contain_text("Zap")
        if not page.evaluate("document.activeElement.closest('#pair-form') !== null"):
            found["registered-focus"] = [page.evaluate("document.activeElement.outerHTML.slice(0, 80)")]
        found["registered"] = violations(page, STRICT)
    context.close()
    return found
