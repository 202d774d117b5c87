"""A referee's invitation on phones: the organizer makes the link, the QR code on the
screen reads back to it (zbarimg), the copy button copies it; the referee opens it on their phone,
chooses a login and a password, and lands signed in on "Minhas mesas". No serious accessibility
violation on either page. Screenshots: $TRUCO_SHOTS/invite-organizer.png, $TRUCO_SHOTS/invite-referee*.png.
"""
from __future__ import annotations

import shutil
import subprocess

import pytest
from django.core.management import call_command

from .conftest import phone_context, shot
from .test_accessibility import login, violations

pytestmark = pytest.mark.browser


@pytest.fixture
def demo(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("load_demo", verbosity=0, stdout=open("/dev/null", "w"))


def test_the_organizer_shows_a_qr_code_and_the_referee_lands_on_their_tables(live_server, browser, demo, tmp_path):
    from playwright.sync_api import expect
    base = live_server.url
    organizer = phone_context(browser, bypass_csp=True)  # axe goes in as an inline script
    page = organizer.new_page()
    login(page, base, "organizador")
    page.goto(f"{base}/torneios/torneio-de-demonstracao/painel/")
    page.click("[data-testid=invite-referees]")
    page.fill("#inv-name", "Carla Mendes")
    page.fill("#inv-login", "carla")
    page.fill("#inv-table", "4")
    page.click("[data-testid=new-invitation] button[type=submit]")
    page.wait_for_selector("#invite-url")
    url = page.input_value("#invite-url")
    assert url.startswith(base + "/convite/")
    page.locator("#new-link").scroll_into_view_if_needed()
    shot(page, "invite-organizer.png")
    shot(page, "invite-organizer-full.png", full_page=True)
    assert violations(page) == []
    if shutil.which("zbarimg"):
        qr = tmp_path / "invite-qr.png"
        page.locator(".qr-box svg").screenshot(path=str(qr))
        read = subprocess.run(["zbarimg", "--quiet", "--raw", str(qr)],
                              capture_output=True, text=True, timeout=30).stdout.strip()
        assert read == url
    page.click("#copy-invite")
    expect(page.locator("#copy-invite")).to_have_text("Copiado")
    organizer.close()

    referee = phone_context(browser, bypass_csp=True)
    phone = referee.new_page()
    phone.goto(url)
    assert phone.input_value("#id_username") == "carla"
    shot(phone, "invite-referee-form.png")
    assert violations(phone) == []
    phone.fill("#id_password", "apito-na-mesa-7")
    phone.fill("#id_password2", "apito-na-mesa-7")
    phone.click("[data-testid=accept-invitation] button[type=submit]")
    phone.wait_for_load_state()
    assert phone.url == f"{base}/arbitragem/"
    assert "Minhas mesas" in phone.text_content("h1")
    assert "Boas-vindas, Carla Mendes" in phone.content()
    shot(phone, "invite-referee-tables.png")
    phone.goto(url)  # the link works once
    assert "já foi usado" in phone.text_content("[data-testid=refusal]")
    referee.close()
