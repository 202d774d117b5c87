"""axe-core on every page the organizer's whole day visits (``test_organizer_whole_day``), on a phone (390×844)
and a laptop (1280×900): 0 serious, 0 critical and 0 moderate violations on each.

The day's tournament is built in Python through the services, state by state, as the whole-day test leaves it
(12 pairs, 3 groups of 4, a knockout of 8 with a third place and a best-of-3 final, check-in required), and
each state's pages are scanned with every fold of the dashboard opened (the W.O., the result by hand, a pair's
withdrawal: the forms the day fills):

* before the draw: the login, the new-tournament form, the dashboard with 10 pairs and 2 sign-ups waiting,
  "Meus torneios", the sign-ups page (open), the public sign-up page, a referee's invitation link made in place
  on the dashboard and the invitations' page, the dashboard with the 12 checked in;
* the draw made: the dashboard (and its "Desfazer" toast after a quick result, the round's súmulas printed in
  place), the round's print page and its print job, the public pages (tournament,
  groups, fases, the round, a pair, a player), the projector, the review with an appeal to decide;
* the knockout: the dashboard, the bracket, the projector;
* the end: the dashboard (champion, placings, exports), the placings with their exports, the projector,
  "Meus torneios".

A finding names the page and the size: ``{"phone: dashboard-drawn": [{"id", "impact", "help", "nodes"}]}``.
"""
from __future__ import annotations

import datetime

import pytest

from .conftest import phone_context, shot, sign_in
from .test_accessibility import STRICT, violations
from .test_organizer_taps import PAIRS, PIN

pytestmark = [pytest.mark.browser, pytest.mark.presentation]

SIZES = {"phone": None, "laptop": {"width": 1280, "height": 900}}
def decide(match, organizer) -> None:
    """The first pair wins, by the whole match (a best-of-3 final 2-0: 24 tentos to 7)."""
    from tournaments import services

    need = match.best_of // 2 + 1
    services.set_result(match, organizer, winner=match.pair_a_id, games=[need, 0], points=[12 * need, 7],
                        reason="súmula de papel")


def play_all(tournament, organizer, *, rounds: int = 10_000) -> None:
    """Every open match decided and the next rounds generated (the knockout started as the dashboard's button
    does), until the tournament ends or ``rounds`` rounds are made and played."""
    from scoring.models import Match
    from tournaments import services
    from tournaments.models import Round

    while True:
        matches = list(Match.objects.filter(tournament=tournament, tournament_result__isnull=True).order_by("pk"))
        for match in matches:
            decide(match, organizer)
        if matches:
            continue
        if Round.objects.filter(tournament=tournament).count() >= rounds:
            return
        try:
            services.generate_next_round(tournament, organizer)
        except services.Conflict:
            return


#: every fold of the page opened, the site's menu left closed
OPEN_FOLDS = "document.querySelectorAll('details').forEach(d => { if (!d.closest('header, nav')) d.open = true; })"


def test_every_page_of_the_organizers_day_has_no_serious_or_moderate_violation(
        live_server, browser, transactional_db, settings, eager_celery):
    from django.contrib.auth import get_user_model

    from events.models.signup import SignUp
    from referee import appeals as referee_appeals
    from referee import services as referee_services
    from scoring.models import Match
    from tournaments import accounts, services
    from tournaments.models import Pair, Player, Round, Stage, Tournament
    from tournaments.services.check_in import check_in_all
    from tournaments.services import signup as signups
    from tournaments.services import signup_review

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = accounts.create_organizer(username="olga", name="Olga Reis", password="truco-demo-1")
    base = live_server.url
    pages = {}
    for size, viewport in SIZES.items():
        context = (phone_context(browser, bypass_csp=True) if viewport is None  # axe goes in as an inline script
                   else browser.new_context(viewport=viewport, locale="pt-BR", bypass_csp=True))
        pages[size] = context.new_page()
    found: dict[str, list] = {}

    def scan(name: str, path: str, *, folds: bool = False) -> None:
        for size, page in pages.items():
            response = page.goto(base + path)
            assert response and response.ok, (size, name, path, response and response.status)
            if folds:  # a card's or a pair's fold fetches its forms as it opens: scanned once they are in
                page.evaluate(OPEN_FOLDS)
                page.wait_for_function("!document.querySelector('details[aria-busy]')")
            if size == "phone":
                shot(page, f"day-axe-{name}.png", full_page=False)
            bad = violations(page, STRICT)
            if bad:
                found[f"{size}: {name}"] = bad

    # the account, the login, the creation form
    scan("login", "/entrar/")
    for page in pages.values():
        sign_in(page, base, "olga", "truco-demo-1")
    scan("new-tournament", "/torneios/novo/")

    # registration: 10 pairs, the public sign-up open, 2 sign-ups waiting for approval
    tournament = services.create_tournament(organizer, name="Copa do Bar", date=datetime.date(2026, 11, 21), best_of=1,
                                            check_in_required=True, status=Tournament.Status.REGISTRATION)
    services.configure_stage(tournament, organizer, format=Stage.Format.GROUPS_KNOCKOUT, group_count=3,
                             third_place=True, knockout={"qualifiers": 2, "round_best_of": {"-1": 3}})
    for name, first, second in PAIRS[:10]:
        services.register_pair(tournament, organizer, name=name, first_player={"name": first},
                               second_player={"name": second})
    signup_review.configure_signup(tournament, organizer, open=True, pair_limit=None, waiting_list=False, deadline=None,
                             approval_required=True)
    for i, (name, first, second) in enumerate(PAIRS[10:]):
        signups.submit(tournament, submission=f"day-axe-{i}".ljust(24, "x"), client=f"ip:10.0.0.{i + 2}",
                       pair_name=name, players=[{"name": first, "contact": f"+55 41 9999-000{i}"},
                                                {"name": second, "contact": f"+55 41 9888-000{i}"}])
    slug = tournament.slug
    dashboard = f"/torneios/{slug}/painel/"
    scan("dashboard-registration", dashboard, folds=True)
    scan("organizer-home-waiting", "/meus-torneios/")
    scan("signups", f"{dashboard}inscricoes/", folds=True)
    scan("signup-public", f"/torneios/{slug}/inscricao/")
    for size, page in pages.items():  # a referee invited in place: the dashboard with the link just made
        page.goto(f"{base}{dashboard}")
        page.get_by_test_id("invite-referees").click()
        page.locator("#inv-name").fill("Carla Mendes")
        page.locator("[data-testid=new-invitation] button[type=submit]").click()
        page.get_by_test_id("new-link").wait_for()
        bad = violations(page, STRICT)
        if bad:
            found[f"{size}: dashboard-invited"] = bad
    scan("invitations", f"{dashboard}arbitros/convites/")  # every invitation, the link still shown
    for signup in SignUp.objects.filter(tournament=tournament):
        signup_review.approve(signup, organizer)
    assert Pair.objects.filter(tournament=tournament).count() == 12
    check_in_all(services.upcoming_round(tournament, organizer), organizer)
    scan("dashboard-checked-in", dashboard, folds=True)

    # the draw, the print pages, the public pages, an appeal to decide
    services.generate_first_round(tournament, organizer)
    first_round = Round.objects.filter(tournament=tournament).order_by("number").first()
    match = Match.objects.select_related("pair_b__first_player").filter(round=first_round).order_by("pk").first()
    ruling = referee_services.confirm(
        referee_services.propose(match, 0, 1, "guidance_word", {"value": 1}, organizer), organizer)
    appellant = match.pair_b.first_player
    appellant.set_pin(PIN)
    appellant.save(update_fields=["pin_hash"])
    referee_appeals.appeal(ruling, 1, appellant, pin=PIN, reason="Ninguém falou nada")
    decide(Match.objects.filter(round=first_round).exclude(pk=match.pk).order_by("pk").first(), organizer)
    scan("dashboard-drawn", dashboard, folds=True)
    for i, (size, page) in enumerate(pages.items()):  # a quick result typed (each its own): the "Desfazer" toast
        quick = page.locator('[data-testid="matches-playing"] > li[data-match] form.quick').nth(i)
        quick.locator("input[name=loser_points]").fill("7")
        quick.locator("button[name=winner]").first.click()
        page.get_by_test_id("undo-toast").get_by_role("button", name="Desfazer").wait_for()
        bad = violations(page, STRICT)
        if bad:
            found[f"{size}: dashboard-undo-toast"] = bad
        page.evaluate("document.querySelector('#matches details.print').open = true")  # printed in place
        page.get_by_test_id("print-form").locator("button[name=kind][value=filled]").click()
        page.locator("#matches #print-download a").wait_for()
        bad = violations(page, STRICT)
        if bad:
            found[f"{size}: dashboard-printed"] = bad
    scan("print", f"/sumulas/impressao/rodada/{first_round.pk}/")
    for size, page in pages.items():  # the round's filled súmulas: the print job's page
        page.goto(f"{base}/sumulas/impressao/rodada/{first_round.pk}/")
        with page.expect_navigation():
            page.locator("button[name=kind][value=filled]").click()
        page.locator("#print-download a").wait_for()
        bad = violations(page, STRICT)
        if bad:
            found[f"{size}: print-job"] = bad
    scan("review-appeal", f"/arbitragem/revisao/?painel={slug}", folds=True)
    scan("tournament", f"/torneios/{slug}/")
    scan("grid", f"/torneios/{slug}/grupos/")
    scan("stages", f"/torneios/{slug}/fases/")
    scan("round", f"/torneios/{slug}/rodadas/1/")
    scan("pair", f"/torneios/{slug}/duplas/{match.pair_a_id}/")
    scan("player", f"/jogadores/{Player.objects.filter(name=PAIRS[0][1]).get().pk}/")
    scan("projector-groups", f"/torneios/{slug}/telao/")

    # the knockout
    play_all(tournament, organizer, rounds=3)  # the groups' three rounds
    services.generate_next_round(tournament, organizer)  # the knockout (the dashboard's one button)
    scan("dashboard-knockout", dashboard, folds=True)
    scan("bracket", f"/torneios/{slug}/chave/")
    scan("projector-knockout", f"/torneios/{slug}/telao/")

    # the end: the champion, the placings and their exports
    play_all(tournament, organizer)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    scan("dashboard-finished", dashboard, folds=True)
    scan("placings", f"/torneios/{slug}/classificacao/")
    scan("projector-finished", f"/torneios/{slug}/telao/")
    scan("organizer-home-finished", "/meus-torneios/")
    assert get_user_model().objects.filter(username="olga").exists()
    for page in pages.values():
        page.context.close()
    assert not found, found
