"""Navigation by role: each role lands on its start page after signing in, the header
shows that role's links with what waits for them, the admin only for the site's operators, and
the organizer creates referee logins from the tournament's dashboard."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from referee import roles
from referee import services as referee_services
from tests.referee.rulings_setup import *  # noqa: F401,F403 (fixtures)
from tests.referee.rulings_setup import finish, sign_both
from tournaments.models import AuditEntry, TableAssignment

pytestmark = pytest.mark.django_db


def _login(client, username, password):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_after_login_the_referee_lands_on_their_tables_and_the_organizer_on_their_tournaments(
        client, match, referee, organizer):
    referee.set_password("pw-referee-1")
    referee.save()
    organizer.set_password("pw-organizer-1")
    organizer.save()
    assert _login(client, referee.username, "pw-referee-1")["Location"] == reverse("referee:tables")
    client.logout()
    assert _login(client, organizer.username, "pw-organizer-1")["Location"] == reverse("organizer-home")
    client.logout()
    get_user_model().objects.create_user("visitante", password="pw-visitor-1")
    assert _login(client, "visitante", "pw-visitor-1")["Location"] == reverse("tournaments:home")


def test_an_explicit_next_still_wins(client, referee, match):
    referee.set_password("pw-referee-1")
    referee.save()
    response = client.post(reverse("login") + "?next=/sumulas/", {"username": referee.username,
                                                                  "password": "pw-referee-1"})
    assert response["Location"] == "/sumulas/"


def test_the_header_shows_the_referees_links_and_no_admin(client, match, referee):
    client.force_login(referee)
    html = client.get("/").content.decode()
    assert reverse("referee:tables") in html and 'data-testid="nav-tables"' in html
    assert reverse("admin:index") not in html and 'data-testid="nav-review"' not in html


def test_the_organizer_sees_what_waits_for_them_with_counts(client, match, referee, organizer):
    escalated = referee_services.propose(match, 0, 1, "not_covered", {"description": "Celular tocou"}, referee)
    referee_services.escalate(escalated, referee, "Celular tocou")
    role = roles.summary(organizer)
    assert role.organizer and role.escalated == 1 and role.appeals == 0
    client.force_login(organizer)
    html = client.get(reverse("organizer-home")).content.decode()
    assert match.tournament.name in html and reverse("referee:review") in html
    assert "1 caso enviado por um árbitro" in html
    header = html.split("</header>")[0]
    assert 'data-testid="nav-review"' in header and '<span class="count">1' in header


def test_a_signed_sumula_to_receive_is_listed_on_the_organizers_start_page(client, match, referee, organizer):
    finish(match, referee)
    sign_both(match)
    client.force_login(organizer)
    html = client.get(reverse("organizer-home")).content.decode()
    assert "1 súmula assinada para receber" in html and f"#match-{match.pk}" in html


def test_the_admin_link_is_for_site_operators_only(client, organizer, match):
    client.force_login(organizer)
    assert 'data-testid="nav-admin"' not in client.get("/").content.decode()
    organizer.is_staff = True  # staff alone is no operator (docs/security.md)
    organizer.save()
    assert 'data-testid="nav-admin"' not in client.get("/").content.decode()
    organizer.is_superuser = True
    organizer.save()
    assert 'data-testid="nav-admin"' in client.get("/").content.decode()


def test_a_volunteer_without_a_role_sees_only_the_public_links(client, db):
    user = get_user_model().objects.create_user("visitante", password="x")
    client.force_login(user)
    html = client.get("/").content.decode().split("</header>")[0]
    assert "nav-tables" not in html and "nav-review" not in html and "nav-organizer" not in html
    assert client.get(reverse("organizer-home")).status_code == 403


def test_the_organizer_creates_a_referee_login_assigned_to_a_table(client, organizer, tournament):
    client.force_login(organizer)
    response = client.post(reverse("tournaments:new-referee", kwargs={"slug": tournament.slug}),
                           {"name": "Ana Souza", "username": "ana", "password": "mesa-tres-3", "table": "3"})
    assert response.status_code == 302
    user = get_user_model().objects.get(username="ana")
    assert user.check_password("mesa-tres-3") and not user.is_staff and user.get_full_name() == "Ana Souza"
    assert TableAssignment.objects.get(tournament=tournament, table=3).referee == user
    assert AuditEntry.objects.filter(tournament=tournament, action="referee_assigned").exists()
    client.logout()
    assert _login(client, "ana", "mesa-tres-3")["Location"] == reverse("referee:tables")


def test_a_taken_login_or_short_password_is_refused_naming_the_field(client, organizer, tournament, referee):
    client.force_login(organizer)
    url = reverse("tournaments:new-referee", kwargs={"slug": tournament.slug})
    page = client.post(url, {"name": "X", "username": referee.username, "password": "mesa-tres-3"}, follow=True)
    assert "Login:" in page.content.decode() or "Usuário:" in page.content.decode()
    page = client.post(url, {"name": "X", "username": "novo", "password": "123"}, follow=True)
    assert "Senha:" in page.content.decode()
    assert not get_user_model().objects.filter(username="novo").exists()


def test_only_the_organizer_creates_referees(client, referee, tournament):
    client.force_login(referee)
    response = client.post(reverse("tournaments:new-referee", kwargs={"slug": tournament.slug}),
                           {"name": "X", "username": "x2", "password": "mesa-tres-3"})
    assert response.status_code == 403
