"""Browser tests: Debian's chromium driven by Playwright (never a downloaded browser).

``browser`` is a headless chromium launched with the flags this closed network needs; the
tests using it are skipped only when /usr/bin/chromium is missing (scripts/bootstrap
installs it). Playwright's event loop runs in the test's thread while ``live_server``
serves from another, hence DJANGO_ALLOW_ASYNC_UNSAFE, set for these tests only.
"""
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


def log_in(page, base: str, username: str, password: str = "truco-demo", next_url: str = "") -> None:
    """Sign in on the site's login page (then on to ``next_url``, or the user's start page)."""
    page.goto(f"{base}/entrar/" + (f"?next={next_url}" if next_url else ""))
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.login button[type=submit]")
    page.wait_for_load_state()
