"""A used referee invitation is no way to sign in: posts to it check no password and are
throttled like /entrar/ (django-axes, per account and address); a used invitation can be revoked; a
pending one does not tell whether a login exists, and its refused logins are throttled."""
from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.tournaments import pages_fixtures as pf
from tournaments.models import TableAssignment

from .test_invitations import PASSWORD, invite, list_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = pf.organizer()
    user.set_password("senha-do-org-1")
    user.save()
    client.force_login(user)
    return user


@pytest.fixture
def tournament(org):
    return pf.tournament(org, pairs=4, draw=False)


def accept(client, link: str, username: str = "ana", **extra):
    return client.post(link, {"username": username, "password": PASSWORD, "password2": PASSWORD}, **extra)


def used_link(client, tournament, table=""):
    inv, link = invite(client, tournament, table=table)
    client.logout()
    assert accept(client, link).status_code == 302
    client.logout()
    return inv, link


def test_a_used_link_checks_no_password_and_is_throttled_like_the_login(client, org, tournament, settings):
    _inv, link = used_link(client, tournament)
    address = {"REMOTE_ADDR": "203.0.113.50"}
    answers = [client.post(link, {"username": "ana", "password": f"errada-{n}", "password2": ""}, **address)
               for n in range(settings.AXES_FAILURE_LIMIT - 1)]
    assert {a.status_code for a in answers} == {410}
    right = client.post(link, {"username": "ana", "password": PASSWORD, "password2": PASSWORD}, **address)
    assert right.status_code == 429 and "_auth_user_id" not in client.session
    login = client.post(reverse("login"), {"username": "ana", "password": PASSWORD}, **address)
    assert login.status_code == 429  # one count with /entrar/


def test_a_used_link_answers_the_right_password_like_a_wrong_one(client, org, tournament):
    _inv, link = used_link(client, tournament)
    right = client.post(link, {"username": "ana", "password": PASSWORD, "password2": PASSWORD},
                        REMOTE_ADDR="203.0.113.51")
    wrong = client.post(link, {"username": "ana", "password": "nada-disso-9", "password2": "nada-disso-9"},
                        REMOTE_ADDR="203.0.113.52")
    assert right.status_code == wrong.status_code == 410
    assert "_auth_user_id" not in client.session
    def page(response):
        return re.sub(r'(value|nonce)="[^"]*"', "", response.content.decode())

    assert page(right) == page(wrong)


def test_a_used_invitation_is_revoked_and_its_referee_loses_the_table(client, org, tournament):
    inv, link = used_link(client, tournament, table="3")
    assert TableAssignment.objects.filter(tournament=tournament, table=3, referee__username="ana").exists()
    client.force_login(org)
    page = client.get(list_url(tournament)).content.decode()
    assert reverse("invitations:revoke", kwargs={"slug": tournament.slug, "pk": inv.pk}) in page
    assert client.post(reverse("invitations:revoke", kwargs={"slug": tournament.slug, "pk": inv.pk})).status_code == 302
    inv.refresh_from_db()
    assert inv.revoked_at is not None
    assert not TableAssignment.objects.filter(tournament=tournament, referee__username="ana").exists()
    client.logout()
    assert client.get(link).status_code == 410


def test_a_pending_link_does_not_tell_whether_a_login_exists_and_is_throttled(client, org, tournament, settings):
    _inv, link = invite(client, tournament)
    client.logout()
    taken = accept(client, link, username=org.username)
    text = taken.content.decode()
    assert taken.status_code == 400 and "já existe" not in text and "taken" not in text
    assert "não pode ser escolhido" in text
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        accept(client, link, username=f"{org.username}")
    assert accept(client, link, username="livre-ainda").status_code == 429  # the invitation, from this address
    assert accept(client, link, username="livre-ainda", REMOTE_ADDR="198.51.100.77").status_code == 302
    assert get_user_model().objects.filter(username="livre-ainda").exists()
