"""The table page through a real hour: a phone that recovers by itself, two phones that do not make false
conflicts, every action with an outcome on screen, the referee's answer seen at the table, a dispute that can
be withdrawn, and controls a finger can hit (≥ 44 px) with the hand's buttons above the fold at 320×640.

Requests are made to fail with Playwright's route interception (``route.abort()``): the browser still says
``navigator.onLine`` (the gym's Wi-Fi that answers nothing), which the page must not trust.

Screenshots: $TRUCO_SHOTS/table-recovers-*.png.
"""
from __future__ import annotations

import re

import pytest

from .conftest import phone_context, settled, shot, value_button

pytestmark = pytest.mark.browser

SMALL = {"width": 320, "height": 640}


@pytest.fixture
def table(make_match):
    from tables import links as table_links

    match = make_match()
    return match, table_links.ensure_links([match])[match.pk]


def _open(browser, lan_server, link, viewport=None, clock=False):
    # no service worker: every request goes through the routes a test cuts (the worker's own offline copy is
    # tests/browser/test_table_two_phones.py's). ``clock``: the page's timers run on Playwright's clock, so a
    # test moves through a minute of the table's time without waiting for it
    page = phone_context(browser, clock=clock, service_workers="block").new_page()
    if viewport:
        page.set_viewport_size(viewport)
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    page.locator("#values button.v").first.wait_for()
    return page


def _hands(match):
    from scoring.models import HandEntry

    return list(HandEntry.objects.filter(game__match=match).order_by("game__number", "position")
                .values_list("game__number", "number", "winner", "value"))


def _cut(page):
    """Every request of the page's context fails (its service worker's too); the browser still says online."""
    page.context.route("**/*", lambda route: route.abort())


def _restore(page):
    page.context.unroute("**/*")


def test_a_hiccup_of_20_s_ends_with_the_page_current_without_a_tap(lan_server, browser, table):
    from playwright.sync_api import expect

    from scoring import services

    match, link = table
    page = _open(browser, lan_server, link, clock=True)
    _cut(page)
    # the next poll fails (nudged until one is sent after the cut: a poll already on its way may still answer)
    page.wait_for_function("() => { window.trucoTable.refresh(); return /SEM REDE/.test(document.querySelector('#net')"
                           ".textContent); }", polling=1000, timeout=15_000)
    expect(page.locator("#net")).to_contain_text("SEM REDE desde")
    expect(page.locator("#net")).to_contain_text("tentando")
    assert page.evaluate("navigator.onLine") is True
    page.locator("#undo").tap()                                       # said, never silent
    expect(page.locator("#msg")).to_contain_text("Nada foi desfeito: sem rede")
    services.record_hand(match, {"winner": 1, "ended_by": "tricks", "value": 3}, match.tournament.organizer)  # the other phone
    shot(page, "table-recovers-offline.png")
    page.clock.run_for(20_000)                                        # 20 s of the page's time: every poll fails
    expect(page.locator("#pts1")).to_have_text("0")                   # still the old score: nothing got through
    _restore(page)
    expect(page.locator("#pts1")).to_have_text("3", timeout=10_000)   # current again, no tap
    expect(page.locator("#net")).to_have_text("conectado", timeout=10_000)
    # a hand tapped while requests fail says it waits on the phone (never "enviando…" for ever), then goes
    _cut(page)
    value_button(page, 0, 1).tap()
    expect(page.locator("#msg")).to_contain_text("guardada neste celular")
    expect(page.locator("#net")).to_contain_text("1 na fila")
    page.clock.run_for(3_000)
    expect(page.locator("#msg")).not_to_contain_text("enviando")
    _restore(page)
    settled(page, timeout=10_000)
    assert _hands(match) == [(1, 1, 1, 3), (1, 2, 0, 1)]
    expect(page.locator("#net")).to_have_text("conectado")


def test_two_phones_alternating_hands_3_s_apart_make_no_conflict(lan_server, browser, table):
    from playwright.sync_api import expect

    from tables.models import EntryConflict

    match, link = table
    a = _open(browser, lan_server, link, clock=True)
    b = _open(browser, lan_server, link, viewport=SMALL, clock=True)
    plays = [(a, 0), (b, 1), (a, 0), (b, 1), (a, 0), (b, 1)]       # each hand unlike the one before (else: asked)
    for page, team in plays:
        value_button(page, team, 1).tap()
        settled(page)                                                # its answer in, then 3 s on both phones
        for phone in (a, b):
            phone.clock.run_for(3_000)
    settled(a)
    settled(b)
    assert EntryConflict.objects.filter(match=match).count() == 0
    assert [(hand, team) for _, hand, team, _ in _hands(match)] == [(n, t) for n, (_, t) in enumerate(plays, start=1)]
    for page in (a, b):
        expect(page.locator("#conflict")).to_be_hidden()
        expect(page.locator("#conflicts")).to_be_hidden()
    b.evaluate("() => window.trucoTable.refresh()")
    expect(b.locator("#pts0")).to_have_text("3")
    for page in (a, b):
        expect(page.locator("#msg")).to_contain_text("lançada")
    expect(b.locator("#pts1")).to_have_text("3")
    shot(b, "table-recovers-alternating-320.png")


def test_the_hand_the_other_phone_has_just_entered_asks_before_it_counts_twice(lan_server, browser, table):
    from playwright.sync_api import expect

    match, link = table
    a = _open(browser, lan_server, link)
    b = _open(browser, lan_server, link, viewport=SMALL)
    b.wait_for_timeout(2_500)                                         # B's score is not confirmed lately
    value_button(a, 0, 3).tap()
    settled(a)
    value_button(b, 0, 3).tap()                                       # the same hand, on a screen not updated yet
    expect(b.locator("#ask")).to_contain_text("O outro celular acabou de lançar esta mão")
    shot(b, "table-recovers-same-hand-320.png")
    b.locator("#ask button.no").tap()
    settled(b)
    assert _hands(match) == [(1, 1, 0, 3)]
    expect(b.locator("#pts0")).to_have_text("3")


def test_a_call_made_offline_arrives_once_and_the_table_sees_who_is_coming(lan_server, browser, table):
    from playwright.sync_api import expect

    from referee import calls
    from referee.models import RefereeCall

    match, link = table
    page = _open(browser, lan_server, link)
    other = _open(browser, lan_server, link, viewport=SMALL)
    sent = []
    page.on("request", lambda r: sent.append(r.headers.get("idempotency-key")) if r.url.endswith("/calls/") else None)
    _cut(page)
    page.locator("#call").tap()
    expect(page.locator("#msg")).to_contain_text("na fila deste celular")
    expect(page.locator("#last li.pending")).to_contain_text("Chamada ao árbitro")
    page.wait_for_timeout(4_000)                                      # tried, refused by the network
    assert RefereeCall.objects.count() == 0
    _restore(page)
    settled(page, timeout=10_000)
    expect(page.locator("#msg")).to_contain_text("Árbitro chamado às")
    assert RefereeCall.objects.filter(match=match).count() == 1
    assert len(set(k for k in sent if k)) == 1                       # one Idempotency-Key, however many tries
    expect(page.locator("#calls p.waiting")).to_contain_text("aguardando resposta")
    calls.take(RefereeCall.objects.get(), match.referee)              # the referee's "Estou indo"
    for phone in (page, other):                                       # both phones of the table see it
        phone.evaluate("() => window.trucoTable.refresh()")
        expect(phone.locator("#calls p.coming")).to_contain_text("Árbitro a caminho: Carla,")
    shot(other, "table-recovers-referee-coming-320.png")


def test_a_dispute_asks_first_goes_once_when_made_offline_and_the_table_withdraws_it(lan_server, browser, table):
    from playwright.sync_api import expect

    from referee.models import RefereeCall

    match, link = table
    page = _open(browser, lan_server, link)
    value_button(page, 0, 3).tap()
    settled(page)
    page.locator("#last button.dispute").tap()
    dialog = page.locator("#confirm-dispute")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("chama o árbitro")
    shot(page, "table-recovers-dispute-confirm.png")
    dialog.locator("button.no").tap()
    expect(page.locator("#msg")).to_contain_text("nada foi enviado")
    assert RefereeCall.objects.count() == 0
    _cut(page)                                                        # disputed with requests failing: queued
    page.locator("#last button.dispute").tap()
    dialog.locator("button.yes").tap()
    expect(page.locator("#msg")).to_contain_text("na fila deste celular")
    page.wait_for_timeout(2_000)
    _restore(page)
    settled(page, timeout=10_000)
    expect(page.locator("#msg")).to_contain_text("Contestação enviada")
    assert RefereeCall.objects.filter(kind="dispute").count() == 1
    expect(page.locator("#last li.disputed")).to_have_count(1)
    withdraw = page.locator("#calls button.withdraw")
    expect(withdraw).to_have_text("Retirar a contestação")
    withdraw.tap()
    settled(page)
    expect(page.locator("#msg")).to_contain_text("Contestação retirada")
    assert RefereeCall.objects.get().resolution == "withdrawn"
    page.evaluate("() => window.trucoTable.refresh()")
    expect(page.locator("#last li.disputed")).to_have_count(0)
    expect(page.locator("#calls")).to_be_hidden()


AXE_TARGET_SIZE = """async () => {
    const r = await axe.run(document, {runOnly: {type: 'rule', values: ['target-size']}});
    return r.violations.map(v => ({id: v.id, nodes: v.nodes.map(n => n.target.join(' '))}));
}"""

SMALL_CONTROLS = """() => [...document.querySelectorAll('button, select, input:not([type=hidden]), summary, a[href]')]
    .filter(el => el.offsetParent !== null && !el.closest('dialog:not([open])'))
    .map(el => { const r = el.getBoundingClientRect(); return [el.id || el.className || el.textContent.trim().slice(0, 30),
                                                              Math.round(r.width), Math.round(r.height)]; })
    .filter(([, w, h]) => w < 44 || h < 44)"""


def test_every_control_is_a_finger_wide_and_the_hand_fits_above_the_fold_at_320(lan_server, browser, table):
    """axe's target-size, every visible control ≥ 44 px, and at 320×640 during a hand (a time limit set): the value
    buttons, undo and call within the first screen; the status line on screen after an action at the bottom."""
    from pathlib import Path

    from playwright.sync_api import expect

    from scoring import services
    from room.services import ready

    match, link = table
    ready.configure_room(match.tournament, match.tournament.organizer, time_limit=90, end_of_time="eleven_all")
    services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, match.tournament.organizer)
    axe = Path(__file__).parent / "vendor" / "axe.min.js"
    for size, name in ((SMALL, "320x640"), ({"width": 390, "height": 844}, "390")):
        context = phone_context(browser, bypass_csp=True)                # axe goes in as an inline script
        page = context.new_page()
        page.set_viewport_size(size)
        page.goto(f"{lan_server.url}/mesa/{link.token}/")
        page.locator("#values button.v").first.wait_for()
        expect(page.get_by_test_id("time-limit")).to_be_attached()
        shot(page, f"table-recovers-hand-{name}.png")
        page.add_script_tag(path=str(axe))
        assert page.evaluate(AXE_TARGET_SIZE) == [], name
        assert page.evaluate(SMALL_CONTROLS) == [], name
        page.locator("#all-box > summary").tap()                       # the match's entries open: their buttons too
        assert page.evaluate(SMALL_CONTROLS) == [], name
        page.locator("#all-box > summary").tap()
        fold = size["height"]
        for control in [*page.locator("#values button.v").all(), page.locator("#undo"), page.locator("#call")]:
            box = control.bounding_box()
            assert box and box["y"] >= 0 and box["y"] + box["height"] <= fold, (name, control.text_content(), box)
        page.locator("#more-btn").tap()                                # the claims, appeals and PIN forms too
        expect(page.locator("#more")).to_be_visible()
        assert page.evaluate(SMALL_CONTROLS) == [], name
        page.keyboard.press("Escape")
        page.mouse.wheel(0, 2000)                                      # scrolled to the end, then undo
        page.locator("#undo").tap()
        expect(page.locator("#msg")).not_to_be_empty()                 # refused, and why (the organizer entered it)
        box = page.locator("#msg").bounding_box()
        assert box and 0 <= box["y"] and box["y"] + box["height"] <= fold, (name, box)
        shot(page, f"table-recovers-after-undo-{name}.png")
        context.close()


def test_a_hand_recorded_whose_answer_is_late_is_not_counted_twice_by_the_next_tap(lan_server, browser, table):
    """A hand the server recorded while its answer is still on the way is on the server's score: the next
    tap, checked against that score, goes to the next hand (never counted twice, never a conflict)."""
    from playwright.sync_api import expect

    match, link = table
    page = phone_context(browser, clock=True).new_page()
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    page.locator("#values button.v").first.wait_for()
    held = []

    def hold(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # recorded by the server; its answer kept back

    page.route("**/hands/", hold)
    value_button(page, 0, 3).tap()
    page.wait_for_function("() => window.trucoTable.queue().length === 1")
    while not held:
        page.wait_for_timeout(50)
    page.clock.fast_forward(3000)  # the score this phone shows is no longer fresh: the next tap is checked
    value_button(page, 1, 1).tap()
    page.wait_for_timeout(1500)  # the check's refresh: the server already has the first hand
    route, response = held[0]
    route.fulfill(response=response)
    settled(page)
    assert _hands(match) == [(1, 1, 0, 3), (1, 2, 1, 1)]
    expect(page.locator("#pts0")).to_have_text("3")
    expect(page.locator("#pts1")).to_have_text("1")


def test_a_late_poll_never_takes_the_score_back(lan_server, browser, table):
    """A poll asked before a hand was recorded and answered after it (the gym's Wi-Fi holds it back) describes
    the súmula before that hand: the page keeps the hand's answer, never shows the older score."""
    from playwright.sync_api import expect

    match, link = table
    page = phone_context(browser, clock=True, service_workers="block").new_page()  # every request routed
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    page.locator("#values button.v").first.wait_for()
    held = []

    def hold(route):
        if held:
            route.continue_()
        else:
            held.append((route, route.fetch()))  # the server's answer now (0 × 0), delivered late

    page.route(re.compile(r"/estado/(\?|$)"), hold)   # the page's poll (with the key of its preview)
    page.clock.fast_forward(16_000)              # the page's poll goes out, and is held
    while not held:
        page.wait_for_timeout(50)
    value_button(page, 0, 3).tap()
    settled(page)
    expect(page.locator("#pts0")).to_have_text("3")
    route, response = held[0]
    route.fulfill(response=response)             # the old answer arrives at last
    page.wait_for_timeout(500)                   # taken by the page (a poll would put things right 15 s later)
    assert page.locator("#pts0").inner_text() == "3"
    assert _hands(match) == [(1, 1, 0, 3)]
