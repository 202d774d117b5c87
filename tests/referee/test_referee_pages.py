"""The referee pages (/arbitragem/): who may open them, the three-tap claim of a tento, the hand
checker. Fixtures come from the súmula tests (an organizer, a referee, an outsider, a match)."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring import services as scoring
from tests.tournaments import factories as f
from tournaments import services as tournament_services
from tests.scoring.sumula_setup import *  # noqa: F401,F403 (fixtures)
from tests.scoring.sumula_setup import three
from tournaments.models import Round

from referee.models import Ruling
from scoring.models import PenaltyEntry

from .hands import report

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_referee(db):
    return get_user_model().objects.create_user("outro-arbitro", password="secret-other")


def _login(client, user):
    client.force_login(user)
    return client


def _pages(match):
    return [reverse("referee:check-hand", kwargs={"pk": match.pk}), reverse("referee:claim", kwargs={"pk": match.pk})]


# ----------------------------------------------------------------------------- permissions


def test_anonymous_goes_to_the_login_page(client, match):
    for url in [reverse("referee:tables"), *_pages(match)]:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/entrar/?next=")


def test_another_referee_is_refused(client, match, other_referee):
    _login(client, other_referee)
    for url in _pages(match):
        assert client.get(url).status_code == 403
        assert client.post(url, {"source": "paste", "report": "{}", "claimant": "0", "code": "guidance_word",
                                 "seat": "1"}).status_code == 403
    assert not Ruling.objects.exists()


def test_the_assigned_referee_and_the_organizer_get_the_pages(client, match, referee, organizer):
    for user in (referee, organizer):
        _login(client, user)
        for url in _pages(match):
            assert client.get(url).status_code == 200, (user, url)


# ----------------------------------------------------------------------------- my tables


def test_my_tables_lists_the_referees_matches_with_score_and_links(client, match, referee, other_referee):
    scoring.record_hand(match, three(0), referee)
    page = _login(client, referee).get(reverse("referee:tables"))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Os Zaps" in html and "Copas" in html
    assert "Mesa 7" in html
    assert "3 – 0" in html
    assert reverse("scoring:match", kwargs={"pk": match.pk}) in html
    assert reverse("referee:check-hand", kwargs={"pk": match.pk}) in html
    other = _login(client, other_referee).get(reverse("referee:tables")).content.decode()
    assert "Os Zaps" not in other


def test_a_table_assignment_brings_the_match_to_the_referee(client, pairs, organizer, tournament, other_referee):
    match = scoring.create_match(pair_a=pairs[0], pair_b=pairs[2], tournament=tournament, table=3, by=organizer)
    f.referee_of(tournament, other_referee)
    tournament_services.assign_referee(tournament, organizer, table=3, referee=other_referee)
    html = _login(client, other_referee).get(reverse("referee:tables")).content.decode()
    assert "Terceira" in html and f'data-match="{match.pk}"' in html
    rnd = Round.objects.create(tournament=tournament, number=5)
    later = scoring.create_match(pair_a=pairs[1], pair_b=pairs[2], tournament=tournament, round=rnd, table=3,
                                 by=organizer)
    tournament_services.assign_referee(tournament, organizer, table=3, referee=organizer, round=rnd)
    html = client.get(reverse("referee:tables")).content.decode()
    assert f'data-match="{later.pk}"' not in html  # this round's assignment wins over the every-round one


# ----------------------------------------------------------------------------- hand checker


PLAIN = {
    "dealer": 3, "vira": "4-ouros", "score": [0, 0],
    "deal": {"0": ["3-espadas", "2-copas", "4-paus"], "1": ["K-ouros", "7-copas", "6-paus"],
             "2": ["A-espadas", "Q-ouros", "6-copas"], "3": ["J-paus", "2-ouros", "7-espadas"]},
    "events": [{"seat": 0, "play": "3-espadas"}, {"seat": 1, "play": "K-ouros"}, {"seat": 2, "play": "6-copas"},
               {"seat": 3, "play": "J-paus"}, {"seat": 0, "play": "2-copas"}, {"seat": 1, "play": "7-copas"},
               {"seat": 2, "play": "A-espadas"}, {"seat": 3, "play": "7-espadas"}],
}


def test_checker_shows_the_verdict_and_the_difference_from_the_table(client, match, referee):
    pasted = {**PLAIN, "claimed": {"winner": 1, "points": 1}}
    page = _login(client, referee).post(reverse("referee:check-hand", kwargs={"pk": match.pk}),
                                         {"source": "paste", "report": json.dumps(pasted)})
    html = page.content.decode()
    assert page.status_code == 200
    assert "Os Zaps marcam 1" in html
    assert "art. 25" in html  # the claim mismatch, with its article
    assert 'class="doc differences"' in html


def test_checker_lists_violations_with_their_articles(client, match, referee):
    hand = report("4-ouros", "0 3-espadas*", "1 K-ouros", "2 6-copas", "3 J-paus", dealer=3)
    html = _login(client, referee).post(reverse("referee:check-hand", kwargs={"pk": match.pk}),
                                        {"source": "paste", "report": json.dumps(hand)}).content.decode()
    assert "art. 11.1" in html


def test_checker_checks_the_last_recorded_hand(client, match, referee):
    _login(client, referee)
    url = reverse("referee:check-hand", kwargs={"pk": match.pk})
    assert client.post(url, {"source": "last"}).status_code == 400  # nothing recorded with a report yet
    scoring.set_first_dealer(match, 3, referee)
    scoring.record_hand(match, {"report": PLAIN}, referee)
    assert "Verificar a última mão" in client.get(url).content.decode()
    html = client.post(url, {"source": "last"}).content.decode()
    assert "Os Zaps marcam 1" in html
    assert "Nenhuma diferença" in html


def test_checker_refuses_bad_json_and_hides_the_verdict_from_others(client, match, referee, outsider):
    url = reverse("referee:check-hand", kwargs={"pk": match.pk})
    page = _login(client, referee).post(url, {"source": "paste", "report": "{not json"})
    assert page.status_code == 400 and "JSON" in page.content.decode()
    page = _login(client, outsider).post(url, {"source": "paste", "report": json.dumps(PLAIN)})
    assert page.status_code == 403
    assert "3-espadas" not in page.content.decode() and "marca" not in page.content.decode()


# ----------------------------------------------------------------------------- claim in three taps


def test_a_tento_is_claimed_in_three_taps_then_confirmed_onto_the_sumula(client, match, referee):
    scoring.record_hand(match, three(0), referee)
    scoring.record_hand(match, three(1), referee)  # 3-3
    _login(client, referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    page = client.get(url).content.decode()  # tap 1: who claims
    assert 'name="claimant" value="0"' in page and "Os Zaps" in page and "Copas" in page
    page = client.get(url, {"claimant": "0"}).content.decode()  # tap 2: the infraction, with its article
    assert 'value="guidance_word"' in page and "art. 24" in page and "Palavra de orientação" in page
    assert 'value="not_covered"' in page and "art. 26" in page
    page = client.get(url, {"claimant": "0", "code": "guidance_word"}).content.decode()  # tap 3: the facts
    assert "Caio Reis" in page and 'name="seat" value="1"' in page and 'name="value"' in page
    response = client.post(url, {"claimant": "0", "code": "guidance_word", "value": "3", "seat": "1"})
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.status == "proposed" and ruling.article == "art. 24" and ruling.points == 3
    assert not PenaltyEntry.objects.exists()  # proposed: nothing on the súmula yet
    page = client.get(response["Location"]).content.decode()
    assert "art. 24" in page and "Os Zaps marcam 3 — 6 a 3" in page
    response = client.post(url, {"action": "confirm", "ruling": ruling.pk})
    assert response["Location"] == reverse("scoring:match", kwargs={"pk": match.pk})
    ruling.refresh_from_db()
    assert ruling.status == "confirmed"
    penalty = PenaltyEntry.objects.get()
    assert (penalty.article, penalty.points, penalty.beneficiary, penalty.ruling_id) == ("art. 24", 3, 0, ruling.pk)
    entry = client.get(response["Location"]).content.decode()
    assert "art. 24" in entry and "6–3" in entry


def test_the_art_6_outcome_is_asked_and_the_dealer_is_the_offender(client, match, referee):
    _login(client, referee)  # first hand: seat 0 deals, so pair B (team 1) claims
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    page = client.get(url, {"claimant": "1", "code": "wrong_card_count"}).content.decode()
    assert 'name="outcome" value="accepted"' in page and 'name="seat"' in page
    response = client.post(url, {"claimant": "1", "code": "wrong_card_count", "outcome": "accepted"})
    ruling = Ruling.objects.get()
    assert (ruling.offender_seat, ruling.points, ruling.beneficiary, ruling.article) == (0, 3, 1, "art. 6")
    assert "Copas marca 3 — 0 a 3" in client.get(response["Location"]).content.decode()


def test_a_claim_the_engine_refuses_is_explained_with_its_article(client, match, referee):
    _login(client, referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    page = client.post(url, {"claimant": "0", "code": "saw_partner_cards_eleven", "seat": "1", "value": "1"})
    assert page.status_code == 400
    assert "art. 18" in page.content.decode()
    assert not Ruling.objects.exists()


def test_a_case_not_covered_goes_to_the_organizer(client, match, referee):
    _login(client, referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    page = client.get(url, {"claimant": "0", "code": "not_covered"}).content.decode()
    assert "art. 26" in page and 'name="reason"' in page
    response = client.post(url, {"claimant": "0", "code": "not_covered", "seat": "1",
                                 "reason": "Celular tocou durante a mão"})
    assert response.status_code == 302
    ruling = Ruling.objects.get()
    assert ruling.status == "escalated" and ruling.article == "art. 26"
    assert not PenaltyEntry.objects.exists()


def test_the_organizer_may_claim_too(client, match, organizer):
    _login(client, organizer)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    client.post(url, {"claimant": "1", "code": "guidance_word", "seat": "0", "value": "1"})
    ruling = Ruling.objects.get()
    client.post(url, {"action": "confirm", "ruling": ruling.pk})
    assert PenaltyEntry.objects.get().beneficiary == 1


# ----------------------------------------------------------------------------- history and review


def _confirmed(match, referee, code="guidance_word", claimant=0, seat=1):
    from referee import services as referee_services

    ruling = referee_services.propose(match, claimant, seat, code, {"value": 1}, referee)
    return referee_services.confirm(ruling, referee)


def test_pair_history_lists_the_rulings_for_referees_and_organizer_only(client, match, referee, organizer,
                                                                         other_referee, pairs):
    _confirmed(match, referee)  # Copas (pair B) said a word of guidance
    url = reverse("referee:pair-history", kwargs={"pk": pairs[1].pk})
    assert client.get(url).status_code == 302
    assert _login(client, other_referee).get(url).status_code == 403
    for user in (referee, organizer):
        page = _login(client, user).get(url)
        html = page.content.decode()
        assert page.status_code == 200
        assert "art. 24" in html and "Contra a dupla" in html and "Os Zaps marcam 1" in html
        assert "As duplas podem recorrer até" in html


def test_the_organizer_decides_an_escalated_case_and_an_appeal(client, match, referee, organizer, pairs):
    from referee import appeals as referee_appeals
    from referee import services as referee_services
    from referee.models import Appeal

    url = reverse("referee:review")
    assert _login(client, referee).get(url).status_code == 403  # a referee does not review
    escalated = referee_services.propose(match, 0, 1, "not_covered", {"description": "Celular tocou"}, referee)
    referee_services.escalate(escalated, referee, "Celular tocou")
    html = _login(client, organizer).get(url).content.decode()
    assert "Celular tocou" in html and "art. 26" in html
    crumbs = html.split('class="crumbs"', 1)[1].split("</p>", 1)[0]  # the organizer's page, the organizer's words
    assert "Meus torneios" in crumbs and reverse("organizer-home") in crumbs and "Minhas mesas" not in crumbs
    response = client.post(reverse("referee:decide-ruling", kwargs={"pk": escalated.pk}),
                           {"beneficiary": "0", "points": "1", "reason": "Regra da casa do clube"})
    assert response.status_code == 302
    escalated.refresh_from_db()
    assert escalated.status == "confirmed" and escalated.points == 1
    assert PenaltyEntry.objects.get(ruling_id=escalated.pk).article == "art. 26"

    confirmed = _confirmed(match, referee)
    appeal = referee_appeals.appeal(confirmed, 1, pairs[1].first_player, pin="3333", reason="Não falou nada")
    html = client.get(url).content.decode()
    assert "Não falou nada" in html and f'id="appeal-{appeal.pk}"' in html
    client.post(reverse("referee:decide-appeal", kwargs={"pk": appeal.pk}),
                {"decision": "overturned", "reason": "Testemunhas confirmam"})
    appeal = Appeal.objects.get(pk=appeal.pk)
    assert appeal.decision == "overturned"
    assert not PenaltyEntry.objects.filter(ruling_id=confirmed.pk).exists()
    assert "Nenhum recurso aguarda" in client.get(url).content.decode()


def test_a_decision_without_reason_is_refused_with_a_message(client, match, referee, organizer):
    from referee import services as referee_services

    escalated = referee_services.propose(match, 0, 1, "not_covered", {"description": "Dúvida"}, referee)
    referee_services.escalate(escalated, referee, "Dúvida")
    _login(client, organizer)
    response = client.post(reverse("referee:decide-ruling", kwargs={"pk": escalated.pk}),
                           {"beneficiary": "0", "points": "1", "reason": ""}, follow=True)
    # the message names the field in words ("Motivo: …", never the code "[reason]")
    assert "Motivo: " in response.content.decode() and "[reason]" not in response.content.decode()
    escalated.refresh_from_db()
    assert escalated.status == "escalated"


def test_no_claim_once_the_match_is_over(client, match, referee):
    for _hand in range(4):
        scoring.record_hand(match, three(0), referee)  # 12-0: the match is decided
    response = _login(client, referee).get(reverse("referee:claim", kwargs={"pk": match.pk}), follow=True)
    assert response.redirect_chain[-1][0] == reverse("scoring:match", kwargs={"pk": match.pk})
    assert "art. 25" in response.content.decode()


def test_a_confirmed_ruling_is_not_confirmed_twice(client, match, referee):
    _login(client, referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    client.post(url, {"claimant": "0", "code": "guidance_word", "seat": "1", "value": "1"})
    ruling = Ruling.objects.get()
    client.post(url, {"action": "confirm", "ruling": ruling.pk})
    again = client.post(url, {"action": "confirm", "ruling": ruling.pk})
    assert again.status_code == 400
    assert PenaltyEntry.objects.count() == 1


def test_my_tables_links_the_organizer_to_the_review(client, match, organizer, referee):
    assert reverse("referee:review") in _login(client, organizer).get(reverse("referee:tables")).content.decode()
    assert reverse("referee:review") not in _login(client, referee).get(reverse("referee:tables")).content.decode()


def test_a_proposal_left_unconfirmed_is_offered_again(client, match, referee):
    _login(client, referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    client.post(url, {"claimant": "0", "code": "guidance_word", "seat": "1", "value": "1"})
    ruling = Ruling.objects.get()
    html = client.get(url).content.decode()
    assert 'id="pending"' in html and f"ruling={ruling.pk}" in html


def test_the_pages_speak_english_on_request(client, match, referee):
    _login(client, referee).cookies["django_language"] = "en"
    html = client.get(reverse("referee:claim", kwargs={"pk": match.pk}), {"claimant": "0"}).content.decode()
    assert "Which infraction?" in html and "art. 24" in html
    assert "My tables" in client.get(reverse("referee:tables")).content.decode()


def test_my_tables_and_the_history_take_a_fixed_number_of_queries(client, pairs, organizer, referee, tournament,
                                                                   django_assert_max_num_queries):
    matches = [scoring.create_match(pair_a=pairs[i % 2], pair_b=pairs[2], tournament=tournament, table=i + 1,
                                    referee=referee, by=organizer) for i in range(6)]
    for match in matches:
        scoring.record_hand(match, three(0), referee)
        _confirmed(match, referee, claimant=1, seat=0)
    _login(client, referee)
    with django_assert_max_num_queries(10):  # 8, the pending conflicts, the claims
        assert client.get(reverse("referee:tables")).status_code == 200
    with django_assert_max_num_queries(10):
        assert client.get(reverse("referee:pair-history", kwargs={"pk": pairs[2].pk})).status_code == 200


def test_the_sumula_entry_page_leads_the_referee_to_the_claim_and_the_hand_checker(client, referee, match):
    client.force_login(referee)
    page = client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    assert reverse("referee:claim", kwargs={"pk": match.pk}) in page
    assert reverse("referee:check-hand", kwargs={"pk": match.pk}) in page


def test_house_rule_sanctions_are_marked_and_follow_the_tournaments_rule_set(client, match, referee):
    """art. 10, 14, 18 state no sanction: the house rules' tento fills it, marked as such; a tournament
    may set house_sanctions: warning in its rule set."""
    _login(client, referee)
    url = reverse("referee:claim", kwargs={"pk": match.pk})
    page = client.get(url, {"claimant": "0"}).content.decode()
    assert page.count('class="house-rule"') >= 3 and "Regra da casa" in page
    page = client.get(url, {"claimant": "0", "code": "burned_card"}).content.decode()
    assert "art. 10" in page and "Regra da casa" in page
    assert "Regra da casa" not in client.get(url, {"claimant": "0", "code": "guidance_word"}).content.decode()
    client.post(url, {"claimant": "0", "code": "burned_card", "value": "1", "seat": "1"})
    ruling = Ruling.objects.get()
    assert (ruling.article, ruling.points) == ("art. 10", 1) and "regras da casa" in ruling.message
    # a tournament's rule set is copied onto each of its matches (scoring.services.rules_of reads the match's)
    match.rule_set = {"preset": "regulamento-tecnico", "options": {"house_sanctions": "warning"}}
    match.save(update_fields=["rule_set"])
    ruling.delete()
    client.post(url, {"claimant": "0", "code": "burned_card", "value": "1", "seat": "1"})
    warning = Ruling.objects.get()
    assert (warning.points, warning.beneficiary) == (0, None) and "regras da casa" in warning.message


def test_from_the_dashboard_the_review_leads_back_to_it(client, match, referee, organizer, pairs):
    """"Needs you now" links the review with its tournament: the page says the way back, and a decision that
    leaves nothing else of that tournament to review returns to its dashboard (one page less)."""
    from referee import appeals as referee_appeals
    from referee import services as referee_services
    from tournaments.waiting import of_tournament

    slug = match.tournament.slug
    first = referee_appeals.appeal(_confirmed(match, referee), 1, pairs[1].first_player, pin="3333", reason="Não")
    second = referee_services.propose(match, 0, 1, "not_covered", {"description": "Celular"}, referee)
    referee_services.escalate(second, referee, "Celular")
    links = {item.key: item.url for item in of_tournament(match.tournament)}
    assert links["appeals"] == f"{reverse('referee:review')}?painel={slug}#appeals"
    html = _login(client, organizer).get(links["appeals"]).content.decode()
    dashboard = reverse("tournaments:dashboard", kwargs={"slug": slug})
    assert f'href="{dashboard}"' in html.split('class="crumbs"', 1)[1].split("</p>", 1)[0]
    assert html.count(f'name="painel" value="{slug}"') == 2  # both decision forms carry it
    answer = client.post(reverse("referee:decide-appeal", kwargs={"pk": first.pk}),
                         {"decision": "upheld", "reason": "O árbitro ouviu", "painel": slug})
    assert answer["Location"] == f"{reverse('referee:review')}?painel={slug}"  # the escalated case still waits
    answer = client.post(reverse("referee:decide-ruling", kwargs={"pk": second.pk}),
                         {"beneficiary": "0", "points": "1", "reason": "Regra da casa", "painel": slug})
    assert answer["Location"] == dashboard
    client.force_login(referee)  # a slug the user does not organize is no way back
    assert 'name="painel"' not in client.get(links["appeals"]).content.decode()
