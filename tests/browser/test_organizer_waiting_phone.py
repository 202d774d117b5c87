"""On a phone (390 px, and 320 px for the screenshot): what waits for the organizer is counted on "Meus
torneios" and on the dashboard, and one tap leads where it is handled (two sign-ups to approve and a call
to the referee). Screenshots under $TRUCO_SHOTS/."""
from __future__ import annotations

import datetime
import secrets

import pytest

from .conftest import phone_context, shot, sign_in

pytestmark = pytest.mark.browser


@pytest.fixture
def waiting_tournament(transactional_db, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    from django.contrib.auth import get_user_model

    from referee.models import RefereeCall
    from tournaments import services
    from scoring.models import Match
    from tournaments.models import Pair, Tournament
    from tournaments.services import signup as signups
    from tournaments.services import signup_review

    organizer = get_user_model().objects.create_user("organizadora", password="org-secret", first_name="Olga")
    sign_ups = Tournament.objects.create(name="Copa da Primavera", slug="copa-da-primavera", organizer=organizer,
                                         date=datetime.date(2026, 11, 29), status=Tournament.Status.REGISTRATION)
    services.configure_stage(sign_ups, organizer, format="single_elimination")
    signup_review.configure_signup(sign_ups, organizer, open=True, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=True)
    for name in ("Os Zaps", "Copas"):
        signup = signups.submit(sign_ups, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9",
                                pair_name=name, players=[{"name": f"Ana {name}", "contact": "a@example.org"},
                                                         {"name": f"Bia {name}", "contact": "b@example.org"}])
        for i in (0, 1):
            signups.confirm(signups.link_token(signup.submission, i), client="ip:127.0.0.9")
    playing = Tournament.objects.create(name="Torneio de Verão", slug="torneio-de-verao", organizer=organizer,
                                        date=datetime.date(2026, 11, 21), status=Tournament.Status.REGISTRATION)
    for i in range(4):
        services.register_pair(playing, organizer, name=f"Dupla {i + 1}", first_player={"name": f"Ana {i}"},
                               second_player={"name": f"Bia {i}"}, status=Pair.Status.CONFIRMED)
    services.configure_stage(playing, organizer, format="single_elimination")
    services.generate_first_round(playing, organizer)
    RefereeCall.objects.create(match=Match.objects.filter(tournament=playing).first(), kind=RefereeCall.Kind.CALL)
    return sign_ups


def test_the_organizer_sees_what_waits_and_reaches_it_in_one_tap(live_server, browser, waiting_tournament):
    from playwright.sync_api import expect

    page = phone_context(browser).new_page()
    sign_in(page, live_server.url, "organizadora", "org-secret")
    waiting = page.get_by_test_id("waiting")
    expect(waiting).to_contain_text("2 inscrições a aprovar")
    expect(waiting).to_contain_text("1 chamado ao árbitro")
    expect(waiting.locator("li")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "organizer-waiting-390.png", full_page=True)
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    shot(page, "organizer-waiting-320.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})

    waiting.locator('[data-waiting="signups"] a').tap()  # one tap to "Inscrições pelos jogadores"
    page.wait_for_url("**/copa-da-primavera/painel/inscricoes/")
    expect(page.get_by_test_id("approve")).to_have_count(2)
    page.get_by_test_id("approve").first.tap()  # posted in the background: the list comes back
    expect(page.get_by_test_id("approve")).to_have_count(1)
    expect(page.get_by_test_id("approve")).to_be_focused()  # the next one to approve

    page.goto(f"{live_server.url}/torneios/copa-da-primavera/painel/")
    head = page.locator("#next-step")
    expect(head.get_by_test_id("next-step")).to_contain_text("1 inscrição espera a sua aprovação")
    expect(head.locator('[data-waiting="signups"]')).to_contain_text("1 inscrição a aprovar")
    expect(head.get_by_test_id("status-badge")).to_have_text("Inscrições abertas")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "dashboard-waiting-390.png", full_page=False)
    page.set_viewport_size({"width": 320, "height": 640})
    shot(page, "dashboard-waiting-320.png", full_page=False)


def test_a_finished_tournament_shows_its_end_on_a_phone(live_server, browser, transactional_db, settings):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    from tests.tournaments import factories as f
    from tests.tournaments import pages_fixtures as pf

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = get_user_model().objects.create_user("organizadora", password="org-secret")
    t = f.tournament(organizer, slug="copa-final")
    f.pairs(t, 4)
    from tournaments import services

    services.configure_stage(t, organizer, format="single_elimination", third_place=True)
    services.generate_first_round(t, organizer)
    pf.play_all(t, organizer)
    page = phone_context(browser).new_page()
    sign_in(page, live_server.url, "organizadora", "org-secret", next_url="/torneios/copa-final/painel/")
    finished = page.get_by_test_id("finished")
    expect(finished).to_contain_text("Campeã")
    expect(finished.get_by_test_id("placings-link")).to_be_visible()
    expect(page.get_by_text("Gerar de novo")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "dashboard-finished-390.png")
    page.set_viewport_size({"width": 320, "height": 640})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    shot(page, "dashboard-finished-320.png")
