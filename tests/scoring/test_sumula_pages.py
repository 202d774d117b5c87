"""The súmula pages: the phone entry page (referee or organizer only), signing (each pair for itself),
corrections, and the public verification of a digest."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring import services
from scoring.models import HandEntry, Match, Signature

from .sumula_setup import *  # noqa: F401,F403


def page(pk):
    return reverse("scoring:match", kwargs={"pk": pk})


def url(name, pk):
    return reverse(f"scoring:{name}", kwargs={"pk": pk})


@pytest.fixture
def ref_client(client, referee):
    client.force_login(referee)
    return client


def test_entry_page_needs_the_referee_or_the_organizer(client, match, outsider, organizer):
    response = client.get(page(match.pk))
    assert response.status_code == 302 and response["Location"].startswith("/entrar/")
    client.force_login(outsider)
    assert client.get(page(match.pk)).status_code == 403
    assert client.post(url("hand", match.pk), {"winner": 0, "value": 3}).status_code == 403
    assert not HandEntry.objects.exists()
    client.force_login(organizer)
    assert client.get(page(match.pk)).status_code == 200


def test_tapping_hands_records_them_and_shows_the_score(ref_client, match):
    for _ in range(3):
        response = ref_client.post(url("hand", match.pk), {"winner": "0", "ended_by": "tricks", "value": "3"})
        assert response.status_code == 302 and response["Location"] == page(match.pk)
    response = ref_client.get(page(match.pk))
    html = response.content.decode()
    assert '<span class="pts" data-team="0">9</span>' in html
    assert "Os Zaps" in html and "Copas" in html
    values = re.findall(r'name="value" value="(\d+)"', html)
    assert values == ["0", "1", "3", "6", "9", "12"]  # 0: nobody scores (all tied, deal lost)


def test_engine_errors_are_shown_in_portuguese_with_their_article(ref_client, match, referee):
    play(match, referee, 0, 0, 0, {"winner": 0, "ended_by": "tricks", "value": 1}, 1)  # 10-3
    play(match, referee, {"winner": 0, "ended_by": "tricks", "value": 1})  # 11-3: mão de onze
    html = ref_client.get(page(match.pk)).content.decode()
    values = re.findall(r'name="value" value="(\d+)"', html)
    assert values == ["0", "1", "3"]  # nobody (all tied), refused (1), played (3): never 6, 9 or 12
    assert 'data-values="3"' in html  # tricks: only 3 (the script disables the rest)
    response = ref_client.post(url("hand", match.pk), {"winner": "0", "ended_by": "tricks", "value": "6"},
                               follow=True)
    html = response.content.decode()
    assert "mão de onze vale 3" in html and "art. 18, 19" in html
    assert HandEntry.objects.count() == 6


def test_refused_mao_de_onze_fills_in_the_scoring_team(ref_client, match, referee):
    play(match, referee, 0, 0, 0, {"winner": 0, "ended_by": "tricks", "value": 1},
         {"winner": 0, "ended_by": "tricks", "value": 1})  # 11-0: mão de onze for Os Zaps
    ref_client.post(url("hand", match.pk), {"ended_by": "eleven_refused", "value": "1"})
    hand = HandEntry.objects.order_by("-id").first()
    assert hand.ended_by == "eleven_refused" and hand.winner == 1 and hand.score == (11, 1)


def test_undo_penalty_and_report_through_the_page(ref_client, match):
    ref_client.post(url("hand", match.pk), {"winner": "1", "ended_by": "run", "value": "1"})
    ref_client.post(url("penalty", match.pk), {"offender": "1", "points": "1", "article": "", "reason": "x"})
    assert not match.games.get().penalties.exists()
    response = ref_client.post(url("penalty", match.pk), {"offender": "1", "points": "1", "article": "art. 24",
                                                          "reason": "Palavra"}, follow=True)
    assert "art. 24" in response.content.decode()
    assert match.games.get().score == (1, 1)
    ref_client.post(url("undo", match.pk))
    assert match.games.get().score == (0, 1)
    response = ref_client.post(url("report", match.pk), {"report": "{not json"}, follow=True)
    assert "JSON" in response.content.decode()
    response = ref_client.post(url("report", match.pk), {"report": '{"dealer": 3, "score": [0, 1], "vira": "4-ouros"}'},
                               follow=True)
    # the message names the field in words, never its code ("Pé: …", not "[report.dealer]")
    assert "Pé: " in response.content.decode() and "[report.dealer]" not in response.content.decode()


def test_first_dealer_is_chosen_before_the_first_hand(ref_client, match):
    response = ref_client.post(url("dealer", match.pk), {"dealer": "2"}, follow=True)
    assert match.games.get().first_dealer == 2
    assert "Beto Lima dá as cartas primeiro" in response.content.decode()  # by name, never "seat 2"
    ref_client.post(url("hand", match.pk), {"winner": "0", "value": "1"})
    response = ref_client.post(url("dealer", match.pk), {"dealer": "1"}, follow=True)
    assert "art. 4" in response.content.decode()
    assert match.games.get().hands.get().dealer == 2


def test_entry_page_queries_do_not_grow_with_the_hands(ref_client, match3, referee, django_assert_max_num_queries):
    play(match3, referee, 1)
    with django_assert_max_num_queries(20) as few:
        ref_client.get(page(match3.pk))
    print(f"entry page: {len(few.captured_queries)} queries")
    play(match3, referee, *[0] * 4, *[1, 0] * 5)  # a game won, then ten hands more
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = ref_client.get(page(match3.pk))
    assert response.status_code == 200


def test_signing_through_the_pages(client, ref_client, match, referee, organizer):
    play(match, referee, 0, 0, 0, 0)
    match = Match.objects.get(pk=match.pk)
    digest = match.versions.get().digest
    html = ref_client.get(page(match.pk)).content.decode()
    assert digest in html and "Confirm and sign for Os Zaps" in html or "Confirmar e assinar pelos Zaps" in html  # "Os Zaps": por + os = pelos
    client.logout()
    sign = url("sign", match.pk)
    # a player of pair A tries to sign for pair B: refused by the server, whatever the page offered
    response = client.post(sign, {"role": "team1", "player": match.pair_a.first_player_id, "pin": "1111",
                                  "digest": digest})
    assert response.status_code == 403 and "art. 25" in response.content.decode()
    response = client.post(sign, {"role": "team0", "player": match.pair_a.first_player_id, "pin": "0000"},
                           follow=True)
    assert not Signature.objects.exists()
    client.post(sign, {"role": "team0", "player": match.pair_a.first_player_id, "pin": "1111", "digest": digest})
    client.post(sign, {"role": "team1", "player": match.pair_b.first_player_id, "pin": "3333", "digest": digest})
    assert Match.objects.get(pk=match.pk).status == "signed"
    client.force_login(referee)
    response = client.post(url("countersign", match.pk), {"digest": digest}, follow=True)
    assert Signature.objects.filter(role="referee").exists()
    assert client.post(url("receive", match.pk)).status_code == 403  # the referee does not receive
    client.force_login(organizer)
    client.post(url("receive", match.pk))
    assert Match.objects.get(pk=match.pk).is_official


def test_one_time_code_is_shown_once_to_the_referee(ref_client, match, referee):
    play(match, referee, 0, 0, 0, 0)
    response = ref_client.post(url("code", match.pk), {"team": "1"}, follow=True)
    code = re.search(r"\b(\d{6})\b \(", response.content.decode()).group(1)
    services.sign(match, "team1", match.pair_b.first_player, code=code)


def test_correction_page_requires_a_reason(ref_client, match, referee):
    play(match, referee, 0, 0, 0, 0)
    form = {"op": "replace_hand", "game": "1", "hand": "2", "winner": "1", "ended_by": "tricks", "value": "3"}
    response = ref_client.post(url("correct", match.pk), {**form, "reason": ""})
    assert response.status_code == 400 and "art. 25" in response.content.decode()
    response = ref_client.post(url("correct", match.pk), {**form, "reason": "Mão 2 era da dupla B"})
    assert response.status_code == 302
    assert Match.objects.get(pk=match.pk).versions.count() == 2


def test_verification_page(client, match, referee):
    play(match, referee, 0, 0, 0, 0)
    services.sign(match, "team0", match.pair_a.first_player, pin="1111")
    v1 = match.versions.get()
    response = client.get(reverse("scoring:verify", kwargs={"digest": v1.digest}))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Os Zaps" in html and "Ana Souza" in html and v1.digest in html
    services.correct(match, [{"op": "set_first_dealer", "game": 1, "dealer": 1}], "Pé inicial era o 1", referee)
    html = client.get(reverse("scoring:verify", kwargs={"digest": v1.digest})).content.decode()
    v2 = match.versions.get(number=2)
    assert reverse("scoring:verify", kwargs={"digest": v2.digest}) in html  # superseded: points to the current
    html = client.get(reverse("scoring:verify", kwargs={"digest": v2.digest})).content.decode()
    assert "Pé inicial era o 1" in html


def test_verification_of_an_unknown_digest_is_a_404(client, db):
    response = client.get(reverse("scoring:verify", kwargs={"digest": "0" * 64}))
    assert response.status_code == 404
    assert "0" * 64 in response.content.decode()
    response = client.get(reverse("scoring:verify-form"), {"digest": "ABC"})
    assert response.status_code == 302
    assert client.get(reverse("scoring:verify-form")).status_code == 200


def test_a_double_tap_records_one_hand_and_undoes_one_entry(ref_client, match, referee):
    play(match, referee, 1)
    html = ref_client.get(page(match.pk)).content.decode()
    token = re.search(r'name="expect" value="([^"]+)"', html).group(1)
    assert token == "1:1"
    tap = {"winner": "0", "ended_by": "tricks", "value": "3", "expect": token}
    ref_client.post(url("hand", match.pk), tap)
    response = ref_client.post(url("hand", match.pk), tap, follow=True)  # the same form, sent twice
    body = response.content.decode()
    assert "nothing was done" in body or "nada foi feito" in body
    assert HandEntry.objects.count() == 2
    ref_client.post(url("undo", match.pk), {"expect": "1:2"})
    ref_client.post(url("undo", match.pk), {"expect": "1:2"})
    assert HandEntry.objects.count() == 1
