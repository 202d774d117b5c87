"""Organizations in the API: ``GET /api/organizations/`` lists the clubs and federations the caller acts for
(``events.access``: an admin or an organizer member, never a referee member nor another club's organizer),
with the caller's role; a tournament's answer names its organization."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from events import organizations
from tests.tournaments import factories as f
from tests.tournaments.factories import api_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def clubs():
    alice, bruno = f.user("alice"), f.user("bruno")
    club_a = organizations.create_organization(alice, name="Clube A")
    organizations.add_member(club_a, alice, username=f.user("amanda").username)
    organizations.add_member(club_a, alice, username=f.user("rafa").username, role="referee")
    club_b = organizations.create_organization(bruno, name="Clube B")
    return club_a, club_b


def _names(user) -> list[tuple[str, str]]:
    answer = api_client(user).get("/api/organizations/")
    assert answer.status_code == 200, answer.content
    return [(o["name"], o["role"]) for o in answer.json()]


def test_each_caller_lists_the_organizations_it_acts_for(clubs):
    users = get_user_model().objects
    assert _names(users.get(username="alice")) == [("Clube A", "admin")]
    assert _names(users.get(username="amanda")) == [("Clube A", "organizer")]
    assert _names(users.get(username="rafa")) == []  # a referee member acts for nothing
    assert _names(users.get(username="bruno")) == [("Clube B", "admin")]
    assert _names(f.user("zeca")) == []
    assert api_client().get("/api/organizations/").status_code in (401, 403)


def test_a_tournament_names_its_organization(clubs):
    club_a, _club_b = clubs
    alice = get_user_model().objects.get(username="alice")
    owned = f.tournament(alice, "copa-a", organization=club_a)
    body = api_client().get(f"/api/tournaments/{owned.slug}/").json()
    assert body["organization"] == {"id": club_a.pk, "slug": club_a.slug, "name": "Clube A", "kind": "club"}
    legacy = f.tournament(alice, "copa-antiga")
    assert api_client().get(f"/api/tournaments/{legacy.slug}/").json()["organization"] is None
    listed = {t["slug"]: t["organization"] for t in api_client().get("/api/tournaments/").json()}
    assert listed["copa-a"]["slug"] == club_a.slug and listed["copa-antiga"] is None
