"""The page of an account's clubs and federations (``/organizacoes/``): its administrators add and remove
members by login, a member who is not an administrator sees the members only, another club's organizer
can't add itself, and a new organizer lands on its tournaments with the page in its menu."""
from __future__ import annotations

import pytest
from django.urls import reverse

from events import organizations
from events.models import OrganizationMember
from tests.tournaments import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    alice, _amanda, _bruno = f.user("alice"), f.user("amanda"), f.user("bruno")
    club = organizations.create_organization(alice, name="Clube do Truco")
    organizations.create_organization(_bruno, name="Rivais")
    return club


def test_an_administrator_adds_and_removes_a_member(client, club):
    client.login(username="alice", password="x")
    page = client.get(reverse("tournaments:organizations"))
    assert page.status_code == 200 and "Clube do Truco" in page.content.decode()
    answer = client.post(reverse("tournaments:organization-member-add", kwargs={"pk": club.pk}),
                         {"username": "amanda", "role": "organizer"}, follow=True)
    assert "amanda" in answer.content.decode()
    member = OrganizationMember.objects.get(organization=club, user__username="amanda")
    assert member.role == "organizer"
    client.post(reverse("tournaments:organization-member-remove", kwargs={"pk": club.pk, "member": member.pk}))
    assert not OrganizationMember.objects.filter(pk=member.pk).exists()


def test_an_unknown_login_is_named_and_nothing_is_written(client, club):
    client.login(username="alice", password="x")
    answer = client.post(reverse("tournaments:organization-member-add", kwargs={"pk": club.pk}),
                         {"username": "ninguem"}, follow=True)
    assert "ninguem" in answer.content.decode()
    assert club.members.count() == 1


def test_another_clubs_organizer_cannot_join_or_remove(client, club):
    client.login(username="bruno", password="x")
    answer = client.post(reverse("tournaments:organization-member-add", kwargs={"pk": club.pk}),
                         {"username": "bruno", "role": "admin"})
    assert answer.status_code == 403
    admin = club.members.get()
    assert client.post(reverse("tournaments:organization-member-remove",
                               kwargs={"pk": club.pk, "member": admin.pk})).status_code == 403
    assert "Clube do Truco" not in client.get(reverse("tournaments:organizations")).content.decode()


def test_a_new_clubs_organizer_lands_on_its_tournaments_with_the_clubs_page_in_the_menu(client, club):
    client.login(username="alice", password="x")
    page = client.get(reverse("organizer-home")).content.decode()
    assert 'data-testid="nav-organizer"' in page and 'data-testid="nav-organizations"' in page


def test_an_organizer_of_two_clubs_chooses_whose_tournament_it_is(client, club):
    from events.models import Organization
    from tournaments.models import Tournament

    alice = club.members.get().user
    other = organizations.create_organization(alice, name="Federação do Truco", kind="federation")
    client.login(username="alice", password="x")
    page = client.get(reverse("tournaments:new")).content.decode()
    assert 'name="organization"' in page and "Federação do Truco" in page
    client.post(reverse("tournaments:new"), {"organization": other.pk, "name": "Copa Estadual",
                                             "date": "2026-12-05", "best_of": 1, "format": "swiss"})
    assert Tournament.objects.get(slug="copa-estadual").organization == other
    rival = Organization.objects.get(name="Rivais")
    answer = client.post(reverse("tournaments:new"), {"organization": rival.pk, "name": "Copa Alheia",
                                                      "date": "2026-12-05", "best_of": 1, "format": "swiss"})
    assert answer.status_code == 400 and not Tournament.objects.filter(slug="copa-alheia").exists()
