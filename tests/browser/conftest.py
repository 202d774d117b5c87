"""Browser tests: Debian's chromium driven by Playwright (never a downloaded browser).

The browser is Debian's ``chromium-headless-shell`` package: chromium's headless shell, built by Debian
from the same chromium source as its ``chromium`` package, and what Playwright itself drives for headless
runs. It is the same Blink engine without the full browser's processes around it: ``tests/browser``
took 57 s instead of 96 s with ``/usr/bin/chromium`` (2 xdist workers, 2 cores, 2026-11-27).
``TRUCO_CHROMIUM=/usr/bin/chromium`` drives the full browser instead (``apt-get install
--no-install-recommends chromium``).

One headless chromium per test process (``chromium``, session-scoped: launched by the first
browser test of an xdist worker, closed at the end), launched with the flags this closed network
needs; each test gets it as ``browser`` and makes its own contexts, closed after the test. The
tests are skipped only when that chromium is missing (scripts/bootstrap installs it).

Playwright's sync API keeps its event loop marked as running in the test's thread while
``live_server`` serves from another: Django would then refuse the test's own queries, hence
DJANGO_ALLOW_ASYNC_UNSAFE, set for browser tests only. Between browser tests the loop is
unmarked, so that the process's other tests run as plain synchronous code.
"""
import asyncio
import datetime
import os
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = Path(os.environ.get("TRUCO_CHROMIUM", "/usr/bin/chromium-headless-shell"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
PHONE = {"width": 390, "height": 844}
#: a folder for the screenshots the tests take of the pages they drive, for a person to look at them
#: (``TRUCO_SHOTS=var/shots scripts/test -m browser``); without it none is taken: the tests assert
#: without them, and a full-page screenshot costs a tenth of a second or more on a busy machine.
SHOTS = os.environ.get("TRUCO_SHOTS", "")


class _Chromium:
    """The process's Playwright, its event loop and its chromium (launched again if it died)."""

    def __init__(self):
        from playwright.sync_api import sync_playwright

        self.playwright = sync_playwright().start()
        self.loop = asyncio.get_running_loop()
        self.browser = None

    def launch(self):
        if self.browser is None or not self.browser.is_connected():
            self.browser = self.playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        return self.browser

    def stop(self):
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()
        self.playwright.stop()


@pytest.fixture(scope="session")
def chromium():
    """One chromium per test process (see the module's docstring)."""
    if not CHROMIUM.exists():
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (scripts/bootstrap installs it)")
    from playwright.sync_api import expect

    expect.set_options(timeout=15_000)  # a loaded 2-core machine runs chromium beside the suite: 5 s is short
    running = _Chromium()
    asyncio._set_running_loop(None)  # until a browser test takes the loop (``browser``)
    try:
        yield running
    finally:
        asyncio._set_running_loop(running.loop)
        running.stop()  # stop() leaves no loop running in this thread


class _Requests:
    """The live server's requests in flight (Django's public request signals), so that a test's end waits
    for them: the database is flushed after the test, and a page's poll still being answered then holds
    locks the flush needs (PostgreSQL answered it with "couldn't be flushed")."""

    def __init__(self):
        self.lock = threading.Lock()
        self.open = 0

    def started(self, **kwargs):
        with self.lock:
            self.open += 1

    def finished(self, **kwargs):
        with self.lock:
            self.open -= 1

    def wait_idle(self, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while self.open > 0 and time.monotonic() < deadline:
            time.sleep(0.02)


def _retry_when_locked(execute, sql, params, many, context):
    """SQLite's shared in-memory test database locks per table: a write of the test's thread meeting a read of
    the live server's (or the other way round) fails at once with "database table is locked", where a file
    database would wait (busy timeout). Wait the same way, for the tests only: up to 5 s."""
    from django.db import OperationalError

    deadline = time.monotonic() + 5
    while True:
        try:
            return execute(sql, params, many, context)
        except OperationalError as error:
            if "locked" not in str(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _wait_when_locked(sender, connection, **kwargs):
    if connection.vendor == "sqlite" and _retry_when_locked not in connection.execute_wrappers:
        connection.execute_wrappers.append(_retry_when_locked)


@pytest.fixture
def browser(chromium, monkeypatch):
    """The process's chromium, for one test: the contexts the test opens are closed after it, and the live
    server's requests in flight are waited for before the database is flushed."""
    from django.core.signals import request_finished, request_started
    from django.db import connections
    from django.db.backends.signals import connection_created

    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    requests = _Requests()
    request_started.connect(requests.started)
    request_finished.connect(requests.finished)
    connection_created.connect(_wait_when_locked)
    for connection in connections.all(initialized_only=True):
        _wait_when_locked(None, connection)
    asyncio._set_running_loop(chromium.loop)  # Playwright's sync API runs its calls on it
    try:
        for connection in connections.all(initialized_only=True):
            _wait_when_locked(None, connection)
        launched = chromium.launch()
        yield launched
        for context in launched.contexts:
            context.close()
        requests.wait_idle()
    finally:
        request_started.disconnect(requests.started)
        request_finished.disconnect(requests.finished)
        connection_created.disconnect(_wait_when_locked)
        # Queries the test ran while Playwright's loop was current used connections of their own
        # (Django keeps them per context): close them while it still is, or the test database
        # cannot be dropped at the end.
        connections.close_all()
        asyncio._set_running_loop(None)
        for connection in connections.all(initialized_only=True):
            if _retry_when_locked in connection.execute_wrappers:
                connection.execute_wrappers.remove(_retry_when_locked)


def shot(target, name: str, **options) -> None:
    """A screenshot of a page or an element, as ``$TRUCO_SHOTS/<name>``, when that folder is named (:data:`SHOTS`)."""
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        target.screenshot(path=str(Path(SHOTS) / name), **options)


def phone_context(browser, clock: bool = False, fresh: bool = False, **extra):
    """A phone-sized page context in Portuguese, as a referee or a player holds it. ``clock=True`` gives its pages
    Playwright's clock (time runs as usual until a test moves it on: :func:`past_double_tap`). ``fresh=True``: the
    entry pages take their score as just confirmed, whatever the time since (``window.trucoFreshMs``): a tap is
    sent at once, not checked against the server first, however slowly a loaded test machine runs."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale="pt-BR", **extra)
    if clock:
        context.clock.install()
    if fresh:
        context.add_init_script("window.trucoFreshMs = 1e12")
    return context


class Fetched:
    """What a page asked the network for, seen by Playwright from outside the page (whose clock and
    ``performance`` a test may have replaced): ``documents()`` counts its loads and reloads."""

    def __init__(self, page):
        self.requests: list[tuple[str, str]] = []
        page.on("request", lambda request: self.requests.append((request.resource_type, request.url)))

    def documents(self) -> int:
        return sum(1 for kind, _ in self.requests if kind == "document")

    def count(self, part: str) -> int:
        """How many requests had ``part`` in their address."""
        return sum(1 for _, url in self.requests if part in url)


DOUBLE_TAP_LOCK_MS = 500  # templates/scoring/_entry_core.js: a second tap within it is the same tap


def past_double_tap(page, extra_ms: int = 100) -> None:
    """Moves the page's clock (``phone_context(..., clock=True)``) past the entry pages' double-tap lock, so
    that the next tap is a new hand, instead of waiting half a second of real time for it. No real time
    passes: a test that needs the entry answered waits for that (:func:`settled`)."""
    page.clock.fast_forward(DOUBLE_TAP_LOCK_MS + extra_ms)


def value_button(page, team: int, value: int):
    """The entry pages' button that scores ``value`` for pair ``team`` (0 or 1)."""
    return page.locator(f"#values .col[data-team='{team}'] button[data-value='{value}']")


def enter_hand(page, team: int, value: int, settle: bool = True) -> None:
    """A hand entered by a tap on its value, confirmed if the page asks (the same hand again within seconds),
    on a page with the test clock (``phone_context(..., clock=True)``); with ``settle``,
    answered by the server too."""
    value_button(page, team, value).tap()
    past_double_tap(page)  # the next tap is a new hand
    ask = page.locator("#ask")
    if ask.is_visible():
        ask.locator("button.yes").tap()
        past_double_tap(page)
    if settle:
        settled(page)


def settled(page, timeout: float = 15_000) -> None:
    """Waits until the entry page (the súmula's or the table's) has nothing left to send: every entry sent
    and answered."""
    page.wait_for_function("() => (window.trucoSumula || window.trucoTable).queue().length === 0",
                           timeout=timeout)


PINS = {"Ana Souza": "1111", "Beto Lima": "2222", "Caio Reis": "3333", "Duda Melo": "4444"}


def log_in(page, username: str, password: str) -> None:
    """Fill in and send the site's login form, on the page already showing it."""
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form.login button[type=submit]")


def sign_in(page, base: str, username: str, password: str = "truco-demo", next_url: str = "") -> None:
    """Open the site's login page (then on to ``next_url``, or the user's start page) and sign in."""
    page.goto(f"{base}/entrar/" + (f"?next={next_url}" if next_url else ""))
    log_in(page, username, password)
    page.wait_for_load_state()


@pytest.fixture
def make_match(transactional_db, settings):
    """Makes the match the phone tests play: a tournament's round 1 at table 4, two pairs of the four players
    of :data:`PINS` (with those PINs), refereed by "arbitra" (ref-secret), organized by "organizadora"
    (org-secret). ``make_match(pair_names=("Os Zaps", "Copas"), best_of=3)``."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

    def make(pair_names=("Os Zapeiros", "Copas"), **options):
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
        for name, pin in PINS.items():
            player = Player(name=name)
            player.set_pin(pin)
            player.save()
            players.append(player)
        pairs = [Pair.objects.create(tournament=tournament, name=name, first_player=players[2 * i],
                                     second_player=players[2 * i + 1]) for i, name in enumerate(pair_names)]
        round_ = Round.objects.create(tournament=tournament, number=1)
        return services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, round=round_, table=4,
                                     referee=referee, by=organizer, **options)

    return make


@pytest.fixture
def sumula_match(make_match):
    """Os Zaps against Copas at table 4, nothing entered yet (see ``make_match``)."""
    return make_match(pair_names=("Os Zaps", "Copas"))


@pytest.fixture
def lan_server(transactional_db):
    """The site served on 127.0.0.2 (a LAN address on this machine's loopback), as the README's venue mode
    serves it on the club's network."""
    from pytest_django.live_server_helper import LiveServer

    server = LiveServer("127.0.0.2", start=False)   # port 0: the system chooses a free one
    server._live_server_modified_settings.enable()   # ALLOWED_HOSTS gets 127.0.0.2 (pytest-django's own helper)
    server.start()
    try:
        yield server
    finally:
        server.stop()
        server._live_server_modified_settings.disable()
