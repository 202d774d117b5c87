"""Who an organizer may give a table to (docs/security.md, "Many clubs on one site"): the people of the
tournament's club (its members of any role, its referees included), its organizers and co-organizers, whoever
referees one of its tables already and the accounts its invitations made. The dashboard's picker and the room
monitor's list no one else (another club's logins and names are not theirs to see), and every way of assigning
(the service, the dashboard's form, the monitor's action, the API) refuses anyone else naming ``referee``, an
unknown id and a rival club's account alike."""
from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.errors import ServiceError
from events import access, organizations
from events.models import OrganizationMember
from referee import invitations
from tests.tournaments import factories as f
from tournaments import organizer_tools, pages, services
from tournaments.models import TableAssignment, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    alice, bruno = f.user("alice"), f.user("bruno")
    rival_referee = f.user("rival-ref", first_name="Rita", last_name="Rival")
    own_referee = f.user("own-ref", first_name="Otto", last_name="Nosso")
    club_a = organizations.create_organization(alice, name="Clube A")
    club_b = organizations.create_organization(bruno, name="Clube B")
    organizations.add_member(club_a, alice, username="own-ref", role="referee")
    organizations.add_member(club_b, bruno, username="rival-ref", role="referee")
    ta = Tournament.objects.create(name="Copa A", slug="copa-a", organizer=alice, organization=club_a,
                                   date=datetime.date(2026, 12, 1))
    tb = Tournament.objects.create(name="Copa B", slug="copa-b", organizer=bruno, organization=club_b,
                                   date=datetime.date(2026, 12, 1))
    return {"alice": alice, "bruno": bruno, "rival": rival_referee, "own": own_referee, "ta": ta, "tb": tb,
            "club_a": club_a}


def test_the_picker_lists_the_clubs_people_only(client, clubs):
    listed = {u.username for u in pages.referee_choices(clubs["ta"])}
    assert listed == {"alice", "own-ref"}
    client.force_login(clubs["alice"])
    for url in (reverse("tournaments:dashboard", kwargs={"slug": "copa-a"}), "/torneios/copa-a/sala/?mesa=1"):
        html = client.get(url).content.decode()
        assert "own-ref" in html or "Otto Nosso" in html
        assert "rival-ref" not in html and "Rita Rival" not in html and "bruno" not in html


def test_a_rival_clubs_account_is_refused_by_the_service_naming_the_field(clubs):
    with pytest.raises(ServiceError) as refused:
        services.assign_referee(clubs["ta"], clubs["alice"], table=1, referee=clubs["rival"])
    assert refused.value.field == "referee" and "clube" in str(refused.value)
    assert not TableAssignment.objects.exists()
    services.assign_referee(clubs["ta"], clubs["alice"], table=1, referee=clubs["own"])
    assert TableAssignment.objects.get().referee == clubs["own"]


def test_a_forged_post_names_no_one_outside_the_club(client, clubs):
    client.force_login(clubs["alice"])
    url = reverse("tournaments:referee", kwargs={"slug": "copa-a"})
    page = client.post(url, {"table": "1", "referee": str(clubs["rival"].pk)}, follow=True).content.decode()
    assert "clube" in page and not TableAssignment.objects.exists()
    client.post("/torneios/copa-a/sala/acao/", {"do": "referee", "table": "2", "referee": str(clubs["rival"].pk)})
    assert not TableAssignment.objects.exists()
    api = APIClient()
    api.force_authenticate(clubs["alice"])
    rival = api.post("/api/tournaments/copa-a/tables/", {"table": 3, "referee": clubs["rival"].pk}, format="json")
    unknown = api.post("/api/tournaments/copa-a/tables/", {"table": 3, "referee": 99999}, format="json")
    assert rival.status_code == unknown.status_code == 400 and rival.json() == unknown.json()
    assert rival.json()["field"] == "referee" and not TableAssignment.objects.exists()
    client.post(url, {"table": "1", "referee": str(clubs["own"].pk)})
    client.post("/torneios/copa-a/sala/acao/", {"do": "referee", "table": "2", "referee": str(clubs["own"].pk)})
    assert api.post("/api/tournaments/copa-a/tables/", {"table": 3, "referee": clubs["own"].pk},
                    format="json").status_code == 200
    assert sorted(TableAssignment.objects.values_list("table", "referee__username")) == [
        (1, "own-ref"), (2, "own-ref"), (3, "own-ref")]


def test_a_referee_the_organizer_creates_is_its_clubs_and_nobody_elses(clubs):
    made = organizer_tools.create_referee(clubs["ta"], clubs["alice"], name="Nova Árbitra", username="nova",
                                          password="apito-na-mesa-7", table=4)
    member = OrganizationMember.objects.get(user=made)
    assert (member.organization, member.role) == (clubs["club_a"], "referee")
    assert made in pages.referee_choices(clubs["ta"]) and made not in pages.referee_choices(clubs["tb"])
    with pytest.raises(ServiceError):
        services.assign_referee(clubs["tb"], clubs["bruno"], table=1, referee=made)
    # a referee member runs nothing of its club's
    assert not access.manages(made, clubs["ta"]) and not access.organization_ids(made)
    assert not Tournament.objects.filter(access.organizes(made, "")).exists()
    assert not services.can_create_tournament(made)


def test_an_invited_referee_may_referee_until_the_invitation_is_revoked(clubs):
    invitation, token = invitations.invite(clubs["ta"], clubs["alice"], name="Convidada")
    user = invitations.accept(token, username="convidada", password="apito-na-mesa-7",
                              password2="apito-na-mesa-7")
    assert user in pages.referee_choices(clubs["ta"]) and user not in pages.referee_choices(clubs["tb"])
    invitations.revoke(invitation, clubs["alice"])
    assert user not in pages.referee_choices(clubs["ta"])
    with pytest.raises(ServiceError) as refused:
        services.assign_referee(clubs["ta"], clubs["alice"], table=1, referee=user)
    assert refused.value.field == "referee"


def test_whoever_referees_a_table_stays_eligible_and_a_co_organizer_is_listed(clubs):
    from events.models import CoOrganizer

    services.assign_referee(clubs["ta"], clubs["alice"], table=1, referee=clubs["own"])
    OrganizationMember.objects.filter(user=clubs["own"]).delete()  # left the club: its table stays its own
    assert clubs["own"] in pages.referee_choices(clubs["ta"])
    CoOrganizer.objects.create(tournament=clubs["ta"], user=clubs["bruno"])
    assert clubs["bruno"] in pages.referee_choices(clubs["ta"])
    assert clubs["rival"] not in pages.referee_choices(clubs["ta"])  # the co-organizer's club is not A's


def test_an_administrator_adds_and_removes_a_referee_member_on_the_clubs_page(client, clubs):
    f.user("carla")
    client.force_login(clubs["alice"])
    page = client.get(reverse("tournaments:organizations")).content.decode()
    assert 'value="referee"' in page
    page = client.post(reverse("tournaments:organization-member-add", kwargs={"pk": clubs["club_a"].pk}),
                       {"username": "carla", "role": "referee"}, follow=True).content.decode()
    assert "carla" in page
    member = OrganizationMember.objects.get(user__username="carla")
    assert member.role == "referee" and member.user in pages.referee_choices(clubs["ta"])
    client.force_login(member.user)  # a referee sees no club to act for, and no organizer's menu
    page = client.get(reverse("tournaments:organizations")).content.decode()
    assert "Clube A" not in page and 'data-testid="nav-organizer"' not in page
    client.force_login(clubs["alice"])
    client.post(reverse("tournaments:organization-member-remove",
                        kwargs={"pk": clubs["club_a"].pk, "member": member.pk}))
    assert not OrganizationMember.objects.filter(pk=member.pk).exists()


def test_a_co_organizer_from_another_club_adds_no_referee_to_the_club_and_invites_instead(clubs):
    """A referee made from a tournament's page joins the event's club (then listed in every event of it): only
    whoever acts for that club makes one. Club B's co-organizer of A's event is refused, creating no account
    and no member; its invitation gives A's event a referee of that event only."""
    from django.contrib.auth import get_user_model

    from events.models import CoOrganizer

    CoOrganizer.objects.create(tournament=clubs["ta"], user=clubs["bruno"])
    other_a = Tournament.objects.create(name="Copa A2", slug="copa-a2", organizer=clubs["alice"],
                                        organization=clubs["club_a"], date=datetime.date(2026, 12, 8))
    with pytest.raises(ServiceError) as refused:
        organizer_tools.create_referee(clubs["ta"], clubs["bruno"], name="Juiz de Fora", username="juiz-b",
                                       password="apito-na-mesa-7", table=2)
    assert refused.value.field == "username" and "convite" in str(refused.value).lower()
    assert not get_user_model().objects.filter(username="juiz-b").exists()
    assert set(OrganizationMember.objects.filter(organization=clubs["club_a"]).values_list(
        "user__username", flat=True)) == {"alice", "own-ref"}
    invitation, token = invitations.invite(clubs["ta"], clubs["bruno"], name="Juiz de Fora")
    invited = invitations.accept(token, username="juiz-b", password="apito-na-mesa-7", password2="apito-na-mesa-7")
    assert invited in pages.referee_choices(clubs["ta"]) and invited not in pages.referee_choices(other_a)
    assert not OrganizationMember.objects.filter(user=invited).exists()
    # an organizer member of A (not only its administrator) does enlist the referee it makes
    organizations.add_member(clubs["club_a"], clubs["alice"], username="bruno", role="organizer")
    bruno = get_user_model().objects.get(pk=clubs["bruno"].pk)  # read afresh, as a request would
    made = organizer_tools.create_referee(clubs["ta"], bruno, name="Juíza do Clube", username="juiza-a",
                                          password="apito-na-mesa-7")
    assert OrganizationMember.objects.get(user=made).organization == clubs["club_a"]
    assert made in pages.referee_choices(other_a)


def test_the_page_says_why_a_co_organizer_cannot_make_the_clubs_referee(client, clubs):
    from events.models import CoOrganizer

    CoOrganizer.objects.create(tournament=clubs["ta"], user=clubs["bruno"])
    client.force_login(clubs["bruno"])
    page = client.post(reverse("tournaments:new-referee", kwargs={"slug": "copa-a"}),
                       {"name": "Juiz de Fora", "username": "juiz-b", "password": "apito-na-mesa-7"},
                       follow=True).content.decode()
    assert "Convide o árbitro por link" in page and not OrganizationMember.objects.filter(
        user__username="juiz-b").exists()


def test_a_site_operator_referees_a_club_only_as_one_of_its_people(client, clubs):
    """Operators run every tournament but are no club's referee by being operators: never listed to a club,
    refused as an unknown id is; as a referee member of the club, listed and assigned like any other."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission

    root = get_user_model().objects.create_superuser("root", password="x")
    ops = f.user("ops")
    ops.user_permissions.add(Permission.objects.get(codename="operate_site"))
    for operator in (root, ops):
        assert operator not in pages.referee_choices(clubs["ta"])
        for by in (clubs["alice"], root):  # neither the club's organizer nor an operator appoints one
            with pytest.raises(ServiceError) as refused:
                services.assign_referee(clubs["ta"], by, table=1, referee=operator)
            assert refused.value.message == services.referees.refusal().message
    api = APIClient()
    api.force_authenticate(root)
    named = api.post("/api/tournaments/copa-a/tables/", {"table": 3, "referee": root.pk}, format="json")
    unknown = api.post("/api/tournaments/copa-a/tables/", {"table": 3, "referee": 99999}, format="json")
    assert named.status_code == unknown.status_code == 400 and named.json() == unknown.json()
    assert not TableAssignment.objects.exists()
    services.assign_referee(clubs["ta"], root, table=1, referee=clubs["own"])  # an operator assigns the club's
    organizations.add_member(clubs["club_a"], clubs["alice"], username="ops", role="referee")
    assert ops in pages.referee_choices(clubs["ta"]) and ops not in pages.referee_choices(clubs["tb"])
    services.assign_referee(clubs["ta"], clubs["alice"], table=2, referee=ops)
    assert sorted(TableAssignment.objects.values_list("table", "referee__username")) == [(1, "own-ref"), (2, "ops")]
