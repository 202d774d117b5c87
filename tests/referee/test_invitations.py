"""Referees' invitation links: the organizer invites a referee by name and hands over a
one-time, expiring link (QR code, copy button); the referee chooses a login and a password and lands
signed in on "Minhas mesas". Only a hash of the token is stored; used, expired and revoked links are
refused clearly; another organizer neither sees nor revokes them; every step is audited."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from referee import invitations
from referee.invitation_views import SHOWN_COOKIE
from referee.models import RefereeInvitation
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments.models import AuditEntry, TableAssignment

pytestmark = pytest.mark.django_db
PASSWORD = "apito-na-mesa-7"


@pytest.fixture
def org(client):
    user = pf.organizer()
    client.force_login(user)
    return user


@pytest.fixture
def tournament(org):
    return pf.tournament(org, pairs=4, draw=False)


def list_url(t) -> str:
    return reverse("invitations:list", kwargs={"slug": t.slug})


def invite(client, t, **data) -> tuple[RefereeInvitation, str]:
    """Invite through the organizer's page; the invitation and its link as the page shows it."""
    response = client.post(list_url(t), {"name": "Ana Souza", "login": "", "table": "", **data})
    assert response.status_code == 302 and response["Location"].endswith("#new-link")
    page = client.get(list_url(t)).content.decode()
    link = re.search(r'id="invite-url"[^>]*value="([^"]+)"', page).group(1)
    return RefereeInvitation.objects.filter(tournament=t).first(), link


def accept(client, link: str, username: str = "ana", password: str = PASSWORD, password2: str | None = None):
    return client.post(link, {"username": username, "password": password,
                              "password2": password if password2 is None else password2})


def test_the_organizer_invites_a_referee_and_sees_the_link_once_with_a_qr_code(client, org, tournament):
    inv, link = invite(client, tournament, name="Ana Souza", login="ana.souza", table="3")
    page = client.get(list_url(tournament)).content.decode()
    assert "Link para Ana Souza" in page and "<svg" in page and "Copiar o link" in page
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert len(token) >= 32 and link.startswith("http://testserver/convite/")
    # only the hash is stored, nowhere the token
    assert inv.token_hash == invitations.token_hash(token) and token not in str(
        RefereeInvitation.objects.filter(pk=inv.pk).values().first())
    entry = AuditEntry.objects.get(tournament=tournament, action="referee_invited")
    assert entry.actor == org and entry.after["name"] == "Ana Souza" and token not in str(entry.after)
    assert (inv.login, inv.table) == ("ana.souza", 3)
    assert timedelta(days=6, hours=23) < inv.expires_at - timezone.now() <= timedelta(days=7)
    # another browser of the same organizer (no cookie) sees the invitation but not the link
    client.cookies.pop(SHOWN_COOKIE)
    page = client.get(list_url(tournament)).content.decode()
    assert "Ana Souza" in page and token not in page and 'id="invite-url"' not in page


def test_the_referee_opens_the_link_chooses_a_login_and_lands_on_their_tables(client, org, tournament):
    inv, link = invite(client, tournament, login="ana.souza", table="2")
    client.logout()
    page = client.get(link)
    assert page.status_code == 200 and 'value="ana.souza"' in page.content.decode()
    assert "Escolha seu usuário e sua senha" in page.content.decode()
    response = accept(client, link, username="ana")
    assert response.status_code == 302 and response["Location"] == reverse("referee:tables")
    user = get_user_model().objects.get(username="ana")
    assert user.check_password(PASSWORD) and not user.is_staff and user.get_full_name() == "Ana Souza"
    assert client.get(reverse("referee:tables")).context["user"] == user  # signed in
    inv.refresh_from_db()
    assert inv.user == user and inv.used_at is not None
    assert TableAssignment.objects.get(tournament=tournament, table=2).referee == user
    used = AuditEntry.objects.get(tournament=tournament, action="invitation_used")
    assert used.actor == user and used.after["username"] == "ana"
    # the header knows them as a referee, and their next login lands on their tables
    client.logout()
    login = client.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert login["Location"] == reverse("referee:tables")


def test_a_link_used_twice_is_refused_clearly(client, org, tournament):
    _inv, link = invite(client, tournament)
    client.logout()
    assert accept(client, link, username="ana").status_code == 302
    client.logout()
    again = accept(client, link, username="bia")
    assert again.status_code == 410
    assert "já foi usado" in again.content.decode() and "funciona uma vez" in again.content.decode()
    assert not get_user_model().objects.filter(username="bia").exists()
    assert client.get(link).status_code == 410


def test_the_same_form_sent_twice_signs_in_once(client, org, tournament):
    _inv, link = invite(client, tournament)
    client.logout()
    first, second = accept(client, link, username="ana"), accept(client, link, username="ana")
    assert first.status_code == second.status_code == 302
    assert get_user_model().objects.filter(username="ana").count() == 1
    assert AuditEntry.objects.filter(tournament=tournament, action="invitation_used").count() == 1


def test_an_expired_link_is_refused(client, org, tournament, settings):
    settings.REFEREE_INVITATION_DAYS = 2
    inv, link = invite(client, tournament)
    assert timedelta(days=1) < inv.expires_at - timezone.now() <= timedelta(days=2)
    RefereeInvitation.objects.filter(pk=inv.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    client.logout()
    assert "expirou" in client.get(link).content.decode()
    response = accept(client, link)
    assert response.status_code == 410 and "peça um novo link ao organizador" in response.content.decode()
    assert not get_user_model().objects.filter(username="ana").exists()


def test_a_revoked_link_is_refused_and_a_reissued_one_works(client, org, tournament):
    inv, link = invite(client, tournament)
    response = client.post(reverse("invitations:revoke", kwargs={"slug": tournament.slug, "pk": inv.pk}))
    assert response.status_code == 302
    inv.refresh_from_db()
    assert inv.revoked_by == org and AuditEntry.objects.filter(action="invitation_revoked").count() == 1
    page = client.get(list_url(tournament)).content.decode()
    assert 'id="invite-url"' not in page and 'data-state="revoked"' in page
    client.post(reverse("invitations:reissue", kwargs={"slug": tournament.slug, "pk": inv.pk}))
    new = RefereeInvitation.objects.filter(tournament=tournament).first()
    page = client.get(list_url(tournament)).content.decode()
    new_link = re.search(r'id="invite-url"[^>]*value="([^"]+)"', page).group(1)
    assert new.pk != inv.pk and new_link != link and new.name == inv.name
    client.logout()
    refused = accept(client, link)
    assert refused.status_code == 410 and "revogou" in refused.content.decode()
    assert accept(client, new_link).status_code == 302


def test_reissuing_revokes_the_old_link(client, org, tournament):
    inv, link = invite(client, tournament)
    client.post(reverse("invitations:reissue", kwargs={"slug": tournament.slug, "pk": inv.pk}))
    inv.refresh_from_db()
    assert inv.revoked_at is not None
    assert RefereeInvitation.objects.filter(tournament=tournament, revoked_at__isnull=True).count() == 1
    client.logout()
    assert accept(client, link).status_code == 410


def test_a_double_tap_on_invite_leaves_one_working_link(client, org, tournament):
    client.post(list_url(tournament), {"name": "Ana Souza"})
    _inv, link = invite(client, tournament, name="Ana Souza")
    pending = RefereeInvitation.objects.filter(tournament=tournament, revoked_at__isnull=True)
    assert pending.count() == 1
    client.logout()
    assert accept(client, link).status_code == 302


def test_an_unknown_link_is_a_404_and_bad_input_names_the_field(client, org, tournament):
    assert client.get(reverse("invitations:accept", kwargs={"token": "x" * 32})).status_code == 404
    page = client.post(list_url(tournament), {"name": "  "}, follow=True).content.decode()
    assert "Nome do árbitro:" in page
    page = client.post(list_url(tournament), {"name": "Ana", "table": "três"}, follow=True).content.decode()
    assert "Mesa (opcional):" in page and not RefereeInvitation.objects.exists()
    _inv, link = invite(client, tournament)
    client.logout()
    taken = accept(client, link, username=org.username)
    assert taken.status_code == 400 and "Usuário:" in taken.content.decode()
    differ = accept(client, link, password2="outra-senha-99")
    assert differ.status_code == 400 and "Senha de novo:" in differ.content.decode()
    short = accept(client, link, password="curta")
    assert short.status_code == 400 and "Senha:" in short.content.decode()
    assert not get_user_model().objects.filter(username="ana").exists()
    assert accept(client, link).status_code == 302  # the link still works after the refusals


def test_another_organizer_neither_sees_nor_revokes_an_invitation(client, org, tournament):
    inv, _link = invite(client, tournament)
    other = f.user("outro-org")
    pf.tournament(other, slug="outra", pairs=2, draw=False)
    client.force_login(other)
    assert client.get(list_url(tournament)).status_code == 403
    for name in ("revoke", "reissue"):
        assert client.post(reverse(f"invitations:{name}", kwargs={"slug": tournament.slug, "pk": inv.pk})
                           ).status_code == 403
    # nor through their own tournament's address
    assert client.post(reverse("invitations:revoke", kwargs={"slug": "outra", "pk": inv.pk})).status_code == 404
    inv.refresh_from_db()
    assert inv.revoked_at is None
    client.logout()
    assert client.get(list_url(tournament)).status_code == 302  # to the login


def test_the_dashboard_links_to_the_invitations(client, org, tournament):
    page = client.get(reverse("tournaments:dashboard", kwargs={"slug": tournament.slug})).content.decode()
    assert list_url(tournament) in page and "Convidar um árbitro por link" in page
