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
