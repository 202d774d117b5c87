"""Browser tests: Debian's chromium driven by Playwright (never a downloaded browser).

``browser`` is a headless chromium launched with the flags this closed network needs; the
tests using it are skipped only when /usr/bin/chromium is missing (scripts/bootstrap
installs it). Playwright's event loop runs in the test's thread while ``live_server``
serves from another, hence DJANGO_ALLOW_ASYNC_UNSAFE, set for these tests only.
"""
import datetime
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def browser(monkeypatch):
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed at /usr/bin/chromium (scripts/bootstrap installs it)")
    from django.db import connections
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()
        # Queries the test ran while Playwright's loop was current used connections of their own
        # (Django keeps them per context); close them here, or the test database cannot be dropped.
        connections.close_all()


def phone_context(browser, **extra):
    """A phone-sized page context in Portuguese, as a referee or a player holds it."""
    return browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, locale="pt-BR",
                               **extra)


def log_in(page, username: str, password: str) -> None:
    """Fill in and send the site's login form, on the page already showing it."""
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.login button[type=submit]")


@pytest.fixture
def make_phone_match(transactional_db, settings):
    """Builds the match the phone tests play: table 4 of round 1 of "Torneio de Verão", the pair
    ``pair_a`` (Ana Souza, PIN 1111; Beto Lima, 2222) against Copas (Caio Reis, 3333; Duda Melo,
    4444), refereed by ``arbitra`` (password ref-secret), organized by ``organizadora`` (org-secret)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def make(pair_a: str = "Os Zaps"):
        from django.contrib.auth import get_user_model

        from scoring import services
        from tournaments.models import Pair, Player, Round, Tournament

        users = get_user_model().objects
        organizer = users.create_user("organizadora", password="org-secret", first_name="Olga")
        # a referee is a plain user: the site's own login page (LOGIN_URL) is not the admin's
        referee = users.create_user("arbitra", password="ref-secret", first_name="Carla", last_name="Árbitra")
        tournament = Tournament.objects.create(name="Torneio de Verão", slug="torneio-de-verao", organizer=organizer,
                                               date=datetime.date(2026, 11, 21))
        players = []
        for name, pin in (("Ana Souza", "1111"), ("Beto Lima", "2222"), ("Caio Reis", "3333"),
                          ("Duda Melo", "4444")):
            player = Player(name=name)
            player.set_pin(pin)
            player.save()
            players.append(player)
        first = Pair.objects.create(tournament=tournament, name=pair_a, first_player=players[0],
                                    second_player=players[1])
        second = Pair.objects.create(tournament=tournament, name="Copas", first_player=players[2],
                                     second_player=players[3])
        round_ = Round.objects.create(tournament=tournament, number=1)
        return services.create_match(pair_a=first, pair_b=second, tournament=tournament, round=round_, table=4,
                                     referee=referee, by=organizer)

    return make


@pytest.fixture
def sumula_match(make_phone_match):
    """Os Zaps against Copas at table 4, nothing entered yet (see ``make_phone_match``)."""
    return make_phone_match()
