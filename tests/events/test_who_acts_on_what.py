"""Many clubs on one site (docs/security.md): every role × every action × its own or another organization's
object. Two clubs, A and B, each with a tournament still running; A's tournament has a co-organizer from B;
one player plays in both clubs' tournaments, another only in A's. Staff (the old organizer accounts) and an
account manager command nothing of a club's; the site's operators (a superuser, ``events.operate_site``) do.
A referee member of club A (the role ``create_referee`` gives) is one of the people A's tables may be given to,
and commands nothing: none of an organizer's actions, not even listing A's tournaments as its own.
"""
from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, Permission

from config.errors import ServiceError
from events import access, organizations
from events.models import CoOrganizer, OrganizationMember
from tests.tournaments import factories as f
from tournaments import accounts, players
from referee import roles
from tournaments.models import Pair, Player, Tournament
from tournaments.services import assign_referee, can_create_tournament
from seasons.models import Circuit
from tournaments.pins import reset_pin
from seasons.services import circuits, ratings

ACTORS = ("operator", "operator_by_permission", "admin_a", "organizer_a", "referee_member_a", "co_organizer_from_b",
          "admin_b", "legacy_staff", "account_manager", "anonymous")

YES = "allowed"


@pytest.fixture
def world(db):
    User = get_user_model()
    w = {"operator": User.objects.create_superuser("root", password="x")}
    w["operator_by_permission"] = f.user("ops")
    w["operator_by_permission"].user_permissions.add(Permission.objects.get(codename="operate_site"))
    w["admin_a"], w["organizer_a"] = f.user("alice"), f.user("amanda")
    w["admin_b"], w["co_organizer_from_b"] = f.user("bruno"), f.user("carla")
    w["legacy_staff"] = f.user("staff", is_staff=True)
    # what create_organizer gave an organizer before organizations: staff, every permission of these apps
    w["legacy_staff"].user_permissions.add(*Permission.objects.filter(content_type__app_label__in=(
        "events", "draw", "tournaments")).exclude(codename="operate_site"))
    w["account_manager"] = f.user("manager")
    w["account_manager"].user_permissions.add(Permission.objects.get(codename="add_user"))
    w["anonymous"] = AnonymousUser()
    w["referee_member_a"] = f.user("rafa")
    club_a = organizations.create_organization(w["admin_a"], name="Clube A")
    organizations.add_member(club_a, w["admin_a"], username="amanda")
    organizations.add_member(club_a, w["admin_a"], username="rafa", role="referee")
    club_b = organizations.create_organization(w["admin_b"], name="Clube B")
    organizations.add_member(club_b, w["admin_b"], username="carla")
    ta = f.tournament(w["admin_a"], "copa-a", organization=club_a)
    tb = f.tournament(w["admin_b"], "copa-b", organization=club_b)
    CoOrganizer.objects.create(tournament=ta, user=w["co_organizer_from_b"])
    own, own2, shared, other = (Player.objects.create(name=n) for n in ("Só A", "Só A Dois", "Dos Dois", "Outro"))
    Pair.objects.create(tournament=ta, name="A1", first_player=own, second_player=own2)
    Pair.objects.create(tournament=ta, name="A2", first_player=shared, second_player=other)
    Pair.objects.create(tournament=tb, name="B1", first_player=shared, second_player=Player.objects.create(name="B"))
    circuit = Circuit.objects.create(name="Circuito A", slug="circuito-a", organizer=w["admin_a"],
                                     organization=club_a)
    w.update(club_a=club_a, ta=ta, own=own, own2=own2, shared=shared, circuit=circuit)
    for key in ACTORS:  # every check reads the user afresh, as a request would
        if key != "anonymous":
            w[key] = User.objects.get(pk=w[key].pk)
    return w


def outcome(call) -> str:
    try:
        result = call()
    except ServiceError as refused:  # Forbidden and Conflict are ServiceErrors too
        return f"refused ({type(refused).__name__})"
    return YES if result is not False else "refused (False)"


ACTIONS = {
    # runs club A's tournament: results, pairs, rounds, the room (every tournament service asks this)
    "run club A's tournament": (lambda w, u: access.manages(u, w["ta"]),
                                {"operator", "operator_by_permission", "admin_a", "organizer_a",
                                 "co_organizer_from_b"}),
    # a new PIN for a player who plays only in club A's event
    "reset the PIN of a player of A only": (lambda w, u: reset_pin(w["ta"], w["own"], u),
                                            {"operator", "operator_by_permission", "admin_a", "organizer_a",
                                             "co_organizer_from_b"}),
    # a new PIN would stop the player's card in club B's running event: operators, and who runs both events
    "reset the PIN of a player of A and B": (lambda w, u: reset_pin(w["ta"], w["shared"], u),
                                             {"operator", "operator_by_permission", "co_organizer_from_b"}),
    "read a contact of A's player": (lambda w, u: players.contact_visible(w["own"], u),
                                     {"operator", "operator_by_permission", "admin_a", "organizer_a"}),
    "hand A's player their data link": (lambda w, u: players.may_issue_data_link(u, w["own"]),
                                        {"operator", "operator_by_permission", "admin_a", "organizer_a"}),
    "hand the data link of a player of A and B": (lambda w, u: players.may_issue_data_link(u, w["shared"]),
                                                  {"operator", "operator_by_permission", "co_organizer_from_b"}),
    "merge two of A's players": (lambda w, u: players.may_merge(u, w["own"], w["own2"]),
                                 {"operator", "operator_by_permission", "admin_a", "organizer_a"}),
    "choose the site's rating method": (lambda w, u: ratings.may_choose_method(u),
                                        {"operator", "operator_by_permission"}),
    "create a tournament for club A": (lambda w, u: organizations.home_of(u, w["club_a"].pk),
                                       {"operator", "operator_by_permission", "admin_a", "organizer_a"}),
    "add a member to club A": (lambda w, u: organizations.add_member(w["club_a"], u, username="manager"),
                               {"operator", "operator_by_permission", "admin_a"}),
    "run club A's circuit": (lambda w, u: circuits.can_manage_circuit(u, w["circuit"]),
                             {"operator", "operator_by_permission", "admin_a", "organizer_a"}),
    "create organizer accounts": (lambda w, u: accounts.may_manage_accounts(u),
                                  {"operator", "account_manager"}),
    # the organizers' rule as a filter: the dashboards, the counts of what waits, the rulings to review
    "find A's tournament among those it organizes": (
        lambda w, u: Tournament.objects.filter(access.organizes(u, ""), pk=w["ta"].pk).exists(),
        {"admin_a", "organizer_a", "co_organizer_from_b"}),
    "find A's players among those of its own events": (
        lambda w, u: Pair.objects.filter(access.owns(u), tournament=w["ta"]).exists(), {"admin_a", "organizer_a"}),
    "create tournaments": (lambda w, u: can_create_tournament(u),
                           {"operator", "operator_by_permission", "admin_a", "organizer_a", "co_organizer_from_b",
                            "admin_b", "legacy_staff"}),
    "be shown the organizer's menu": (lambda w, u: roles.summary(u).organizer,
                                      {"operator", "operator_by_permission", "admin_a", "organizer_a",
                                       "co_organizer_from_b", "admin_b"}),
    "give a table of A's tournament to A's referee": (
        lambda w, u: assign_referee(w["ta"], u, table=1, referee=w["referee_member_a"]),
        {"operator", "operator_by_permission", "admin_a", "organizer_a", "co_organizer_from_b"}),
}


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("action", sorted(ACTIONS))
def test_each_role_acts_only_on_what_it_owns(world, action, actor):
    call, allowed = ACTIONS[action]
    got = outcome(lambda: call(world, world[actor]))
    if actor in allowed:
        assert got == YES, f"{actor} may {action}: {got}"
    else:
        assert got != YES, f"{actor} may not {action}"


def test_a_pin_reset_refused_for_another_clubs_event_says_why(world):
    with pytest.raises(ServiceError) as refused:
        reset_pin(world["ta"], world["shared"], world["admin_a"])
    assert refused.value.field == "player" and "outra organização" in str(refused.value)


def test_the_last_administrator_cannot_leave_and_a_member_is_added_once(world):
    from config.errors import Conflict

    with pytest.raises(Conflict):
        organizations.add_member(world["club_a"], world["admin_a"], username="amanda")
    admin = OrganizationMember.objects.get(organization=world["club_a"], role="admin")
    with pytest.raises(Conflict):
        organizations.remove_member(admin, world["admin_a"])


def test_a_new_tournament_belongs_to_its_creators_club(world):
    from tournaments.services import create_tournament

    made = create_tournament(world["organizer_a"], name="Copa Nova", date=datetime.date(2026, 12, 1))
    assert made.organization == world["club_a"]
    assert access.manages(world["admin_a"], made) and not access.manages(world["admin_b"], made)
    with pytest.raises(ServiceError) as refused:
        create_tournament(world["admin_b"], name="Copa Alheia", date=datetime.date(2026, 12, 1),
                          organization=world["club_a"].pk)
    assert refused.value.field == "organization"


def test_every_role_but_the_referee_acts_for_its_organization(world):
    assert set(access.ACTING_ROLES) == set(OrganizationMember.Role.values) - {"referee"}
    assert not access.organization_ids(world["referee_member_a"])
    assert not access.manages(world["referee_member_a"], world["ta"])
