"""The organizer's whole day on a phone (390×844), not only the narrow path: the tasks around the event
counted too, as the usability review measured them by hand (153 taps and 46 page loads then).

The account is made the README's way (``create_organizer``: no taps). Then, on the phone: log in; create
the tournament (12 pairs, 3 groups of 4, the 2 best and the 2 best thirds to a knockout of 8 with a third
place and a best-of-3 final, check-in required); 3 pairs typed in one field, 7 from an Excel-BR CSV; the
public sign-up opened and the 2 pairs that signed up (in Python, as the players would) approved; the check-in
of the 12 in one tap; a referee invited by link; the draw; the pair cards and the round's súmulas printed;
then the day: 21 quick results, one of them undone from its toast and typed again, a W.O., a withdrawal
(its next match a W.O. by itself), a correction of a typed result, 2 signed súmulas received, an appeal
decided on the review page (the ruling made and appealed in Python, as the referee and the pair would),
the group rounds and the knockout started, the final by hand, and at the end the placings and the export.

Counted as ``test_organizer_taps`` counts (``Count``): a field is a tap unless it has the focus, a select
two, a file two, a dialog's OK one; a page load is a navigation of the page (a PDF opened is one). Asserted:
≤ 100 taps and ≤ 30 page loads (the issue's bounds, :data:`BOUND`); the per-step counts are printed and
kept in docs/organizer_taps.md.
"""
from __future__ import annotations

import pytest

from .conftest import phone_context, shot
from .test_organizer_taps import PAIRS, PIN, Count, _table_plays

pytestmark = [pytest.mark.browser, pytest.mark.presentation]

TYPED, IMPORTED, SIGNED_UP = PAIRS[:3], PAIRS[3:10], PAIRS[10:]
CSV = "dupla;jogador 1;jogador 2\r\n" + "".join(f"{p};{a};{b}\r\n" for p, a, b in IMPORTED)  # Excel-BR: ; and CRLF
#: the issue's bounds (measured: 96 taps, 16 page loads; docs/organizer_taps.md, "The whole day")
BOUND = {"taps": 100, "loads": 30}


def test_the_organizer_runs_the_whole_day_in_100_taps(live_server, browser, transactional_db, settings, eager_celery):
    # eager_celery: the round's print job runs in this process, on the test's database (CI's services pass has
    # a real worker, whose database is another)
    from playwright.sync_api import expect

    from referee import appeals as referee_appeals
    from referee import services as referee_services
    from scoring.models import Match
    from tournaments import accounts
    from tournaments.models import Pair, Result, Tournament
    from tournaments.services import signup as signups

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = accounts.create_organizer(username="olga", name="Olga Reis", password="truco-demo-1")
    context = phone_context(browser)
    page = context.new_page()
    n = Count(page)
    playing = page.locator('[data-testid="matches-playing"] > li[data-match]')

    with n.step("log in"):
        n.taps += 1  # the bookmark
        page.goto(f"{live_server.url}/torneios/novo/")
        n.type(page.locator("#id_username"), "olga")
        n.type(page.locator("#id_password"), "truco-demo-1")
        with page.expect_navigation():
            n.tap(page.locator("form.login button[type=submit]"))
    with n.step("create"):
        n.type(page.locator("#id_name"), "Copa do Bar")
        n.type(page.locator("#id_date"), "2026-11-21")
        n.choose(page.locator("#id_format"), "groups_knockout")
        n.type(page.locator("#id_group_count"), "3")
        n.type(page.locator("#id_next_place_qualifiers"), "2")
        n.tap(page.locator("#id_third_place"))
        n.choose(page.locator("#id_final_best_of"), "3")
        n.tap(page.locator("#id_check_in_required"))
        with page.expect_navigation():
            n.tap(page.locator('[data-testid="new-tournament"] button[type=submit]'))
        expect(page.locator("h1")).to_have_text("Copa do Bar")
    tournament = Tournament.objects.get(slug="copa-do-bar")
    with n.step("3 pairs typed"):
        n.tap(page.locator("details:has([data-testid=typed-pairs-form]) > summary"))
        n.type(page.locator("#pairs-text"), "\n".join("; ".join(line) for line in TYPED))
        n.tap(page.get_by_test_id("typed-pairs-form").get_by_role("button"))  # posted in the background
        expect(page.locator(".messages")).to_contain_text("3 duplas")
    with n.step("7 pairs imported"):
        n.tap(page.locator("details:has([data-testid=csv-form]) > summary"))
        n.taps += 2  # the file field, then the file
        page.locator('[data-testid=csv-form] input[type="file"]').set_input_files(
            files=[{"name": "duplas.csv", "mimeType": "text/csv", "buffer": CSV.encode("cp1252")}])
        n.tap(page.locator("[data-testid=csv-form] button[type=submit]"))  # posted in the background
        expect(page.locator(".messages")).to_contain_text("7 duplas importadas")
    with n.step("public sign-up opened, 2 approved"):
        with page.expect_navigation():
            n.tap(page.get_by_test_id("dashboard-team-links").get_by_role("link", name="Inscrições pelos jogadores"))
        options = page.get_by_test_id("signup-options")
        n.tap(options.locator("input[name=open]"))  # players no mail reaches are approved by the organizer
        n.tap(options.get_by_role("button"))  # posted in the background
        expect(page.get_by_test_id("public-signup-url")).to_be_visible()
        for i, (name, first, second) in enumerate(SIGNED_UP):  # the players, on their phones
            signups.submit(tournament, submission=f"whole-day-{i}".ljust(24, "x"), client=f"ip:10.0.0.{i + 2}",
                           pair_name=name, players=[{"name": first, "contact": f"+55 41 9999-000{i}"},
                                                    {"name": second, "contact": f"+55 41 9888-000{i}"}])
        with page.expect_navigation():
            n.taps += 1  # pulled to refresh: the two sign-ups came in
            page.reload()
        for left in range(len(SIGNED_UP), 0, -1):
            expect(page.get_by_test_id("approve")).to_have_count(left)
            n.tap(page.get_by_test_id("approve").first)  # posted in the background
        expect(page.locator('#list li[data-state="registered"]')).to_have_count(len(SIGNED_UP))
        shot(page, "whole-day-signups.png", full_page=False)
        assert Pair.objects.filter(tournament=tournament).count() == 12
        with page.expect_navigation():
            n.tap(page.get_by_role("link", name="Painel").first)
    shot(page, "whole-day-registered.png", full_page=False)
    with n.step("check-in of the 12"):
        n.tap(page.get_by_test_id("checkin-all"))
        expect(page.get_by_test_id("draw")).to_be_focused()
    with n.step("a referee invited"):  # in place: the fold, the name, "Create the link"; the link comes in
        n.tap(page.get_by_test_id("invite-referees"))
        n.type(page.locator("#inv-name"), "Carla Mendes")
        n.tap(page.locator("[data-testid=new-invitation] button[type=submit]"))
        expect(page.get_by_test_id("new-link")).to_be_visible()
        expect(page.locator("#invite-url")).to_be_focused()
    with n.step("the draw"):
        n.tap(page.get_by_test_id("draw"))  # and OK; the matches come back in place
        expect(page.locator(".messages")).to_contain_text("Sorteio feito")
        expect(page.locator("#matches form.quick input[name=loser_points]").first).to_be_focused()
    with n.step("pair cards and súmulas printed"):
        with context.expect_page() as cards:
            n.tap(page.get_by_role("button", name="Cartões das duplas com os PINs (PDF)"))
        n.loads += 1  # the PDF, in its own tab
        cards.value.close()
        # the round's filled súmulas, in place: the fold, the button (in the background), the PDF in its own tab
        n.tap(page.get_by_test_id("print-fold"))
        n.tap(page.get_by_test_id("print-form").locator('button[name=kind][value=filled]'))
        opened = page.locator("#matches #print-download a")
        expect(opened).to_be_visible()
        with context.expect_page() as sumulas:
            n.tap(opened)
        n.loads += 1  # the PDF, in its own tab
        sumulas.value.close()
    before, before_loads = n.taps, n.loads
    expect(playing).to_have_count(6)

    def typed(pk: str, step: str = "quick results") -> None:
        """A single game typed from its paper súmula: the loser's tentos, the winner (listed first)."""
        quick = page.locator(f"#match-{pk} form.quick")
        with n.step(step):
            n.type(quick.locator("input[name=loser_points]"), "7")
            n.tap(quick.locator("button[name=winner]").first)
            quick.wait_for(state="detached")

    def receive(pk: str) -> None:
        with n.step("súmulas received"):
            button = page.locator(f'#match-{pk} [data-testid="receive"]')
            n.tap(button)  # and the dialog's OK
            button.wait_for(state="detached")
            expect(page.locator("#messages")).to_contain_text("oficial")

    def start_next(title: str) -> None:
        with n.step("rounds and knockout started"):
            n.tap(page.locator('[data-testid="next-round"]'))
            page.locator("#matches-title", has_text=title).wait_for()

    def pks() -> list[str]:
        return [c.get_attribute("data-match") for c in playing.all()]

    # group round 1: the first result typed, undone from its toast and typed again; a W.O.; a súmula
    # brought signed by its table (played in Python) and received; the others typed
    first, *rest = pks()
    typed(first)
    with n.step("an undo"):
        n.tap(page.get_by_test_id("undo-toast").get_by_role("button", name="Desfazer"))
        expect(page.locator(f"#match-{first} form.quick")).to_have_count(1)
    typed(first)
    absent = rest.pop(0)
    with n.step("a W.O."):
        card = page.locator(f"#match-{absent}")
        n.tap(card.locator('details[data-part="walkover"] > summary'))
        form = card.get_by_test_id("walkover-form")
        n.tap(form.locator("input[name=absent]").last)
        n.tap(form.get_by_role("button"))  # and the dialog's OK; posted in the background
        expect(page.locator(f"#match-{absent} .st-wo")).to_have_count(1)  # among the done, folded
    signed = rest.pop()
    _table_plays(int(signed), organizer, loser_points=4)
    for pk in rest:
        typed(pk)
    receive(signed)
    with n.step("a correction"):  # the first result was typed for the wrong pair
        n.tap(page.get_by_test_id("done-list").locator("> summary"))
        card = page.locator(f"#match-{first}")
        n.tap(card.locator('details[data-part="result"] > summary'))
        form = card.get_by_test_id("result-form")
        n.tap(form.locator("input[name=winner]").last)
        n.type(form.locator("input[name=reason]"), "súmula lida errado")
        n.tap(form.get_by_role("button"))  # and the dialog's OK
        form.wait_for(state="detached")
    start_next("Rodada 2")
    # group round 2: a ruling at a table (the organizer's, in Python: no referee came yet), appealed by the
    # pair it went against; the organizer decides the appeal from "Needs you now"
    round2 = pks()
    appealed = Match.objects.select_related("pair_b__first_player").get(pk=int(round2[0]))
    ruling = referee_services.confirm(
        referee_services.propose(appealed, 0, 1, "guidance_word", {"value": 1}, organizer), organizer)
    appellant = appealed.pair_b.first_player
    appellant.set_pin(PIN)
    appellant.save(update_fields=["pin_hash"])
    referee_appeals.appeal(ruling, 1, appellant, pin=PIN, reason="Ninguém falou nada")
    for pk in round2:
        typed(pk)
    with n.step("an appeal decided"):
        page.reload()  # the dashboard polls; reloaded here only to see it now (not counted)
        n.loads -= 1
        with page.expect_navigation():
            n.tap(page.locator('[data-waiting="appeals"] a'))
        card = page.locator(".card[id^=appeal-]").first
        n.tap(card.locator("label.tap", has_text="Manter"))
        n.type(card.locator("input[name=reason]"), "O árbitro ouviu")
        shot(page, "whole-day-appeal.png", full_page=False)
        with page.expect_navigation():
            n.tap(card.get_by_role("button"))
        expect(page.locator("h1")).to_have_text("Copa do Bar")  # nothing else to review: back on the dashboard
        expect(page.locator("#messages, .messages").first).to_contain_text("Recurso")
    start_next("Rodada 3")
    # group round 3: a pair withdraws before playing (its match becomes a W.O. by itself)
    round3 = pks()
    leaving = Match.objects.select_related("pair_b").get(pk=int(round3[0])).pair_b
    with n.step("a withdrawal"):
        n.tap(page.locator("details.roster-list > summary"))
        row = page.locator(f"#pair-{leaving.pk}")
        n.tap(row.locator("details[data-part=pair] > summary"))
        n.type(row.locator(f"#withdraw-{leaving.pk}"), "Passou mal")
        n.tap(row.get_by_role("button", name="Confirmar a desistência"))  # and the dialog's OK; in the background
        expect(page.get_by_test_id("undo-toast")).to_contain_text("desistiu")
    for pk in pks():
        typed(pk)
    start_next("Quartas de final")
    quarters = pks()
    _table_plays(int(quarters[-1]), organizer, loser_points=4)
    for pk in quarters[:-1]:
        typed(pk)
    receive(quarters[-1])
    expect(page.locator("#matches-title")).to_contain_text("Semifinais")
    for pk in pks():
        typed(pk)
    expect(page.locator("#matches-title")).to_contain_text("Final")
    typed(playing.filter(has=page.locator(".st-third")).first.get_attribute("data-match"))
    final_pk = int(playing.filter(has_not=page.locator(".st-third")).first.get_attribute("data-match"))
    final = page.locator(f"#match-{final_pk}")
    with n.step("the best-of-3 final by hand"):
        n.tap(final.locator("summary", has_text="Resultado manual"))
        form = final.locator('[data-testid="result-form"]')
        n.tap(form.locator('input[name="winner"]').first)
        n.type(form.locator('input[name="points_b"]'), "15")
        n.type(form.locator('input[name="reason"]'), "súmula de papel")
        n.tap(form.locator("button[type=submit]"))  # and the dialog's OK
        expect(page.get_by_test_id("placings-link")).to_be_visible()
    with n.step("placings and the export"):
        with page.expect_navigation():
            n.tap(page.get_by_test_id("placings-link"))
        shot(page, "whole-day-placings.png", full_page=False)
        with page.expect_download():  # the placings as a spreadsheet, from the placings' page
            n.tap(page.locator("a[data-testid=download-excel-br]:not([href*='stage='])").first)

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    assert Result.objects.filter(tournament=tournament).count() == 26
    assert Result.objects.filter(tournament=tournament, kind=Result.Kind.SUMULA).count() == 2
    assert Result.objects.filter(tournament=tournament, kind=Result.Kind.WALKOVER).count() == 2  # one called, one by withdrawal
    leaving.refresh_from_db()
    assert leaving.status == Pair.Status.WITHDRAWN
    ruling.refresh_from_db()
    print(f"\nTAPS the whole day: before the first hand={before} (loads {before_loads}) total={n.taps} "
          f"loads={n.loads}; per step (taps, loads): {n.steps}")
    assert n.taps <= BOUND["taps"], n.taps
    assert n.loads <= BOUND["loads"], n.loads
    context.close()
