"""The rulings API under /api/referee/ and who may do what, per role and action: the organizer,
the match's referee (Match.referee or the table's assignment), a referee of another table, a
player of the pair (with their PIN), a player of the other pair, and anonymous visitors."""
from __future__ import annotations

import pytest
from django.test import Client

from referee import appeals
from referee import services
from tests.tournaments import factories as f
from tournaments import services as tournament_services
from referee.models import Appeal, EscalationPolicy, Ruling

from .rulings_setup import *  # noqa: F401,F403
from .rulings_setup import PINS, penalties

pytestmark = pytest.mark.django_db

ROLES = ["organizer", "referee", "other_referee", "player", "other_player", "anonymous"]


@pytest.fixture
def as_role(organizer, referee, other_referee, settings):
    """``as_role(role)``: (client, player fields to add to a claim or appeal for team 1)."""
    def make(role):
        client = Client()
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        user = {"organizer": organizer, "referee": referee, "other_referee": other_referee}.get(role)
        if user is not None:
            client.force_login(user)
        return client
    return make


def player_fields(role, pairs) -> dict:
    """Claims and appeals here are for team 1 (pair B, "Copas")."""
    if role == "player":
        return {"player": pairs[1].first_player.pk, "pin": PINS["Caio Reis"]}
    if role == "other_player":
        return {"player": pairs[0].first_player.pk, "pin": PINS["Ana Souza"]}
    return {}


def claim_body(role, pairs) -> dict:
    body = {"claimant_team": 1, "offender_seat": 0, "code": "guidance_word", "facts": {"value": 3}}
    fields = player_fields(role, pairs)
    if fields:
        body.update({"player": fields["player"], "pin": fields["pin"]})
    return body


def proposed(match, referee) -> Ruling:
    return services.propose(match, 1, 0, "guidance_word", {"value": 3}, referee)


def test_catalog_is_public_and_says_who_claims_and_the_facts():
    response = Client().get("/api/referee/catalog/")
    assert response.status_code == 200
    rows = {row["code"]: row for row in response.json()}
    assert rows["guidance_word"]["article"] == "art. 24" and rows["guidance_word"]["claimed_by"] == "opponents"
    assert rows["saw_partner_cards"]["facts"] == ["value", "raised_team"]
    assert "outcome" in rows["wrong_card_count"]["facts"]
    assert rows["not_covered"]["article"] == "art. 26"
    assert rows["burned_card"]["sanction"] == "house" and rows["guidance_word"]["sanction"] == "regulation"


def test_rulings_of_a_match_are_public(match, referee):
    proposed(match, referee)
    response = Client().get(f"/api/referee/matches/{match.pk}/rulings/")
    assert response.status_code == 200
    [row] = response.json()
    assert (row["code"], row["article"], row["points"], row["status"]) == ("guidance_word", "art. 24", 3, "proposed")


@pytest.mark.parametrize("role,expected", [("organizer", 201), ("referee", 201), ("other_referee", 403),
                                           ("player", 201), ("other_player", 403), ("anonymous", 403)])
def test_propose(role, expected, as_role, match, pairs):
    response = as_role(role).post(f"/api/referee/matches/{match.pk}/rulings/", claim_body(role, pairs),
                                  content_type="application/json")
    assert response.status_code == expected, response.json()
    assert Ruling.objects.count() == (1 if expected == 201 else 0)
    if role == "player":
        assert Ruling.objects.get().claimed_by_player == pairs[1].first_player


@pytest.mark.parametrize("role,expected", [("organizer", 200), ("referee", 200), ("other_referee", 403),
                                           ("player", 403), ("other_player", 403), ("anonymous", 403)])
def test_confirm(role, expected, as_role, match, referee, pairs):
    ruling = proposed(match, referee)
    response = as_role(role).post(f"/api/referee/rulings/{ruling.pk}/confirm/", player_fields(role, pairs),
                                  content_type="application/json")
    assert response.status_code == expected
    assert len(penalties(match)) == (1 if expected == 200 else 0)
    if expected == 200:
        assert response.json()["status"] == "confirmed" and penalties(match)[0]["article"] == "art. 24"


@pytest.mark.parametrize("role,expected", [("organizer", 200), ("referee", 200), ("other_referee", 403),
                                           ("player", 403), ("other_player", 403), ("anonymous", 403)])
def test_escalate(role, expected, as_role, match, referee):
    ruling = services.propose(match, 1, 0, "not_covered", {"description": "Celular tocou"}, referee)
    response = as_role(role).post(f"/api/referee/rulings/{ruling.pk}/escalate/", {"reason": "art. 26"},
                                  content_type="application/json")
    assert response.status_code == expected
    ruling.refresh_from_db()
    assert ruling.status == ("escalated" if expected == 200 else "proposed")


@pytest.mark.parametrize("role,expected", [("organizer", 200), ("referee", 403), ("other_referee", 403),
                                           ("player", 403), ("other_player", 403), ("anonymous", 403)])
def test_decide_escalated(role, expected, as_role, match, referee):
    ruling = services.propose(match, 1, 0, "not_covered", {"description": "Celular tocou"}, referee)
    services.escalate(ruling, referee, "Caso omisso")
    response = as_role(role).post(f"/api/referee/rulings/{ruling.pk}/decide/",
                                  {"points": 1, "beneficiary": 1, "reason": "Um tento (art. 26)"},
                                  content_type="application/json")
    assert response.status_code == expected
    assert [e["article"] for e in penalties(match)] == (["art. 26"] if expected == 200 else [])


@pytest.mark.parametrize("role,expected", [("organizer", 403), ("referee", 403), ("other_referee", 403),
                                           ("player", 201), ("other_player", 403), ("anonymous", 403)])
def test_appeal(role, expected, as_role, match, referee, pairs):
    ruling = services.confirm(services.propose(match, 0, 1, "guidance_word", {}, referee), referee)
    body = {"team": 1, "reason": "Não houve orientação", "player": pairs[1].first_player.pk,
            "pin": PINS["Caio Reis"]}
    if role != "player":  # logins do not identify a player: only the pair's own PIN does
        body.update(player_fields(role, pairs) or {"pin": "9999"})
    response = as_role(role).post(f"/api/referee/rulings/{ruling.pk}/appeals/", body,
                                  content_type="application/json")
    assert response.status_code == expected, response.json()
    assert Appeal.objects.count() == (1 if expected == 201 else 0)


@pytest.mark.parametrize("role,expected", [("organizer", 200), ("referee", 403), ("other_referee", 403),
                                           ("player", 403), ("other_player", 403), ("anonymous", 403)])
def test_decide_appeal(role, expected, as_role, match, referee, pairs):
    ruling = services.confirm(proposed(match, referee), referee)
    appeal = appeals.appeal(ruling, 0, pairs[0].first_player, pin=PINS["Ana Souza"], reason="Injusto")
    response = as_role(role).post(f"/api/referee/appeals/{appeal.pk}/decision/",
                                  {"decision": "overturned", "reason": "Não houve orientação"},
                                  content_type="application/json")
    assert response.status_code == expected
    assert len(penalties(match)) == (0 if expected == 200 else 1)


@pytest.mark.parametrize("role,expected", [("organizer", 200), ("referee", 403), ("other_referee", 403),
                                           ("player", 403), ("other_player", 403), ("anonymous", 403)])
def test_escalation_policy_and_settings(role, expected, as_role, tournament):
    client = as_role(role)
    response = client.put(f"/api/referee/tournaments/{tournament.slug}/escalation-policies/",
                          {"code": "guidance_word", "steps": ["warning", "tento", "match_loss"]},
                          content_type="application/json")
    assert response.status_code == expected
    assert EscalationPolicy.objects.count() == (1 if expected == 200 else 0)
    response = client.put(f"/api/referee/tournaments/{tournament.slug}/settings/", {"appeal_window_minutes": 15},
                          content_type="application/json")
    assert response.status_code == expected
    window = Client().get(f"/api/referee/tournaments/{tournament.slug}/settings/").json()["appeal_window_minutes"]
    assert window == (15 if expected == 200 else 30)


def test_the_referee_assigned_to_the_table_rules(match, other_referee, tournament, organizer):
    """TableAssignment: the referee of table 7 in this round rules on its match."""
    assert not services.can_rule(other_referee, match)
    f.referee_of(tournament, other_referee)
    tournament_services.assign_referee(tournament, organizer, table=match.table, referee=other_referee,
                                       round=match.round)
    match.refresh_from_db()
    assert services.can_rule(other_referee, match)


def test_pair_history_and_ruling_detail(match, referee, pairs):
    ruling = services.confirm(proposed(match, referee), referee)
    rows = Client().get(f"/api/referee/pairs/{pairs[0].pk}/history/").json()
    assert [r["id"] for r in rows] == [ruling.pk]
    assert Client().get(f"/api/referee/rulings/{ruling.pk}/").json()["status"] == "confirmed"


def test_bad_input_is_400_with_the_field(as_role, match):
    response = as_role("referee").post(f"/api/referee/matches/{match.pk}/rulings/",
                                       {"claimant_team": 1, "offender_seat": 0, "code": "guidance_word",
                                        "facts": {"value": 4}}, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["field"] == "facts.value"


def test_the_schema_lists_the_rulings_endpoints():
    paths = Client().get("/api/schema/?format=json").json()["paths"]
    for path in ("/api/referee/catalog/", "/api/referee/matches/{id}/rulings/", "/api/referee/rulings/{id}/confirm/",
                 "/api/referee/rulings/{id}/escalate/", "/api/referee/rulings/{id}/decide/",
                 "/api/referee/rulings/{id}/appeals/", "/api/referee/appeals/{id}/decision/",
                 "/api/referee/pairs/{id}/history/", "/api/referee/tournaments/{slug}/escalation-policies/",
                 "/api/referee/tournaments/{slug}/settings/"):
        assert path in paths, path


def test_admin_lists_rulings_read_only(match, referee, settings):
    from django.contrib.auth import get_user_model

    proposed(match, referee)
    admin_user = get_user_model().objects.create_superuser("admin-regras", password="x")
    client = Client()
    client.force_login(admin_user)
    for model in ("ruling", "appeal", "escalationpolicy", "refereesettings"):
        assert client.get(f"/admin/referee/{model}/").status_code == 200
    assert client.get("/admin/referee/ruling/add/").status_code == 403


@pytest.mark.parametrize("role,expected", [("organizer", 200), ("referee", 200), ("other_referee", 403),
                                           ("anonymous", 401)])
def test_the_hand_validator_is_for_referees_and_organizers(role, expected, as_role, match, other_referee):
    """Validation messages are shown to the referee only: they can reveal hidden cards. A user who
    referees no match or table (here ``other_referee``, before any assignment) is refused."""
    report = {"dealer": 3, "vira": "4-ouros", "events": []}
    response = as_role(role).post("/api/referee/hands/validate/", report, content_type="application/json")
    assert response.status_code == expected
