"""The referee's and the organizer's words: an appeal answered with what was decided,
the offender named by player (not "(assento 1)"), a match the organizer decided listed as decided to
the referee (not "Aberta 0 – 0"), the match number never the database id, the referee's full name on
the dashboard, the verification code shortened with the whole of it one tap away."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.scoring.sumula_setup import *  # noqa: F401,F403 (fixtures)
from tournaments import services as tournament_services

pytestmark = pytest.mark.django_db


def _login(client, user):
    client.force_login(user)
    return client


def test_an_appeal_is_answered_with_what_was_decided_and_the_offender_is_named(client, match, referee,
                                                                               organizer, pairs):
    from referee import appeals as referee_appeals
    from referee import services as referee_services

    ruling = referee_services.confirm(referee_services.propose(match, 0, 1, "guidance_word", {"value": 1}, referee),
                                      referee)
    html = _login(client, referee).get(reverse("referee:pair-history", kwargs={"pk": pairs[1].pk})).content.decode()
    assert f"({match.pair_b.first_player.name})" in html and "assento" not in html  # seat 1: pair B's first
    appeal = referee_appeals.appeal(ruling, 1, pairs[1].first_player, pin="3333", reason="Não falou nada")
    response = _login(client, organizer).post(reverse("referee:decide-appeal", kwargs={"pk": appeal.pk}),
                                              {"decision": "upheld", "reason": "Testemunhas"}, follow=True)
    text = " ".join(str(m) for m in response.context["messages"])
    assert "a decisão do árbitro foi mantida; a súmula não muda" in text and "Mantida." not in text


def test_a_match_the_organizer_decided_is_not_open_to_the_referee(client, match, referee, organizer):
    tournament_services.set_result(match, organizer, winner=match.pair_a_id, games=[1, 0], points=[12, 4],
                                   reason="súmula de papel")
    html = _login(client, referee).get(reverse("referee:tables")).content.decode()
    assert "Jogos decididos" in html and "resultado lançado pelo organizador (art. 26)" in html
    assert f'data-match="{match.pk}"' not in html  # no open card for it
    assert f"Jogo {match.pk}" not in html  # the database id is no match number (art. 25's súmula neither)


def test_the_sumula_shows_a_short_verification_code_and_the_whole_on_demand(client, match, organizer):
    from tests.scoring.sumula_setup import play

    play(match, organizer, 0, 0, 0, 0)  # 12-0: over, a version to sign
    html = _login(client, organizer).get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    short = html.split('data-testid="short-digest">', 1)[1].split("<", 1)[0]
    assert len(short) == 13 and short.endswith("…")
    assert "Ver o código de verificação inteiro" in html


def test_the_claim_page_names_the_players_not_their_seats(client, match, referee):
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    html = _login(client, referee).get(url, {"claimant": "0", "code": "guidance_word"}).content.decode()
    assert "Caio Reis" in html and 'name="seat" value="1"' in html and "assento" not in html  # who, by name
