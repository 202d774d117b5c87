"""The table page on the day (the page's half): two phones on one table, Wi-Fi that drops.

- double taps 0.2 to 1.5 s apart record one hand (the second identical tap asks "lançar outra mão igual?");
- an undo from a phone that has not refreshed names the entry it meant and is refused: the other phone's
  hand stays (needs the server half: ``UndoSerializer``);
- a request with no answer is shown "guardada neste celular, ainda não confirmada", sent again with the same
  Idempotency-Key, and "lançada" only once the server answered;
- a phone's offline queue that clashes with the other phone's hand is kept, marked, with the choices (and a
  dispute of the other phone's hand, which that phone then shows); the same hands queued on both phones are
  recorded once and the phone is told so; the other phone and the referee's list see a conflict until the
  phone that has it chooses (the server records it on the refusal);
- an entry refused for good (the engine's words) stays on the phone until the player discards it;
- the page reloads with the network down after one load (service worker, localhost).
- over plain HTTP on a LAN name (no service worker) the page asks to keep the tab open while entries wait.

Screenshots: $TRUCO_SHOTS/two-phones-*.png.
"""
from __future__ import annotations


import pytest

from .conftest import past_double_tap, phone_context, shot, value_button

pytestmark = pytest.mark.browser


@pytest.fixture
def table(make_match):
    from tables import links as table_links
    match = make_match()
    return match, table_links.ensure_links([match])[match.pk]


def _hands(match):
    from scoring.models import HandEntry

    return list(HandEntry.objects.filter(game__match=match).order_by("game__number", "position")
                .values_list("game__number", "number", "winner", "value"))


SEND_TIMEOUT_MS, RETRY_AFTER_TIMEOUT_MS = 6000, 2000  # templates/scoring/_entry_core.js


def _open(browser, lan_server, link, clock: bool = False, fresh: bool = False):
    page = phone_context(browser, clock=clock, fresh=fresh).new_page()
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    page.locator("#values button.v").first.wait_for()
    return page


def _settled(page):
    """Nothing of this phone waits to be sent."""
    page.wait_for_function("() => window.trucoTable.queue().length === 0", timeout=15000)


def test_double_taps_from_0_2_to_1_5_s_record_one_hand(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    page = _open(browser, lan_server, link, clock=True)
    taps = ((200, 0, 1), (550, 1, 1), (800, 0, 3), (1200, 1, 3), (1500, 0, 6))
    for n, (delay, team, value) in enumerate(taps, start=1):
        page.evaluate("""([team, value, delay]) => {
            const b = () => document.querySelector(`#values .col[data-team='${team}'] button[data-value='${value}']`);
            b().click(); setTimeout(() => b().click(), delay); }""", [team, value, delay])
        page.clock.fast_forward(delay + 300)  # the page's clock: the second tap comes after ``delay``
        if delay >= 500:   # past the 500 ms lock: the page asks instead of sending a second hand
            expect(page.locator("#ask")).to_contain_text("Lançar outra mão igual?")
            page.locator("#ask button.no").tap()
        _settled(page)
        assert len(_hands(match)) == n, (delay, _hands(match))
    shot(page, "two-phones-double-taps.png")
    assert [(t, v) for *_, t, v in _hands(match)] == [(t, v) for _, t, v in taps]


def test_a_stale_undo_is_refused_and_the_other_phones_hand_stays(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    a = _open(browser, lan_server, link, fresh=True)
    value_button(a, 0, 3).tap()
    _settled(a)
    b = _open(browser, lan_server, link, clock=True, fresh=True)  # B sees hand 1
    expect(b.locator("#last li")).to_have_count(1)
    value_button(a, 1, 1).tap()                          # A enters hand 2; B has not refreshed
    _settled(a)
    sent = []
    b.on("request", lambda r: sent.append(r.post_data_json) if r.url.endswith("/undo/") else None)
    b.locator("#undo").tap()
    expect(b.locator("#msg")).to_contain_text("Nada foi desfeito")
    assert sent == [{"game": 1, "position": 1}]   # B's undo named the entry it meant
    assert _hands(match) == [(1, 1, 0, 3), (1, 2, 1, 1)]
    expect(b.locator("#pts1")).to_have_text("1")   # and B caught up
    shot(b, "two-phones-stale-undo.png")
    b.clock.fast_forward(1100)                     # past the undo button's double-tap lock (1 s)
    b.locator("#undo").tap()                       # now B sees hand 2 as the last: this undo removes it
    expect(b.locator("#msg")).to_contain_text("desfeito")
    assert sent[-1] == {"game": 1, "position": 2}
    expect(b.locator("#pts1")).to_have_text("0")
    assert _hands(match) == [(1, 1, 0, 3)]


def test_a_stalled_request_is_shown_unconfirmed_and_sent_again_with_the_same_key(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    page = _open(browser, lan_server, link, clock=True)
    held, keys = [], []
    page.on("request", lambda r: keys.append(r.headers.get("idempotency-key")) if r.url.endswith("/hands/") else None)
    page.route("**/hands/", lambda route: held.append(route))     # connected Wi-Fi that drops packets
    value_button(page, 0, 3).tap()
    expect(page.locator("#msg")).not_to_contain_text("lançada")
    while not held:                                                # sent: the page's timer for an answer runs
        page.wait_for_timeout(20)
    page.clock.fast_forward(SEND_TIMEOUT_MS + 100)                 # no answer within it (the page's clock)
    expect(page.locator("#last li.unconfirmed")).to_contain_text("guardada neste celular, ainda não confirmada")
    expect(page.locator("#msg")).to_contain_text("ainda não confirmada")
    expect(page.locator("#net")).not_to_have_text("conectado")
    shot(page, "two-phones-unconfirmed.png")
    assert _hands(match) == []
    page.unroute("**/hands/")                                      # the network answers again
    page.clock.fast_forward(RETRY_AFTER_TIMEOUT_MS + 100)          # the page sends it again
    expect(page.locator("#msg")).to_contain_text("Mão 1 lançada")
    expect(page.locator("#net")).to_have_text("conectado")
    assert _hands(match) == [(1, 1, 0, 3)]
    assert len(keys) >= 2 and len(set(keys)) == 1, keys             # the same Idempotency-Key every time


def _offline(page, on: bool):
    page.context.set_offline(on)
    page.evaluate(f"window.dispatchEvent(new Event('{'offline' if on else 'online'}'))")


def test_an_offline_queue_that_clashes_is_kept_with_the_choices(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    a = _open(browser, lan_server, link)
    b = _open(browser, lan_server, link, clock=True)
    _offline(b, True)
    for team, value in ((0, 3), (1, 1), (0, 6)):                   # B: three hands, offline
        value_button(b, team, value).tap()
        past_double_tap(b)
    expect(b.locator("#last li.pending")).to_have_count(3)
    value_button(a, 1, 3).tap()                                         # A: another hand 1
    _settled(a)
    _offline(b, False)
    expect(b.locator("#conflict")).to_be_visible()
    expect(b.locator("#conflict")).to_contain_text("Mais 2 lançamentos")
    expect(b.locator("#last li.conflict")).to_have_count(1)
    expect(b.locator("#last li.held")).to_have_count(2)
    shot(b, "two-phones-conflict.png")
    assert _hands(match) == [(1, 1, 1, 3)]
    assert b.evaluate("window.trucoTable.queue().length") == 3    # nothing of B's was thrown away
    b.locator("#conflict button.dispute").tap()                   # B disputes A's hand: A and the referee see it
    b.locator("#confirm-dispute button.yes").tap()                # after saying that it calls the referee
    expect(b.locator("#msg")).to_contain_text("rbitro chamado")
    a.evaluate("() => window.trucoTable.refresh()")               # A's next poll
    expect(a.locator("#last li.disputed")).to_have_count(1)
    b.reload()                                                    # still there after a reload (IndexedDB)
    expect(b.locator("#conflict")).to_be_visible()
    b.locator("#conflict button.after").tap()                     # "send mine after it"
    _settled(b)
    assert _hands(match) == [(1, 1, 1, 3), (1, 2, 0, 3), (1, 3, 1, 1), (1, 4, 0, 6)]


def test_the_other_phone_and_the_referee_see_a_conflict_until_the_phone_chooses(lan_server, browser, table):
    """The server records B's refused entry; A's page and the referee's list of tables show it,
    until B's choice (told to the server) clears it."""
    from playwright.sync_api import expect

    from .conftest import sign_in

    match, link = table
    a = _open(browser, lan_server, link)
    b = _open(browser, lan_server, link)
    _offline(b, True)
    value_button(b, 0, 3).tap()                                          # B: hand 1 offline
    expect(b.locator("#last li.pending")).to_have_count(1)
    value_button(a, 1, 1).tap()                                          # A: another hand 1
    _settled(a)
    _offline(b, False)
    expect(b.locator("#conflict")).to_be_visible()
    expect(b.locator("#conflicts")).to_be_hidden()                # B's own conflict: its choices, not the banner
    a.evaluate("() => window.trucoTable.refresh()")               # A's next poll
    other = a.locator("#conflicts p.other")
    expect(other).to_contain_text("Conflito no outro celular desta mesa: partida 1, mão 1")
    shot(a, "two-phones-conflict-other.png")
    referee = browser.new_context(locale="pt-BR").new_page()
    sign_in(referee, lan_server.url, "arbitra", "ref-secret", "/arbitragem/")
    expect(referee.locator("li.conflict")).to_contain_text("Mesa 4")
    b.locator("#conflict button.keep").tap()                      # B keeps the súmula's
    expect(b.locator("#conflict")).to_be_hidden()
    b.wait_for_function("() => (window.trucoTable.server().conflicts || []).length === 0", timeout=15000)
    a.evaluate("() => window.trucoTable.refresh()")
    expect(other).to_have_count(0)
    expect(a.locator("#conflicts")).to_be_hidden()
    referee.reload()
    expect(referee.locator("li.conflict")).to_have_count(0)
    assert _hands(match) == [(1, 1, 1, 1)]


def test_the_same_hands_queued_on_both_phones_are_recorded_once(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    a = _open(browser, lan_server, link)
    b = _open(browser, lan_server, link, clock=True)
    _offline(b, True)
    for team, value in ((0, 3), (1, 1)):
        value_button(b, team, value).tap()
        past_double_tap(b)
    for team, value in ((0, 3), (1, 1)):                          # A enters the same two hands
        value_button(a, team, value).tap()
        _settled(a)
    _offline(b, False)
    _settled(b)
    expect(b.locator("#msg")).to_contain_text("contada uma vez")
    expect(b.locator("#conflict")).to_be_hidden()
    assert _hands(match) == [(1, 1, 0, 3), (1, 2, 1, 1)]
    shot(b, "two-phones-same-hands.png")


def test_the_page_reloads_offline_after_its_first_load(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    page = _open(browser, lan_server, link)
    # the worker says when it stored the page, its script and its state (a predicate returning a Promise would
    # be truthy at once: wait_for_function does not await it, which is why this test once reloaded before the
    # copies were stored and found none)
    page.wait_for_function("() => window.trucoTable.offlineReady()", timeout=15000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=15000)
    _offline(page, True)
    page.reload()
    expect(page.locator("#values button.v").first).to_be_visible()
    expect(page.locator("#net")).to_contain_text("SEM REDE")
    # the worker's stored state says it is a copy: the page never reconciles a refused entry with it
    # (an old state would make a hand the other phone recorded look like a conflict)
    assert page.evaluate("fetch(location.pathname + 'estado/', {cache: 'no-store'})"
                         ".then(r => r.headers.get('X-Truco-Copy'))") == "offline"
    value_button(page, 0, 3).tap()                                      # and it keeps queueing
    expect(page.locator("#last li.pending")).to_have_count(1)
    shot(page, "two-phones-offline-reload.png")
    _offline(page, False)
    _settled(page)
    assert _hands(match) == [(1, 1, 0, 3)]


def test_an_entry_refused_for_good_stays_until_the_player_discards_it(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    page = _open(browser, lan_server, link)
    page.route("**/hands/", lambda route: route.fulfill(
        status=400, content_type="application/json",
        body='{"error": {"field": "value", "message": "valor fora das regras"}}'))
    value_button(page, 0, 3).tap()
    expect(page.locator("#conflict")).to_contain_text("Não lançada: valor fora das regras")
    expect(page.locator("#pts0")).to_have_text("0")             # not on the score
    page.unroute("**/hands/")
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.trucoTable.queue().length") == 1   # kept on the phone
    page.locator("#conflict button.discard").tap()
    expect(page.locator("#conflict")).to_be_hidden()
    assert page.evaluate("() => window.trucoTable.queue().length") == 0
    assert _hands(match) == []


def test_over_plain_http_the_page_asks_to_keep_the_tab_while_entries_wait(lan_server, browser, table, settings):
    from playwright.sync_api import expect

    from .conftest import ARGS, CHROMIUM, PHONE

    match, link = table
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "mesa.lan"]
    port = lan_server.url.rsplit(":", 1)[1]
    # a LAN name over plain HTTP: not a secure context, so no service worker
    lan = browser.browser_type.launch(executable_path=str(CHROMIUM),
                                      args=[*ARGS, "--host-resolver-rules=MAP mesa.lan 127.0.0.2"])
    try:
        page = lan.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale="pt-BR").new_page()
        page.goto(f"http://mesa.lan:{port}/mesa/{link.token}/")
        assert page.evaluate("() => window.isSecureContext") is False
        expect(page.locator("#keep-tab")).to_be_hidden()
        _offline(page, True)
        value_button(page, 0, 3).tap()
        expect(page.locator("#keep-tab")).to_contain_text("Não fechem nem recarreguem esta aba")
        shot(page, "two-phones-plain-http.png")
        _offline(page, False)
        _settled(page)
        expect(page.locator("#keep-tab")).to_be_hidden()
        assert _hands(match) == [(1, 1, 0, 3)]
    finally:
        lan.close()


CACHED_TABLES = """() => caches.open('truco-mesa-v1').then(c => c.keys()).then(reqs =>
    [...new Set(reqs.map(r => new URL(r.url).pathname).filter(p => /^\\/mesa\\/[^/]+\\//.test(p))
                      .map(p => p.split('/')[2]))].sort())"""


def cached(page, holds, seconds: float = 15):
    """Wait until the tokens of the tables the worker's cache holds satisfy ``holds`` (polled: page.evaluate
    awaits the cache's promise, wait_for_function does not)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        tables = page.evaluate(CACHED_TABLES)
        if holds(tables):
            return tables
        assert time.monotonic() < deadline, tables
        page.wait_for_timeout(200)


def test_a_shared_phone_keeps_no_other_tables_page_nor_a_dead_links(lan_server, browser, table):
    """The worker's cache kept every table's page and token for ever on a shared phone. Opening
    another table drops the first one's copies (page, state, localStorage) unless entries of it still wait;
    a link that answers 404 (revoked, súmula received) loses its copies."""
    from scoring import services
    from tables import links as table_links
    from scoring.models import Match

    match, link = table
    other = services.create_match(pair_a=match.pair_a, pair_b=match.pair_b, tournament=match.tournament,
                                  round=match.round, table=5, by=match.tournament.organizer)
    other_link = table_links.ensure_links([other])[other.pk]
    page = _open(browser, lan_server, link)
    cached(page, lambda t: link.token in t)
    page.goto(f"{lan_server.url}/mesa/{other_link.token}/")        # the same phone, the next table
    page.locator("#values button.v").first.wait_for()
    cached(page, lambda t: t == [other_link.token])
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.includes(%r))" % link.token) == []
    # a table whose entries still wait on the phone keeps its copies (never discarded). The hand's send fails
    # (no network for it) and keeps failing until this phone is on the first table: waiting for the queue's length
    # alone (true at the tap, before the entry is stored or sent) let the send reach the server when it went
    # after the unroute, and its answer empty the queue before the next page read it (only one table kept).
    page.route("**/hands/", lambda route: route.abort())
    with page.expect_event("requestfailed", lambda r: r.url.endswith("/hands/")):   # sent: stored before
        value_button(page, 0, 3).tap()
    assert page.evaluate("() => window.trucoTable.queue().length") == 1
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    page.locator("#values button.v").first.wait_for()
    page.unroute("**/hands/")
    cached(page, lambda t: sorted(t) == sorted([link.token, other_link.token]))
    assert _hands(other) == []                                       # it did wait on the phone
    assert page.evaluate("() => Object.keys(localStorage).filter(k => k.includes(%r)).length" % other_link.token) == 2
    # the first table's link dies (revoked): its next load is a 404 and its copies go
    table_links.revoke(Match.objects.get(pk=match.pk), match.tournament.organizer)
    assert page.goto(f"{lan_server.url}/mesa/{link.token}/").status == 404
    cached(page, lambda t: t == [other_link.token])
