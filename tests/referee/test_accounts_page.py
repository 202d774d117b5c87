"""The page "Contas": organizer accounts and locked logins without the admin.

Account managers (superusers, staff with auth.add_user) create organizers, who choose their own
password from a link shown once; organizers unlock their referees' locked logins, managers any."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.urls import reverse

from tests.tournaments import factories as f
from tournaments import accounts
from tournaments.models import TableAssignment

pytestmark = pytest.mark.django_db
PAGE = "/contas/"


@pytest.fixture(autouse=True)
def fast_hashes(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def demo_organizer():
    """As the demo's organizador and create_organizer make them: staff, the tournaments app's permissions."""
    return accounts.create_organizer(username="organizador", name="Olga Reis", password="truco-demo-1")


def test_a_superuser_creates_an_organizer_who_chooses_the_password_from_a_link(client):
    boss = get_user_model().objects.create_superuser("chefe", password="x")
    client.force_login(boss)
    page = client.get(PAGE)
    assert page.status_code == 200 and 'data-testid="new-organizer"' in page.content.decode()
    made = client.post(reverse("accounts:create-organizer"),
                       {"username": "ana", "name": "Ana Souza", "email": "ana@example.org"})
    assert made.status_code == 200 and "no-store" in made["Cache-Control"]
    link = re.search(r'value="(http://testserver/conta/senha/[^"]+)"', made.content.decode()).group(1)
    ana = get_user_model().objects.get(username="ana")
    assert not ana.is_staff and not ana.is_superuser and not ana.has_usable_password()  # a club's, not the site's
    assert ana.organization_roles.get().role == "admin"
    assert ana.has_perm("events.add_tournament") and not ana.has_perm("auth.add_user")
    assert "ana" in client.get(PAGE).content.decode()  # waiting to choose the password: a new link offered

    client.logout()
    landing = client.get(link, follow=True)
    assert 'data-testid="password-set"' in landing.content.decode()
    done = client.post(landing.redirect_chain[-1][0], {"new_password1": "zap-de-ouro-77", "new_password2": "zap-de-ouro-77"},
                       follow=True)
    assert 'data-testid="password-done"' in done.content.decode()
    signed = client.post(reverse("login"), {"username": "ana", "password": "zap-de-ouro-77"})
    assert signed.status_code == 302
    client.logout()
    assert 'data-testid="dead-link"' in client.get(link, follow=True).content.decode()  # once only


def test_an_organizer_creates_no_organizers_and_bad_input_names_the_field(client):
    organizer = demo_organizer()
    client.force_login(organizer)
    page = client.get(PAGE)
    assert page.status_code == 200 and 'data-testid="new-organizer"' not in page.content.decode()
    assert client.post(reverse("accounts:create-organizer"), {"username": "bia"}).status_code == 403
    assert not get_user_model().objects.filter(username="bia").exists()

    manager = get_user_model().objects.create_user("gestora", password="x", is_staff=True)
    manager.user_permissions.add(*Permission.objects.filter(content_type__app_label="auth", codename="add_user"))
    client.force_login(manager)
    taken = client.post(reverse("accounts:create-organizer"), {"username": "Organizador"})
    assert taken.status_code == 400 and "já existe" in taken.content.decode()
    bad = client.post(reverse("accounts:create-organizer"), {"username": "com espaço"})
    assert bad.status_code == 400 and "Escolha um usuário" in bad.content.decode()
    # the error is linked to its field: aria-invalid, aria-describedby → the message's id
    html = bad.content.decode()
    field = re.search(r'<input[^>]*name="username"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in field and 'aria-describedby="id_username-error"' in field
    assert re.search(r'<span class="error" id="id_username-error" role="alert">[^<]*Escolha um usuário', html)
    assert "aria-invalid" not in re.search(r'<input[^>]*name="name"[^>]*>', html).group(0)  # only the field in error
    player = f.user("jogador")
    client.force_login(player)
    assert client.get(PAGE).status_code == 403


def lock_out(client, username: str, address: str = "203.0.113.7", times: int = 5):
    for _ in range(times):
        client.post(reverse("login"), {"username": username, "password": "errada"}, REMOTE_ADDR=address)


def test_an_organizer_unlocks_a_referee_of_their_tournament_and_nobody_else(client, settings):
    organizer = f.user("dono")
    tournament = f.tournament(organizer)
    referee = get_user_model().objects.create_user("carla", password="apito-123", first_name="Carla",
                                                   last_name="Mendes")
    TableAssignment.objects.create(tournament=tournament, table=1, referee=referee)
    get_user_model().objects.create_user("outro", password="x", is_staff=True)
    lock_out(client, "carla")
    lock_out(client, "outro")
    assert client.post(reverse("login"), {"username": "carla", "password": "apito-123"},
                       REMOTE_ADDR="203.0.113.7").status_code == 429

    client.force_login(organizer)
    page = client.get(PAGE).content.decode()
    assert "Carla Mendes" in page and 'data-login="outro"' not in page  # a staff login is not theirs
    home = client.get(reverse("organizer-home")).content.decode()
    assert "1 usuário bloqueado" in home
    stamp = re.search(r'name="stamp" value="([^"]+)"', page).group(1)
    stale = client.post(reverse("accounts:unlock"), {"username": "carla", "address": "203.0.113.7",
                                                     "stamp": "2020-01-01T00:00:00+00:00"}, follow=True)
    assert "errou a senha de novo" in stale.content.decode()
    refused = client.post(reverse("accounts:unlock"), {"username": "outro", "address": "203.0.113.7", "stamp": stamp})
    assert refused.status_code == 403
    done = client.post(reverse("accounts:unlock"), {"username": "carla", "address": "203.0.113.7", "stamp": stamp},
                       follow=True)
    assert "Usuário carla desbloqueado" in done.content.decode()
    again = client.post(reverse("accounts:unlock"), {"username": "carla", "address": "203.0.113.7", "stamp": stamp},
                        follow=True)  # a second tap: nothing twice, and it says why
    assert "não está mais bloqueado" in again.content.decode()
    client.logout()
    assert client.post(reverse("login"), {"username": "carla", "password": "apito-123"},
                       REMOTE_ADDR="203.0.113.7").status_code == 302

    boss = get_user_model().objects.create_superuser("chefe", password="x")
    client.force_login(boss)
    assert 'data-login="outro"' in client.get(PAGE).content.decode()  # a manager sees every lock


def test_create_organizer_command_uses_the_same_service(monkeypatch):
    from django.core.management import call_command

    monkeypatch.setenv("TRUCO_ORGANIZER_PASSWORD", "senha-forte-42")
    call_command("create_organizer", "--no-input", "--username", "gil", "--name", "Gil Souza", "--manager",
                 stdout=open("/dev/null", "w"))
    gil = get_user_model().objects.get(username="gil")
    assert not gil.is_staff and gil.check_password("senha-forte-42") and accounts.may_manage_accounts(gil)
    assert (gil.first_name, gil.last_name) == ("Gil", "Souza")


def test_only_a_superuser_makes_a_password_link_for_a_superuser_or_a_manager(client):
    """A link to choose a password is the account: an account manager (staff with "add user") gets none
    for a superuser, nor for another manager, waiting for their password; a superuser does."""
    users = get_user_model().objects
    boss = users.create_superuser("chefe", password="x")
    root = users.create_superuser("raiz", password=None)  # no password yet
    manager = accounts.create_organizer(username="gerente", manager=True, by=boss)
    other = accounts.create_organizer(username="outro", manager=True, by=boss)
    organizer = accounts.create_organizer(username="olga", by=boss)
    manager.set_password("senha-do-gerente-1")
    manager.save()
    client.force_login(manager)
    for target in (root, other):
        refused = client.post(reverse("accounts:new-link"), {"username": target.username}, follow=True)
        assert "/conta/senha/" not in refused.content.decode()
    made = client.post(reverse("accounts:new-link"), {"username": organizer.username})
    assert "/conta/senha/" in made.content.decode()
    client.force_login(boss)
    assert "/conta/senha/" in client.post(reverse("accounts:new-link"), {"username": "raiz"}).content.decode()


def test_a_password_link_is_cut_in_the_logs():
    from config.logs import redact

    line = redact("GET /conta/senha/MTI/cz4k1a-0123456789abcdef0123456789abcdef/ 302")
    assert "0123456789abcdef" not in line and line.startswith("GET /conta/senha/MTI/cz4k…")
