"""What waits for the organizer is seen where they look ("Meus torneios", the dashboard's head), each with
the link where it is handled; the status badge tells the public sign-up from registration by the organizer;
a finished tournament shows its podium, placings and exports and no longer offers (nor accepts) to
generate a round again."""
from __future__ import annotations

import secrets

import pytest
from django.urls import reverse

from config.errors import Conflict
from referee.models import RefereeCall
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments import services
from tournaments.models import Pair, Round, Tournament
from tournaments.services import signup as signups
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def confirmed_signup(t, name="Zap"):
    """A sign-up both players confirmed by their links: with approval required it waits for the organizer."""
    signup = signups.submit(t, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9", pair_name=name,
                            players=[{"name": f"Ana {name}", "contact": "ana@example.org"},
                                     {"name": f"Bia {name}", "contact": "bia@example.org"}])
    for i in (0, 1):
        signups.confirm(signups.link_token(signup.submission, i), client="ip:127.0.0.9")
    return signup


def open_signup(t, org, *, open=True, approval=True):
    signup_review.configure_signup(t, org, open=open, pair_limit=None, waiting_list=True, deadline=None,
                             approval_required=approval)


def test_signups_to_approve_show_on_my_tournaments_and_the_dashboard(client, org):
    t = pf.tournament(org, pairs=0, draw=False)
    open_signup(t, org)
    confirmed_signup(t, "Zap")
    confirmed_signup(t, "Copas")
    signups_url = url("signups", t)

    html = client.get(reverse("organizer-home")).content.decode()
    assert "Nada depende de você agora" not in html
    assert 'data-testid="waiting"' in html and "2 inscrições a aprovar" in html
    assert f'href="{signups_url}"' in html  # one tap to "Inscrições pelos jogadores"

    html = client.get(url("dashboard", t)).content.decode()
    assert "Cadastre as duplas" not in html
    assert "2 inscrições esperam a sua aprovação (Inscrições pelos jogadores)" in html
    assert 'data-waiting="signups"' in html and f'href="{signups_url}"' in html

    for signup in signup_review.signups_of(t):
        signup_review.approve(signup, org)
    assert Pair.objects.filter(tournament=t).count() == 2
    html = client.get(reverse("organizer-home")).content.decode()
    assert "Nada depende de você agora" in html and "a aprovar" not in html
    assert 'data-waiting="signups"' not in client.get(url("dashboard", t)).content.decode()


@pytest.mark.parametrize("mail", [False, True])
def test_signups_only_the_organizer_can_confirm_wait_for_the_organizer(client, org, settings, mail):
    """Players signed up with a phone number (or on a site that sends no mail): no link reaches them, the
    organizer's approval confirms them. They wait for the organizer, not for the players: counted in "Meus
    torneios" and on the dashboard. A player whose link was mailed is waited for."""
    settings.EMAIL_CONFIGURED = mail
    t = pf.tournament(org, pairs=0, draw=False)
    open_signup(t, org)
    for i, name in enumerate(("Zap", "Copas")):  # phone numbers
        signups.submit(t, submission=secrets.token_urlsafe(24), client=f"ip:127.0.0.{i + 2}", pair_name=name,
                       players=[{"name": f"Ana {name}", "contact": "+55 41 99999-0000"},
                                {"name": f"Bia {name}", "contact": "+55 41 98888-0000"}])
    signups.submit(t, submission=secrets.token_urlsafe(24), client="ip:127.0.0.9", pair_name="Espadilha",
                   players=[{"name": "Caio Espadilha", "contact": "caio@example.org"},
                            {"name": "Duda Espadilha", "contact": "+55 41 97777-0000"}])
    waiting = 2 if mail else 3  # with mail, Caio's link reaches him: that sign-up waits for him
    html = client.get(reverse("organizer-home")).content.decode()
    assert "Nada depende de você agora" not in html
    assert f"{waiting} inscrições a aprovar" in html
    html = client.get(url("dashboard", t)).content.decode()
    assert f"{waiting} inscrições esperam a sua aprovação (Inscrições pelos jogadores)" in html


def test_a_call_to_the_referee_is_counted_with_its_link(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    RefereeCall.objects.create(match=match, kind=RefereeCall.Kind.CALL)
    tables = reverse("referee:tables")
    for page in (reverse("organizer-home"), url("dashboard", t)):
        html = client.get(page).content.decode()
        assert "1 chamado ao árbitro" in html and f'href="{tables}"' in html
    RefereeCall.objects.update(taken_at=match.created_at)
    assert "chamado ao árbitro" not in client.get(url("dashboard", t)).content.decode()


@pytest.mark.parametrize("page", ["dashboard", "detail", "home"])
def test_the_badge_tells_the_public_signup_from_registration_by_the_organizer(client, org, page):
    t = pf.tournament(org, pairs=2, draw=False)
    path = reverse("tournaments:home") if page == "home" else url(page, t)
    html = client.get(path).content.decode()
    assert "Inscrições pelo organizador" in html and "Inscrições abertas" not in html
    open_signup(t, org, approval=False)
    html = client.get(path).content.decode()
    assert "Inscrições abertas" in html and "Inscrições pelo organizador" not in html


def test_the_header_counts_come_back_with_a_pair_registered_in_place(client, org):
    t = pf.tournament(org, pairs=1, draw=False)
    response = client.post(url("register", t), {"name": "Zap", "first_name": "Ana", "second_name": "Bia",
                                                "status": "confirmed"},
                           headers={"X-Dashboard-Parts": "registration pairs checkin next-step"}, follow=True)
    html = response.content.decode()
    assert 'data-testid="dashboard-stats"' in html and "<strong>2</strong> duplas confirmadas" in html
    assert "Cadastre as duplas" not in html


def finished_tournament(org):
    t = pf.tournament(org, pairs=4, third_place=True)
    pf.play_all(t, org)
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    return t


def test_a_finished_tournament_shows_its_podium_placings_and_exports(client, org):
    t = finished_tournament(org)
    html = client.get(url("dashboard", t)).content.decode()
    assert "O torneio terminou" in html and 'data-testid="finished"' in html
    champion = services.standings(t).rows[0].pair
    assert f"Campeã: {champion.name}" in html or f"Campeão: {champion.name}" in html
    assert 'data-place="2"' in html and 'data-place="3"' in html
    assert url("standings", t) in html
    assert reverse("tournaments-api:export-standings", kwargs={"slug": t.slug}) in html
    assert reverse("tournaments-api:export-results", kwargs={"slug": t.slug}) in html
    assert "Gerar de novo" not in html


def test_a_finished_tournament_refuses_to_generate_a_round_again(client, org):
    t = finished_tournament(org)
    first = Round.objects.get(tournament=t, number=1)
    with pytest.raises(Conflict) as refused:
        services.regenerate_round(first, org, reason="again")
    assert refused.value.field == "tournament" and "O torneio terminou" in refused.value.message
    with pytest.raises(Conflict):
        services.generate_next_round(t, org)
    response = client.post(url("regenerate", t, number=1), {"reason": "de novo"}, follow=True)
    assert any("O torneio terminou: suas rodadas não podem mais ser geradas" in str(m)
               for m in response.context["messages"])
    assert Round.objects.get(pk=first.pk).generated_at == first.generated_at


def test_nothing_waits_for_a_new_organizer(client, org):
    f.tournament(org)
    html = client.get(reverse("organizer-home")).content.decode()
    assert 'data-testid="waiting-none"' in html


def test_the_format_line_names_a_best_of_3_final(client, org):
    t = pf.tournament(org, pairs=8, draw=False, round_best_of={"-1": 3})
    html = client.get(url("dashboard", t)).content.decode()
    assert "Partida única · Final: Melhor de 3 partidas" in html


def test_the_audit_names_the_stage_each_format_entry_configured(client, org):
    t = f.tournament(org)
    f.pairs(t, 8)
    services.configure_stage(t, org, format="groups_knockout", group_count=2, qualifiers_per_group=2)
    later = services.stages_of(t)[1]
    services.update_stage(later, org, third_place=True)
    html = client.get(url("dashboard", t)).content.decode()
    assert "Formato definido · Fase 1" in html and "Formato definido · Fase 2" in html
