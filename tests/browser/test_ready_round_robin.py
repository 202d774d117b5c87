"""A 6-pair round robin with ready matches, played from the organizer's dashboard in chromium: table
1's first match takes three times longer than the others; the other pairs are called to
the free tables with one tap each and play on, and the event ends with the right standings.

Results arrive as received súmulas would (the organizer's result, ``set_result``): the browser does
the calling of ready matches, and reads the standings."""
from __future__ import annotations

import pytest

from scoring.models import Match
from tests.browser.conftest import sign_in
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import Result, Tournament
from room.services import ready


def _decide(match: Match, org) -> None:
    match = Match.objects.select_related("pair_a", "pair_b").get(pk=match.pk)
    winner = match.pair_a if match.pair_a.seed < match.pair_b.seed else match.pair_b
    services.set_result(match, org, winner=winner, games=[1, 0] if winner.pk == match.pair_a_id else [0, 1],
                        reason="súmula (test)")


@pytest.mark.django_db(transaction=True)
def test_a_slow_table_does_not_stop_the_round_robin(live_server, browser):
    from playwright.sync_api import expect

    org = f.user("org")
    org.set_password("truco-demo")
    org.save()
    t = f.tournament(org, slug="rodizio")
    pairs = f.pairs(t, 6)
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, ready_matches=True)
    services.generate_first_round(t, org)
    slow = Match.objects.get(tournament=t, round__number=1, table=1)
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="pt-BR").new_page()
    sign_in(page, live_server.url, "org", next_url=f"/torneios/{t.slug}/painel/")
    played = {p.pk: 0 for p in pairs}
    for step in range(2):  # time 1 and 2: the fast tables end, the slow one plays on
        for m in Match.objects.filter(tournament=t, table__in=[2, 3]).exclude(pk=slow.pk):
            if not Result.objects.filter(match=m).exists():
                _decide(m, org)
                played[m.pair_a_id] += 1
                played[m.pair_b_id] += 1
        page.goto(f"{live_server.url}/torneios/{t.slug}/painel/?vez={step}#room")  # a new address: a reload
        expect(page.locator("[data-testid=ready-matches] li")).to_have_count(2)
        for left in (1, 0):  # one tap per ready match; its section is replaced when the table is given
            page.locator("[data-testid=ready-matches] button").first.click()
            expect(page.locator("[data-testid=ready-matches] li")).to_have_count(left)
        expect(page.locator("[data-testid=free-tables]")).to_contain_text("Nenhuma mesa")
    for m in Match.objects.filter(tournament=t, table__in=[2, 3]).exclude(pk=slow.pk):  # time 3
        if not Result.objects.filter(match=m).exists():
            _decide(m, org)
            played[m.pair_a_id] += 1
            played[m.pair_b_id] += 1
    others = set(played) - {slow.pair_a_id, slow.pair_b_id}
    assert all(played[p] == 3 for p in others)  # rounds 1 to 3 worth while table 1 played one match
    _decide(slow, org)
    ready.configure_room(t, org, auto_call=True)  # from now on the room calls by itself
    ready.call_ready(t, org, automatic=False)
    while Match.objects.filter(tournament=t, tournament_result__isnull=True, table__isnull=False).exists():
        for m in Match.objects.filter(tournament=t, tournament_result__isnull=True, table__isnull=False):
            _decide(m, org)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    page.goto(f"{live_server.url}/torneios/{t.slug}/classificacao/")
    rows = page.locator("table.standings").first.locator("tbody tr")
    expect(rows).to_have_count(6)
    for i, pair in enumerate(pairs):
        expect(rows.nth(i)).to_contain_text(pair.name)
