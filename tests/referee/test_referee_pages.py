"""The referee pages (/arbitragem/): who may open them, the three-tap claim of a tento, the hand
checker. Fixtures come from the súmula tests (an organizer, a referee, an outsider, a match)."""
from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring import services as scoring
from tests.scoring.sumula_setup import *  # noqa: F401,F403 (fixtures)
from tests.scoring.sumula_setup import three
from tournaments.models import TableAssignment

from .hands import report

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_referee(db):
    return get_user_model().objects.create_user("outro-arbitro", password="secret-other")


def _login(client, user):
    client.force_login(user)
    return client


def _pages(match):
    return [reverse("referee:check-hand", kwargs={"pk": match.pk})]


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
        assert client.post(url, {"source": "paste", "report": "{}"}).status_code == 403


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
    TableAssignment.objects.create(tournament=tournament, table=3, referee=other_referee)
    html = _login(client, other_referee).get(reverse("referee:tables")).content.decode()
    assert "Terceira" in html and f'data-match="{match.pk}"' in html


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
    assert "Os Zaps marca 1" in html
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
    assert "Os Zaps marca 1" in html
    assert "Nenhuma diferença" in html


def test_checker_refuses_bad_json_and_hides_the_verdict_from_others(client, match, referee, outsider):
    url = reverse("referee:check-hand", kwargs={"pk": match.pk})
    page = _login(client, referee).post(url, {"source": "paste", "report": "{not json"})
    assert page.status_code == 400 and "JSON" in page.content.decode()
    page = _login(client, outsider).post(url, {"source": "paste", "report": json.dumps(PLAIN)})
    assert page.status_code == 403
    assert "3-espadas" not in page.content.decode() and "marca" not in page.content.decode()
