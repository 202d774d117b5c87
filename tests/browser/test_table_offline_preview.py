"""The table page previews a hand queued offline with the engine's rules, sent with its state
(referee.engine.preview; docs/table-links.md, "The offline preview"): the page computes none.

At 11–5 (a mão de onze, art. 18) a phone without network queues a hand: won by the team at 11 it ends the
game (a game ends at 12) and the next game starts where the engine says — 0×0, or 11×11 under the room's
``eleven_all`` past the time limit (a mão de ferro, art. 18, 20); lost, the opponents score the mão de onze's 3
(art. 18) and the game goes on. Back online, the server records what the page showed.
"""
from __future__ import annotations

import datetime

import pytest

from .conftest import phone_context, settled, value_button

pytestmark = pytest.mark.browser


def _eleven_five(match):
    """Game 1 at 11–5 for Os Zapeiros (pair A), through the one write path."""
    from scoring import services

    by = match.tournament.organizer
    for winner, value in ((1, 3), (1, 1), (1, 1), (0, 9), (0, 1), (0, 1)):
        services.record_hand(match, {"winner": winner, "ended_by": "tricks", "value": value}, by)


@pytest.mark.parametrize("end_of_time, team, score, game, label", [
    ("", 0, ("0", "0"), "Partida 2", None),                          # the next game at 0×0
    ("eleven_all", 0, ("11", "11"), "Partida 2", "3 · mão de ferro"),  # the next game at 11×11 (art. 18, 20)
    ("", 1, ("11", "8"), "Partida 1 · mão 8", "3 · mão de onze"),      # art. 18: the mão de onze is worth 3
], ids=["next-game-0x0", "eleven-all-11x11", "mao-de-onze-lost"])
def test_a_hand_queued_offline_at_eleven_shows_the_engines_preview(lan_server, browser, make_match, end_of_time,
                                                                   team, score, game, label):
    from django.utils import timezone
    from playwright.sync_api import expect

    from scoring.models import Match
    from tables import links as table_links

    match = make_match(best_of=3)
    _eleven_five(match)
    if end_of_time:  # the room's time limit ran out a minute ago under this procedure
        Match.objects.filter(pk=match.pk).update(end_of_time=end_of_time,
                                                 time_up_at=timezone.now() - datetime.timedelta(minutes=1))
    link = table_links.ensure_links([match])[match.pk]
    page = phone_context(browser, service_workers="block").new_page()
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    value_button(page, team, 3).wait_for()
    page.context.route("**/*", lambda route: route.abort())   # no network: the hand waits on the phone
    value_button(page, team, 3).tap()
    expect(page.locator("#msg")).to_contain_text("guardada neste celular", timeout=10_000)
    expect(page.locator("#pts0")).to_have_text(score[0])
    expect(page.locator("#pts1")).to_have_text(score[1])
    expect(page.locator("#where")).to_contain_text(game)
    if label:
        expect(page.locator("#values .col[data-team='0'] button.v").first).to_have_text(label)
    page.context.unroute("**/*")
    settled(page)
    match.refresh_from_db()
    # the server recorded what the page previewed
    state = page.evaluate("() => window.trucoTable.server().state")
    assert [str(n) for n in state["score"]] == list(score)
    expect(page.locator("#pts0")).to_have_text(score[0])
    expect(page.locator("#pts1")).to_have_text(score[1])


@pytest.mark.parametrize("procedure, team, score, where", [
    ("higher_score", 0, ("12", "5"), "Jogo encerrado: tempo esgotado"),  # more games (1–0) wins the match
    ("higher_score", 1, ("11", "8"), "Jogo encerrado: tempo esgotado"),  # games level: the pair ahead in the game
    ("one_more_hand", 1, ("11", "8"), "Partida 1 · mão 8"),              # one more hand to play
], ids=["games-decide", "game-in-play-decides", "one-more-hand"])
def test_past_the_time_limit_a_hand_queued_offline_shows_the_match_over_where_the_server_ends_it(
        lan_server, browser, make_match, procedure, team, score, where):
    """The room's higher_score / one_more_hand past the limit (art. 26: a case the regulation leaves to the organizer,
    docs/room.md): the engine's preview says when the procedure ends the match, and the phone shows it over (not a
    next game the server then refuses), as the server records it when the hand arrives."""
    from django.utils import timezone
    from playwright.sync_api import expect

    from scoring.models import Match
    from tables import links as table_links

    from scoring.models import HandEntry

    match = make_match(best_of=3)
    _eleven_five(match)
    now = timezone.now()   # the hands so far were played before the limit, a minute ago
    HandEntry.objects.filter(game__match=match).update(created_at=now - datetime.timedelta(minutes=2))
    Match.objects.filter(pk=match.pk).update(end_of_time=procedure, time_up_at=now - datetime.timedelta(minutes=1))
    link = table_links.ensure_links([match])[match.pk]
    page = phone_context(browser, service_workers="block").new_page()
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    value_button(page, team, 3).wait_for()
    page.context.route("**/*", lambda route: route.abort())   # no network: the hand waits on the phone
    value_button(page, team, 3).tap()
    expect(page.locator("#msg")).to_contain_text("guardada neste celular", timeout=10_000)
    expect(page.locator("#where")).to_contain_text(where)
    expect(page.locator("#pts0")).to_have_text(score[0])
    expect(page.locator("#pts1")).to_have_text(score[1])
    over = where.startswith("Jogo encerrado")
    expect(page.locator("#entry")).to_be_hidden() if over else expect(page.locator("#entry")).to_be_visible()
    page.context.unroute("**/*")
    settled(page)
    match.refresh_from_db()
    assert (match.winner is not None) is over   # the server ended it where the page said
    if over:
        expect(page.locator("#where")).to_have_text("Jogo encerrado")


def test_a_state_without_the_preview_leaves_the_table_its_buttons(lan_server, browser, make_match):
    """A state from a server (or a page) from before the preview: the page computes no rule, so it previews nothing,
    says so ("sem prévia: a súmula confirma ao reconectar") and still lets the table queue hands with the values the
    last state allowed; back online they go in order where the súmula is, and it records them."""
    import json

    from playwright.sync_api import expect

    from tables import links as table_links

    from .conftest import past_double_tap

    match = make_match()
    link = table_links.ensure_links([match])[match.pk]
    page = phone_context(browser, clock=True, service_workers="block").new_page()

    network = {"up": True, "old": True}

    def serve(route):   # the network as the test says: down, or up with the state of a server from before the preview
        if not network["up"]:
            route.abort()
            return
        if not (network["old"] and "/estado/" in route.request.url):
            route.continue_()
            return
        try:   # the whole exchange: the test may end (its context closed) at any step of it
            response = route.fetch()
            data = response.json()
            data.pop("preview", None)
            data.pop("preview_key", None)
            route.fulfill(response=response, body=json.dumps(data))
        except Exception:   # the test ended meanwhile: the response is disposed, nothing waits for it
            return

    page.context.route("**/*", serve)
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    page.wait_for_function("() => window.trucoTable && !window.trucoTable.server().preview")
    value_button(page, 0, 1).wait_for()
    network["up"] = False
    value_button(page, 0, 1).tap()
    expect(page.locator("#msg")).to_contain_text("sem prévia: a súmula confirma ao reconectar", timeout=10_000)
    past_double_tap(page)
    value_button(page, 1, 3).tap()   # the buttons are still there
    past_double_tap(page)
    expect(page.locator("#where")).to_contain_text("sem prévia: a súmula confirma ao reconectar")
    expect(page.locator("#pts0")).to_have_text("0")   # nothing previewed: the súmula's score
    assert page.evaluate("() => window.trucoTable.queue().length") == 2
    network["up"] = True
    page.evaluate("() => window.trucoTable.flush()")
    settled(page)
    match.refresh_from_db()
    game = match.games.get()
    assert (game.score_a, game.score_b) == (1, 3)
    expect(page.locator("#pts0")).to_have_text("1")
    expect(page.locator("#pts1")).to_have_text("3")


def test_a_poll_sends_back_the_key_and_the_page_keeps_its_preview(lan_server, browser, make_match):
    """The page's polls say the key of the preview it holds, so the server leaves the preview out (~24 kB of JSON,
    ~3 kB gzipped, less per poll); the page keeps its own, also in the copy it keeps for a reload offline."""
    from tables import links as table_links

    from .conftest import Fetched

    match = make_match()
    link = table_links.ensure_links([match])[match.pk]
    page = phone_context(browser, service_workers="block").new_page()
    answers = []
    page.on("response", lambda r: answers.append(r) if "/estado/" in r.url else None)
    fetched = Fetched(page)
    page.goto(f"{lan_server.url}/mesa/{link.token}/")
    value_button(page, 0, 1).wait_for()
    key = page.evaluate("() => window.trucoTable.server().preview_key")
    page.evaluate("() => window.trucoTable.refresh()")
    page.wait_for_function("n => window.trucoTable && performance.getEntriesByType('resource')"
                           ".filter(e => e.name.includes('/estado/')).length >= n", arg=2)
    assert fetched.count(f"/estado/?preview={key}") >= 2
    assert all("preview" not in a.json() for a in answers if f"preview={key}" in a.url)
    kept = page.evaluate("() => [!!window.trucoTable.server().preview, "
                         f"!!JSON.parse(localStorage.getItem('mesa-{link.token}')).preview]")
    assert kept == [True, True]
