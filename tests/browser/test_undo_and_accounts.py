"""The undo toast and the accounts page in the browser, on a 360 px phone: a withdrawal offers "Desfazer"
for a few seconds and it puts the pair back; a site operator creates an organizer on "Contas" and the
organizer chooses a password from the link, and a locked-out referee is unlocked there.
Screenshots: $TRUCO_SHOTS/u2-undo-toast.png, $TRUCO_SHOTS/u2-accounts.png, $TRUCO_SHOTS/u2-password-set.png."""
from __future__ import annotations

import pytest

from .conftest import log_in, shot

pytestmark = pytest.mark.browser
NARROW = {"width": 360, "height": 780}


def narrow_page(browser):
    return browser.new_context(viewport=NARROW, device_scale_factor=1, is_mobile=True, has_touch=True,
                               locale="pt-BR").new_page()


def test_a_withdrawal_is_undone_from_the_toast(live_server, browser, transactional_db, settings):
    from playwright.sync_api import expect

    from tests.tournaments import pages_fixtures as pf
    from tournaments.models import Pair

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    org = pf.organizer("olga")
    t = pf.tournament(org, pairs=4)
    pair = Pair.objects.filter(tournament=t).order_by("pk").first()
    page = narrow_page(browser)
    page.goto(f"{live_server.url}/entrar/?next=/torneios/{t.slug}/painel/")
    log_in(page, "olga", "x")
    row = page.locator(f"#pair-{pair.pk}")
    if not row.is_visible():  # after the draw the roster is folded
        page.locator("details.roster-list > summary").click()
    row.locator("summary", has_text="desistência").click()
    row.locator(f"#withdraw-{pair.pk}").fill("foi embora")
    page.once("dialog", lambda dialog: dialog.accept())
    row.get_by_role("button", name="Confirmar a desistência").click()
    toast = page.get_by_test_id("undo-toast")
    expect(toast).to_be_visible()
    expect(toast).to_contain_text("desistiu")
    box = toast.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= NARROW["width"]  # on the phone's screen
    shot(page, "u2-undo-toast.png")
    toast.get_by_role("button", name="Desfazer").click()
    expect(page.locator("#messages")).to_contain_text("a dupla volta ao torneio")
    pair.refresh_from_db()
    assert pair.status == Pair.Status.CONFIRMED


def test_accounts_page_creates_an_organizer_and_unlocks_a_referee(live_server, browser, transactional_db, settings):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    User = get_user_model()
    User.objects.create_superuser("chefe", password="chefe-123")
    User.objects.create_user("carla", password="apito-123", first_name="Carla", last_name="Mendes")
    locked = narrow_page(browser)
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked.goto(f"{live_server.url}/entrar/")
        log_in(locked, "carla", "errada")
    page = narrow_page(browser)
    page.goto(f"{live_server.url}/entrar/?next=/contas/")
    log_in(page, "chefe", "chefe-123")
    expect(page.get_by_test_id("locks")).to_contain_text("Carla Mendes")
    form = page.get_by_test_id("new-organizer")
    form.get_by_label("Usuário").fill("ana")
    form.get_by_label("Nome").fill("Ana Souza")
    form.get_by_role("button", name="Criar a conta").click()
    link = page.locator("#password-url").input_value()
    assert "/conta/senha/" in link
    shot(page, "u2-accounts.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= NARROW["width"], width  # nothing runs past the phone's edge
    page.get_by_test_id("locks").get_by_role("button", name="Desbloquear").click()
    expect(page.locator("#messages")).to_contain_text("desbloqueado")

    newcomer = narrow_page(browser)
    newcomer.goto(link)
    newcomer.fill("#id_new_password1", "zap-de-ouro-77")
    newcomer.fill("#id_new_password2", "zap-de-ouro-77")
    shot(newcomer, "u2-password-set.png")
    newcomer.get_by_role("button", name="Salvar a senha").click()
    expect(newcomer.get_by_test_id("password-done")).to_be_visible()
    assert User.objects.get(username="ana").check_password("zap-de-ouro-77")
