"""The hand checker's form: a hand entered with selects, no JSON; messages name the
form's field in Portuguese; pasted JSON still works for integrations, with a Portuguese error."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.scoring.sumula_setup import *  # noqa: F401,F403 (fixtures)

pytestmark = pytest.mark.django_db

PLAIN = {
    "dealer": "3", "vira": "4-ouros", "score_a": "4", "score_b": "6",
    "ev_seat_0": "0", "ev_action_0": "play", "ev_card_0": "3-espadas",
    "ev_seat_1": "1", "ev_action_1": "play", "ev_card_1": "K-ouros",
    "ev_seat_2": "2", "ev_action_2": "play", "ev_card_2": "6-copas",
    "ev_seat_3": "3", "ev_action_3": "play", "ev_card_3": "J-paus",
    "ev_seat_4": "0", "ev_action_4": "play", "ev_card_4": "2-copas",
    "ev_seat_5": "1", "ev_action_5": "play", "ev_card_5": "7-copas",
    "ev_seat_6": "2", "ev_action_6": "play", "ev_card_6": "A-espadas",
    "ev_seat_7": "3", "ev_action_7": "play", "ev_card_7": "7-espadas",
}


def test_a_hand_entered_in_the_form_gets_the_engines_verdict(client, match, referee):
    client.force_login(referee)
    url = reverse("referee:check-hand", kwargs={"pk": match.pk})
    page = client.get(url).content.decode()
    assert 'data-testid="hand-form"' in page and match.pair_a.first_player.name in page
    response = client.post(url, {"source": "form", **PLAIN, "claimed_winner": "1", "claimed_points": "1"})
    html = response.content.decode()
    assert response.status_code == 200
    assert f"{match.pair_a.name} marcam 1" in html  # "Os Zaps": plural name, plural verb
    assert "5–6" in html  # 4–6 → 5–6
    assert "Mesa" in html  # the difference against what the table recorded
    assert "assento" not in html


def test_a_missing_field_is_named_in_words(client, match, referee):
    client.force_login(referee)
    url = reverse("referee:check-hand", kwargs={"pk": match.pk})
    response = client.post(url, {"source": "form", **PLAIN, "vira": ""})
    assert response.status_code == 400 and "Vira:" in response.content.decode()
    response = client.post(url, {"source": "form", **PLAIN, "ev_card_2": ""})
    assert response.status_code == 400 and "Lance 3:" in response.content.decode()


def test_bad_json_is_explained_in_portuguese_with_the_line(client, match, referee):
    client.force_login(referee)
    url = reverse("referee:check-hand", kwargs={"pk": match.pk})
    html = client.post(url, {"source": "paste", "report": '{"dealer": 1,\n "vira" 2}'}).content.decode()
    assert "não é um JSON válido (linha 2, coluna" in html
    assert "Expecting" not in html


def test_a_pin_error_names_the_field_not_its_code(client, match, referee):
    from scoring.words.field_words import page_message

    assert page_message("PIN errado.", "pin") == "PIN: PIN errado."
    assert page_message("x", "report.events[3].play") == "Jogadas e pedidos: x"
    assert "[" not in page_message("x", "expect")


def test_the_infractions_are_ordered_by_use_and_can_be_filtered(client, match, referee):
    from referee import services as referee_services

    for _ in range(2):
        referee_services.propose(match, 0, 1, "card_out_of_turn", {}, referee)
    client.force_login(referee)
    html = client.get(reverse("referee:claim", kwargs={"pk": match.pk}), {"claimant": "0"}).content.decode()
    assert 'id="infraction-filter"' in html and 'data-search="art. 23' in html
    first = html.index('name="code" value="')
    assert 'value="card_out_of_turn"' in html[first:first + 40]


def test_the_verification_page_speaks_words_not_codes(client, match, referee):
    from tests.scoring.sumula_setup import three
    from scoring import services as scoring

    scoring.record_hand(match, three(0), referee)
    client.force_login(referee)
    html = client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    assert "pé assento" not in html and "regulamento-tecnico" not in html
    assert "Regulamento Técnico" in html or "regulamento técnico" in html.lower()
