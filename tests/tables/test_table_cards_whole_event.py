"""A card per physical table for the whole event: its link always opens the match
assigned to that table now, the next one when the round changes, "no match at this table now" in
between; a W.O. or a received súmula is closed to entries; the organizer revokes and reissues it; the
round's table cards PDF prints the same card for the table in every round."""
from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring import services as scoring
from tables import links as table_links
from scoring.models import HandEntry, Match
from tournaments import services
from tables import cards as table_cards
from tournaments.models import Round
from tables.models import TableCard
from tests.scoring.sumula_setup import *  # noqa: F401,F403
from tests.qr import qr_codes as read_qr_codes


def qr_codes(data: bytes, tmp_path) -> set[str]:
    return read_qr_codes(data, tmp_path, dpi=120)


@pytest.fixture
def next_match(match, pairs, organizer, referee, tournament):
    """The match of the next round at the same table (7)."""
    rnd = Round.objects.create(tournament=tournament, number=3)
    return scoring.create_match(pair_a=pairs[2], pair_b=pairs[0], tournament=tournament, round=rnd, table=7,
                                referee=referee, by=organizer)


def card_of(tournament, table=7) -> TableCard:
    return table_cards.ensure_cards(tournament, [table])[table]


def state(card) -> dict:
    response = Client().get(f"/mesa/{card.token}/estado/")
    assert response.status_code == 200
    return response.json()


def receive(match, referee, organizer):
    play(match, referee, 0, 0, 0, 0)
    scoring.sign(match, "team0", match.pair_a.first_player, pin=PINS["Ana Souza"])
    scoring.sign(match, "team1", match.pair_b.first_player, pin=PINS["Caio Reis"])
    scoring.countersign(match, referee)
    scoring.mark_received(match, organizer)


def test_one_card_follows_the_table_across_two_rounds(match, next_match, tournament, referee, organizer):
    card = card_of(tournament)
    page = Client().get(f"/mesa/{card.token}/")
    assert page.status_code == 200 and f'"match": {match.pk}' in page.content.decode()
    first = state(card)
    assert first["match"] == match.pk and first["card"]["table"] == 7
    # the page enters hands with the match's own link, which its boot carries
    link = table_links.ensure_links([match])[match.pk]
    assert f'"token": "{link.token}"' in page.content.decode()
    receive(match, referee, organizer)
    assert state(card)["match"] == next_match.pk  # the next round's match at the same table
    assert f'"match": {next_match.pk}' in Client().get(f"/mesa/{card.token}/").content.decode()


def test_between_rounds_the_card_says_no_match_at_this_table_now(match, tournament, referee, organizer):
    card = card_of(tournament)
    receive(match, referee, organizer)
    page = Client().get(f"/mesa/{card.token}/")
    assert page.status_code == 200 and page["Refresh"] == "30"
    body = state(card)
    assert body["match"] is None and body["card"]["table"] == 7 and "7" in body["idle"]
    assert body["idle"] in page.content.decode()
    assert Client().post(f"/mesa/{card.token}/pin/", "{}", content_type="application/json").status_code == 409


def test_a_walkover_closes_the_match_to_its_card_and_to_its_own_link(match, next_match, tournament, organizer):
    card = card_of(tournament)
    old_link = table_links.ensure_links([match])[match.pk]
    services.record_walkover(match, match.pair_b, organizer, reason="Não compareceu")
    assert state(card)["match"] == next_match.pk  # the W.O. is not the table's match any more
    closed = Client().get(f"/mesa/{old_link.token}/")   # the match's own link is closed, and says why
    assert closed.status_code == 410 and "art. 26" in closed.content.decode()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {old_link.token}")
    response = api.post(f"/api/scoring/matches/{match.pk}/hands/", {"winner": 0, "ended_by": "tricks", "value": 3},
                        format="json")
    assert response.status_code in (401, 403) and HandEntry.objects.count() == 0


def test_the_organizer_revokes_and_reissues_a_card(client, match, tournament, organizer, referee):
    card = card_of(tournament)
    url = reverse("tournaments:table-card", kwargs={"slug": tournament.slug, "table": 7})
    client.force_login(referee)
    assert client.post(url, {"action": "revoke"}).status_code == 403
    client.force_login(organizer)
    assert client.post(url, {"action": "reissue", "next": "/"}).status_code == 302
    assert Client().get(f"/mesa/{card.token}/").status_code == 404
    new = TableCard.objects.get(tournament=tournament, table=7, revoked_at__isnull=True)
    assert new.token != card.token and state(new)["match"] == match.pk
    client.post(url, {"action": "revoke"})
    assert Client().get(f"/mesa/{new.token}/").status_code == 404
    assert not TableCard.objects.filter(tournament=tournament, revoked_at__isnull=True).exists()


def test_the_round_cards_of_two_rounds_print_the_same_table_card(client, match, next_match, tournament, organizer,
                                                                 settings, tmp_path):
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False
    client.force_login(organizer)
    printed = []
    for rnd in (match.round_id, next_match.round_id):
        response = client.get(f"/sumulas/impressao/rodada/{rnd}/cartoes-de-mesa.pdf")
        assert response.status_code == 200
        (tmp_path / str(rnd)).mkdir()
        printed.append(qr_codes(response.content, tmp_path / str(rnd)))
    card = TableCard.objects.get(tournament=tournament, table=7, revoked_at__isnull=True)
    assert printed[0] == printed[1] == {f"http://testserver/mesa/{card.token}/"}
    Round.objects.filter(pk=match.round_id).update(generated_at=match.created_at)
    page = client.get(f"/torneios/{tournament.slug}/rodadas/{match.round.number}/")
    assert page.status_code == 200  # the round page lists the table's card beside its match, to revoke or reissue
    assert card.token[-12:] in page.content.decode()
    assert reverse("tournaments:table-card", kwargs={"slug": tournament.slug, "table": 7}) in page.content.decode()
    assert Match.objects.get(pk=match.pk).status == Match.Status.OPEN


def test_an_organizers_result_closes_the_match_like_a_walkover(match, next_match, tournament, organizer):
    card = card_of(tournament)
    old_link = table_links.ensure_links([match])[match.pk]
    services.set_result(match, organizer, winner=match.pair_a, games=[1, 0], reason="Súmula perdida (art. 26)")
    assert state(card)["match"] == next_match.pk
    assert Client().get(f"/mesa/{old_link.token}/").status_code == 404
