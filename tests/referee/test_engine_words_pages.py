"""The engine's sentences name the pairs where people read them: the hand checker's
verdict, a ruling on the claim page, the súmula and its PDF, the rulings API and the table page, a
hand entry the engine refuses. Pair A is "Os Zaps" (plural: "os Zaps perdem"), pair B "Copas" (no
article: "a dupla Copas perde")."""
from __future__ import annotations

import json

import pytest
from django.urls import reverse

from config.errors import ServiceError
from referee import services as referee_services
from scoring import services as scoring
from tables import links as table_links
from scoring.pdf_sheets import filled_context
from scoring.content import sumula_document
from tests.referee.rulings_setup import *  # noqa: F401,F403 (fixtures)
from tests.scoring.sumula_setup import three

from .hands import report

pytestmark = pytest.mark.django_db


def _ruling_against(match, referee, seat: int):
    scoring.record_hand(match, three(0), referee)
    ruling = referee_services.propose(match, 1 - (seat & 1), seat, "guidance_word", {"value": 3}, referee)
    return referee_services.confirm(ruling, referee)


def test_the_hand_checker_names_the_pairs_with_agreement(client, match, referee):
    client.force_login(referee)
    hand = report("4-ouros", "0 !truco", "1 =accept", "2 !seis", "3 =accept", "0 3-espadas", "1 K-ouros",
                  "2 6-copas", "3 J-paus", dealer=3, claimed={"winner": 1, "points": 1})
    html = client.post(reverse("referee:check-hand", kwargs={"pk": match.pk}),
                       {"source": "paste", "report": json.dumps(hand)}).content.decode()
    assert "Os Zaps fizeram a última provocação" in html
    assert "a mesa anotou 1 ponto para a dupla Copas" in html
    assert "dupla 0" not in html and "dupla 1 " not in html and "ponto(s)" not in html


@pytest.mark.parametrize(("seat", "expected"), [(0, "os Zaps perdem o tento em jogo (3)"),
                                                (1, "a dupla Copas perde o tento em jogo (3)")])
def test_a_ruling_names_the_offender_on_the_sumula_the_pdf_and_the_api(client, match, referee, seat, expected):
    ruling = _ruling_against(match, referee, seat)
    assert "dupla %d perde" % (seat & 1) in ruling.message  # stored as the engine says it
    client.force_login(referee)
    assert expected in client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    document = sumula_document(match)
    reasons = [row["reason"] for game in filled_context(document)["games"] for row in game["rows"]
               if row.get("penalty")]
    assert any(expected in reason for reason in reasons)
    api = client.get(reverse("referee-match-rulings", kwargs={"pk": match.pk})).json()
    assert expected in api[0]["message"]


def test_the_table_page_lists_rulings_with_the_pairs_named(client, match, referee):
    _ruling_against(match, referee, 0)
    link = table_links.ensure_links([match])[match.pk]
    state = client.get(reverse("table:state", kwargs={"token": link.token})).json()
    assert "os Zaps perdem o tento em jogo" in state["rulings"][0]["message"]


def test_a_hand_the_engine_refuses_names_the_pairs(client, match, referee):
    for hand in (three(0), three(0), three(0), {"winner": 0, "ended_by": "tricks", "value": 1},
                 {"winner": 0, "ended_by": "tricks", "value": 1}):  # 11-0: the mão de onze
        scoring.record_hand(match, hand, referee)
    refused = {"winner": 0, "ended_by": "eleven_refused", "value": 1}
    with pytest.raises(ServiceError) as caught:
        scoring.record_hand(match, refused, referee)
    assert "quem corre da mão de onze são os Zaps: marca a dupla Copas" in caught.value.message
    client.force_login(referee)
    api = client.post(reverse("scoring-api:hand", kwargs={"pk": match.pk}), refused,
                      content_type="application/json")
    assert api.status_code == 400 and "são os Zaps" in api.json()["error"]["message"]


def test_a_ruling_and_its_penalty_are_stored_as_data_and_rendered_in_english(client, match, referee):
    """The ruling's message and its penalty's reason are data (key and params), rendered in the
    reader's language with the pairs' names; nothing is read back from a Portuguese sentence."""
    from django.utils import translation

    from scoring.models import PenaltyEntry
    from scoring.words.engine_messages import render_stored

    ruling = _ruling_against(match, referee, 0)
    assert ruling.message_data["key"] == "ruling"
    assert ruling.message_data["params"]["consequence"]["params"]["offender"] == 0
    penalty = PenaltyEntry.objects.get(ruling_id=ruling.pk)
    assert penalty.reason_data == ruling.message_data
    assert sumula_document(match)["games"][0]["entries"][-1]["reason_data"] == ruling.message_data
    with translation.override("en"):
        english = render_stored(penalty.reason_data, penalty.reason, match)
        reasons = [row["reason"] for game in filled_context(sumula_document(match))["games"]
                   for row in game["rows"] if row.get("penalty")]
    assert "the Zaps lose the tento in play (3)" in english and "(Ana Souza, the Zaps)" in english and "seat" not in english
    assert any("the Zaps lose the tento in play" in reason for reason in reasons)


def test_a_ruling_recorded_before_messages_were_data_shows_its_text_as_written(client, match, referee):
    ruling = _ruling_against(match, referee, 1)
    type(ruling).objects.filter(pk=ruling.pk).update(message_data={}, message="Palavra (assento 1): texto antigo")
    client.force_login(referee)
    api = client.get(reverse("referee-match-rulings", kwargs={"pk": match.pk})).json()
    assert api[0]["message"] == "Palavra (assento 1): texto antigo" and api[0]["message_data"] == {}
