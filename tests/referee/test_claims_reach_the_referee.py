"""A claim filed at a table reaches the referee: it is listed on "Minhas mesas" with the
calls, counted in the header's badge, and the referee confirms it (art. 24: it goes on the súmula) or
rejects it with a reason (nothing on the súmula, the reason shown with the ruling). The page notices
new calls and claims by a poll of a few bytes instead of reloading every 20 s."""
from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from config.errors import Conflict, Forbidden, ServiceError
from referee import roles, services
from referee.models import Ruling

from .rulings_setup import *  # noqa: F401,F403
from .rulings_setup import PINS, penalties

pytestmark = pytest.mark.django_db


def claim_by_players(match):
    """Pair B's player claims the tento of art. 24 (guidance word by seat 0) with their PIN."""
    player = match.pair_b.first_player
    return services.propose(match, 1, 0, "guidance_word", {"value": 1}, None, player=player,
                            pin=PINS[player.name])


def test_a_claim_filed_at_the_table_is_on_the_referees_page_and_badge(client, match, referee):
    ruling = claim_by_players(match)
    assert ruling.status == "proposed"
    assert [r.pk for r in services.claims_waiting_for(referee)] == [ruling.pk]
    assert roles._summary(referee).calling == 1
    client.force_login(referee)
    page = client.get(reverse("referee:tables")).content.decode()
    assert f'data-ruling="{ruling.pk}"' in page and "art. 24" in page
    assert reverse("referee:answer-claim", kwargs={"pk": ruling.pk}) in page
    waiting = client.get(reverse("referee:waiting")).json()
    assert waiting["count"] == 1 and f"r{ruling.pk}" in waiting["mark"]


def test_the_referee_confirms_a_claim_from_the_list_art_24(client, match, referee):
    ruling = claim_by_players(match)
    client.force_login(referee)
    response = client.post(reverse("referee:answer-claim", kwargs={"pk": ruling.pk}), {"action": "confirm"})
    assert response.status_code == 302
    ruling.refresh_from_db()
    assert ruling.status == "confirmed"
    [entry] = penalties(match)
    assert entry["article"] == "art. 24" and entry["ruling"] == ruling.pk
    assert list(services.claims_waiting_for(referee)) == []


def test_the_referee_rejects_an_unfounded_claim_with_a_reason(client, match, referee):
    ruling = claim_by_players(match)
    client.force_login(referee)
    url = reverse("referee:answer-claim", kwargs={"pk": ruling.pk})
    client.post(url, {"action": "reject", "reason": ""})  # a reason is required: nothing changes
    ruling.refresh_from_db()
    assert ruling.status == "proposed"
    client.post(url, {"action": "reject", "reason": "Ninguém ouviu a palavra."})
    ruling.refresh_from_db()
    assert ruling.status == "rejected" and ruling.rejection_reason == "Ninguém ouviu a palavra."
    assert ruling.rejected_by == referee and ruling.rejected_at is not None
    assert penalties(match) == []  # nothing on the súmula
    assert list(services.claims_waiting_for(referee)) == [] and roles._summary(referee).calling == 0
    history = client.get(reverse("referee:pair-history", kwargs={"pk": match.pair_b_id})).content.decode()
    assert "Ninguém ouviu a palavra." in history
    with pytest.raises(Conflict):  # a rejected claim is not confirmed afterwards
        services.confirm(ruling, referee)


def test_only_the_matchs_referee_or_organizer_rejects(match, referee, outsider, organizer):
    ruling = claim_by_players(match)
    with pytest.raises(Forbidden):
        services.reject(ruling, outsider, "no")
    assert list(services.claims_waiting_for(outsider)) == []
    with pytest.raises(ServiceError) as error:
        services.reject(ruling, organizer, "   ")
    assert error.value.field == "reason"
    services.reject(ruling, organizer, "Infundado.")
    with pytest.raises(Conflict):
        services.reject(ruling, referee, "de novo")


def test_reject_through_the_api(match, referee):
    ruling = claim_by_players(match)
    api = APIClient()
    api.force_authenticate(referee)
    url = f"/api/referee/rulings/{ruling.pk}/reject/"
    assert api.post(url, {}, format="json").status_code == 400
    response = api.post(url, {"reason": "Infundado."}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["status"] == "rejected" and response.json()["rejection_reason"] == "Infundado."
    assert api.post(url, {"reason": "de novo"}, format="json").status_code == 409
    assert Ruling.objects.get(pk=ruling.pk).status == "rejected"


def test_the_waiting_poll_needs_a_login_and_costs_little(client, match, referee, django_assert_max_num_queries):
    assert client.get(reverse("referee:waiting")).status_code == 401
    client.force_login(referee)
    with django_assert_max_num_queries(5):  # session, user, calls, claims, conflicts
        response = client.get(reverse("referee:waiting"))
    assert response.json() == {"mark": "c;r;x", "count": 0} and response["Cache-Control"] == "no-store"
