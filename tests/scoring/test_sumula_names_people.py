"""The legal record names people: a ruling on the súmula, the claim's confirmation, the organizer's
list of appeals and decisions, the table's rulings and the signed súmula (page and PDF) name the
offender by name and pair ("Caio Reis, da dupla Copas"), never by seat ("assento 1"); the súmula's heading
gives the tournament's number for the match or none, never its database id ("Jogo 12")."""
from __future__ import annotations

import re
import subprocess

import pytest
from django.urls import reverse

from referee import appeals as referee_appeals
from referee import services as referee_services
from referee.engine import messages as engine_words
from scoring import services
from tables import links as table_links
from scoring.models import Match
from scoring.words import engine_messages
from tests.scoring.sumula_setup import *  # noqa: F401,F403 (fixtures)
from tests.scoring.sumula_setup import PINS, play

pytestmark = pytest.mark.django_db


def _text(pdf: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()


@pytest.fixture
def ruled(match, referee, organizer, pairs, client):
    """A claim by the Zaps against Caio Reis (seat 1) confirmed by the referee through the claim page,
    appealed by Copas and upheld by the organizer; a case not covered against Duda Melo (seat 3) decided
    by the organizer; then the match played to its end, signed and received."""
    client.force_login(referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    proposal = referee_services.propose(match, 0, 1, "guidance_word", {"value": 1}, referee)
    asked = client.get(url, {"claimant": 0, "code": "guidance_word", "ruling": proposal.pk}).content.decode()
    response = client.post(url, {"action": "confirm", "ruling": proposal.pk}, follow=True)
    confirmation = asked + " ".join(str(m) for m in response.context["messages"]) + response.content.decode()
    ruling = type(proposal).objects.get(pk=proposal.pk)
    appeal = referee_appeals.appeal(ruling, 1, pairs[1].first_player, pin=PINS["Caio Reis"], reason="Não falei")
    other = referee_services.propose(match, 0, 3, "not_covered", {"description": "Celular tocando"}, referee)
    referee_services.escalate(other, referee, "Celular tocando")
    client.force_login(organizer)
    pending = client.get(reverse("referee:review")).content.decode()  # the appeal and the case, to decide
    client.post(reverse("referee:decide-appeal", kwargs={"pk": appeal.pk}), {"decision": "upheld", "reason": "Vi"})
    client.post(reverse("referee:decide-ruling", kwargs={"pk": other.pk}),
                {"points": "1", "beneficiary": "0", "reason": "Regra da casa"})
    play(match, referee, 0, 0, 0, 0)
    services.sign(match, "team0", match.pair_a.first_player, pin=PINS["Ana Souza"])
    services.sign(match, "team1", match.pair_b.second_player, pin=PINS["Duda Melo"])
    services.countersign(match, referee)
    return {"confirmation": confirmation, "pending": pending, "match": Match.objects.get(pk=match.pk)}


def test_a_ruling_names_the_offender_by_name_and_pair(match):
    data = {"key": "ruling", "params": {"what": "Palavra de orientação", "seat": 1,
                                        "consequence": {"key": "consequence.tento", "params": {"offender": 1,
                                                                                                "points": 1}}}}
    text = engine_messages.render_stored(data, "", match, "pt-br")
    assert text.startswith("Palavra de orientação (Caio Reis, da dupla Copas): ") and "assento" not in text
    english = engine_messages.render_stored(data, "", match, "en")
    assert "(Caio Reis, Copas)" in english and "seat" not in english
    late = engine_messages.render({"key": "card_out_of_turn", "params": {"seat": 2, "turn": 3}}, match, "pt-br")
    assert late.startswith("Beto Lima (dos Zaps) jogou fora da vez (a vez era de Duda Melo (da dupla Copas))")
    # the engine alone (check_hand, no names) still speaks of seats
    assert engine_words.render("ruling.recorded", {"what": "X", "seat": 1}) == "X (assento 1)"


def test_the_claim_the_appeals_the_table_and_the_sumula_never_say_assento(client, ruled, organizer, referee,
                                                                          pairs):
    match = ruled["match"]
    confirmation = ruled["confirmation"]
    assert "assento" not in confirmation, re.findall(r".{80}assento.{40}", confirmation)
    client.force_login(organizer)
    pages = {
        "review": client.get(reverse("referee:review")),
        "history": client.get(reverse("referee:pair-history", kwargs={"pk": pairs[1].pk})),
        "sumula": client.get(reverse("scoring:match", kwargs={"pk": match.pk})),
        "table": client.get(reverse("table:state", kwargs={"token": table_links.ensure_links([match])[match.pk]
                                                           .token})),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert "assento" not in response.content.decode(), name
    pending = ruled["pending"]
    assert "assento" not in pending and "Caio Reis" in pending and "Duda Melo, da dupla Copas" in pending
    assert "Caio Reis, da dupla Copas" in pages["sumula"].content.decode()
    assert "Duda Melo, da dupla Copas" in pages["history"].content.decode()  # the decided case, by name
    pdf = client.get(reverse("printing:match-filled", kwargs={"pk": match.pk}))
    text = _text(pdf.content)
    assert "assento" not in text and "Caio Reis" in text
    assert not re.search(rf"Jogo\s+{match.pk}\b", text)  # no database id as the match's number
    services.mark_received(match, organizer)
    signed = _text(client.get(reverse("printing:match-filled", kwargs={"pk": match.pk})).content)
    assert "assento" not in signed and not re.search(rf"Jogo\s+{match.pk}\b", signed)


def test_the_pdf_heading_never_shows_the_database_id(client, organizer, match, referee):
    from printing import jobs as printing

    play(match, referee, 0, 0, 0, 0)
    text = _text(printing.match_pdf(match, "filled"))
    assert not re.search(rf"Jogo\s+{match.pk}\b", text) and "Mesa 7" in text
