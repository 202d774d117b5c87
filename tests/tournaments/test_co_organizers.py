"""Co-organizers: one permission function (``events.access.manages`` / ``organizes``) gives a
co-organizer exactly the organizer's rights on that tournament, pages, API, referee pages and queries alike;
a stranger gets none; adding, inviting, accepting and removing are audited; a link works once."""
from __future__ import annotations

import pytest
from django.urls import reverse

from referee import roles
from scoring import access
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.test_pages_permissions import organizer_requests, state
from tournaments import services
from tournaments.models import AuditEntry, CoOrganizer, OrganizerInvitation, Pair, Tournament
from tournaments.services import organizers

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup():
    org = pf.organizer()
    t = pf.tournament(org, pairs=4, format="swiss")
    match = pf.open_matches(t)[0]
    pair = Pair.objects.filter(tournament=t).first()
    co = f.user("coorg")
    organizers.add_co_organizer(t, org, "coorg")
    return org, co, t, match, pair


def test_a_co_organizer_does_what_the_organizer_does_on_every_page(client, setup):
    _org, co, t, match, pair = setup
    client.force_login(co)
    for method, path, data in organizer_requests(t, match, pair):
        response = getattr(client, method)(path, data)
        assert response.status_code in (200, 302, 400), path
    assert AuditEntry.objects.filter(tournament=t, actor=co).exists()  # the writes were theirs, audited


def test_a_stranger_and_a_removed_co_organizer_get_nothing(client, setup):
    org, co, t, match, pair = setup
    stranger = f.user("estranho")
    organizers.remove_co_organizer(t, org, co.pk)
    before = state(t)
    for user in (stranger, co):
        client.force_login(user)
        for method, path, data in organizer_requests(t, match, pair):
            assert getattr(client, method)(path, data).status_code == 403, (user, path)
    assert state(t) == before
    assert AuditEntry.objects.filter(tournament=t, action=AuditEntry.Action.CO_ORGANIZER_REMOVED).count() == 1


def test_the_api_and_the_queries_count_a_co_organizer(client, setup):
    _org, co, t, _match, _pair = setup
    client.force_login(co)
    response = client.post(reverse("tournaments-api:pairs", kwargs={"slug": t.slug}),
                           {"name": "Nova", "first_player": {"name": "Ana Nova"},
                            "second_player": {"name": "Bia Nova"}}, content_type="application/json")
    assert response.status_code == 201, response.content
    assert list(Tournament.objects.filter(access.organizes(co, ""))) == [t]
    assert list(roles.tournaments_of(co)) == [t]
    assert roles.summary(co).organizer
    assert t.name in client.get(reverse("organizer-home")).content.decode()  # "Meus torneios" lists it
    assert client.get(reverse("referee:review")).status_code == 200  # escalated rulings of their tournaments
    stranger = f.user("estranho")
    assert not Tournament.objects.filter(access.organizes(stranger, "")).exists()
    assert not access.manages(stranger, t) and access.manages(co, t)
    # no row twice: the organizer's tournament with two co-organizers is listed once
    organizers.add_co_organizer(t, co, f.user("terceiro").username)
    assert Tournament.objects.filter(access.organizes(t.organizer, "")).count() == 1


def test_a_co_organizer_adds_and_removes_others_but_never_the_organizer(setup):
    org, co, t, _match, _pair = setup
    third = f.user("terceiro")
    organizers.add_co_organizer(t, co, "TERCEIRO")
    organizers.add_co_organizer(t, co, "terceiro")  # a double send: one row, one audit entry
    assert CoOrganizer.objects.filter(tournament=t, user=third).count() == 1
    assert AuditEntry.objects.filter(action=AuditEntry.Action.CO_ORGANIZER_ADDED).count() == 2  # coorg, terceiro
    with pytest.raises(services.TournamentError):
        organizers.remove_co_organizer(t, co, org.pk)
    with pytest.raises(services.TournamentError):
        organizers.add_co_organizer(t, co, "ninguem")
    with pytest.raises(services.Forbidden):
        organizers.add_co_organizer(t, f.user("estranho"), "terceiro")


def test_an_invitation_link_works_once_for_the_signed_in_user(client, setup):
    org, _co, t, _match, _pair = setup
    client.force_login(org)
    page = reverse("tournaments:organizers", kwargs={"slug": t.slug})
    response = client.post(page, {"action": "link"}, follow=True)
    link = response.context["shown"]
    assert "/organizar/" in link
    invitation = OrganizerInvitation.objects.get(tournament=t)
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert invitation.token_hash == organizers.token_hash(token) and token not in invitation.token_hash
    path = reverse("tournaments:organizer-invitation", kwargs={"token": token})
    client.logout()
    assert client.get(path).status_code == 302  # sign in first
    guest = f.user("convidada")
    client.force_login(guest)
    assert client.get(path).status_code == 200 and not access.manages(guest, t)  # opening changes nothing
    assert client.post(path).status_code == 302
    assert client.post(path).status_code == 302  # a double tap: the same user, nothing more
    assert access.manages(guest, Tournament.objects.get(pk=t.pk))
    client.force_login(f.user("outra"))
    response = client.post(path)
    assert response.status_code == 410 and not access.manages(response.wsgi_request.user, t)
    actions = list(AuditEntry.objects.filter(tournament=t).values_list("action", flat=True))
    assert actions.count(AuditEntry.Action.ORGANIZER_INVITED) == 1
    assert actions.count(AuditEntry.Action.CO_ORGANIZER_ADDED) == 2  # coorg (by login), convidada (by link)


def test_a_revoked_link_does_nothing(client, setup):
    org, _co, t, _match, _pair = setup
    invitation, token = organizers.invite(t, org)
    organizers.revoke_invitation(invitation, org)
    guest = f.user("convidada")
    client.force_login(guest)
    assert client.post(reverse("tournaments:organizer-invitation", kwargs={"token": token})).status_code == 410
    assert not access.manages(guest, t)
