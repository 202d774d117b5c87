"""A player claims a tento from the table page in at most five taps, counted at 320 and 390 px: "Mais…", who
claims (the player names the claiming pair), the infraction (art. 24, a word of guidance), who committed it (the
other pair's seats only), the PIN typed where the focus already is, and "Pedir o tento". The page says the game,
the hand and the tento in play, preselected (the engine's value, art. 24); the claim reaches the referee as a
proposed ruling with those facts.

At 320×640 the whole claim fits the first screen of the dialog: from its heading to "Pedir o tento", nothing
scrolls (the infractions two a row, their article inline; the PIN, the tento and the button on one row); axe
finds nothing serious or moderate in it.

Screenshots: $TRUCO_SHOTS/table-claim-<width>.png (the form filled), $TRUCO_SHOTS/table-claim-<width>-sent.png.
"""
from __future__ import annotations

import pytest

from .conftest import PINS, phone_context, shot
from .test_accessibility import STRICT, violations
from .test_organizer_taps import Count

pytestmark = [pytest.mark.browser, pytest.mark.presentation]


@pytest.mark.parametrize("width", [320, 390])
def test_a_player_claims_a_tento_from_the_table_in_five_taps(live_server, browser, make_match, width):
    from playwright.sync_api import expect

    from referee.models import Ruling
    from scoring import services
    from tables import links as table_links

    match = make_match(pair_names=("Os Zaps", "Copas"))
    for winner in (0, 1, 0):  # 6-3 after three hands of truco: hand 4 of game 1 is played
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": 3}, match.referee)
    link = table_links.ensure_links([match])[match.pk]
    page = phone_context(browser, bypass_csp=True).new_page()  # axe goes in as an inline script
    height = 640 if width == 320 else 844
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{live_server.url}/mesa/{link.token}/")
    page.locator("#values button.v").first.wait_for()
    n = Count(page)

    n.tap(page.locator("#more-btn"))                                               # 1
    form = page.locator("#claim-form")
    shot(page, f"table-claim-{width}-open.png")
    expect(page.locator("#claim-where")).to_have_text("Partida 1 · mão 4 · tento em jogo: 1 (art. 24)")
    expect(form.locator("select[name=value]")).to_have_value("1")                  # preselected, no tap
    n.tap(form.locator("#claim-player label", has_text="Caio Reis"))               # 2: Copas claims
    n.tap(form.locator("#claim-code label", has_text="art. 24"))                   # 3: a word of guidance
    seats = form.locator("#claim-seat label")
    expect(seats).to_have_count(2)                                                 # only the other pair's seats
    expect(seats.filter(has_text="Caio Reis")).to_have_count(0)
    n.tap(seats.filter(has_text="Ana Souza"))                                      # 4: Ana said it
    pin = form.locator("input[name=pin]")
    expect(pin).to_be_focused()                                                    # the PIN is typed, not tapped
    n.type(pin, PINS["Caio Reis"])
    shot(page, f"table-claim-{width}.png")  # the first screen, as the player sees it
    box = form.get_by_role("button", name="Pedir o tento").bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, box      # nothing wider than the phone
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, box             # "Pedir o tento" in the first screen
    assert page.evaluate("document.getElementById('more').scrollTop") == 0       # nothing scrolled to get there
    top = page.locator("#more h2").first.bounding_box()
    assert top and top["y"] >= 0, top                                             # nor above it
    assert violations(page, STRICT) == []                                         # the dialog filled in: axe
    n.tap(form.get_by_role("button", name="Pedir o tento"))                        # 5
    expect(form.locator(".out")).to_contain_text("(Ana Souza, dos Zaps): os Zaps perdem o tento em jogo (1)")
    shot(page, f"table-claim-{width}-sent.png", full_page=True)
    assert n.taps <= 5, n.taps  # the bound (the form of six fields took 13)
    assert n.loads == 0
    ruling = Ruling.objects.get(match=match)
    assert (ruling.status, ruling.code, ruling.claimant_team, ruling.offender_seat) == ("proposed", "guidance_word", 1, 0)
    assert ruling.article == "art. 24" and ruling.points == 1
    page.context.close()
