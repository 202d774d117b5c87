"""Typing a result by hand: the form starts empty instead of 0-0, fills what the match's
format implies (the winner's games; 12 a game for the winner when the loser won none, art. 18), and on an
error stays open with what was typed instead of redirecting and losing it."""
from __future__ import annotations

import pytest

from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments.models import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def test_only_the_winner_and_a_reason_are_enough(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    html = client.get(url("match-actions", t, pk=match.pk)).content.decode()  # the card's fold, on demand
    assert 'name="points_a" min="0" max="60" inputmode="numeric">' in html  # no 0 typed in for the organizer
    response = client.post(url("result", t, pk=match.pk), {"winner": match.pair_a_id, "reason": "súmula perdida"})
    assert response.status_code == 302
    result = Result.objects.get(match=match)
    assert (result.winner_id, result.games_a, result.games_b) == (match.pair_a_id, 1, 0)
    assert (result.points_a, result.points_b) == (0, 0)  # unknown tentos: recorded 0-0, not checked


def test_the_losers_tentos_alone_give_the_winner_12_art_18(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    client.post(url("result", t, pk=match.pk), {"winner": match.pair_b_id, "points_a": "7", "reason": "súmula perdida"})
    result = Result.objects.get(match=match)
    assert (result.winner_id, result.points_a, result.points_b) == (match.pair_b_id, 7, 12)


def test_an_error_keeps_the_form_open_with_what_was_typed(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    response = client.post(url("result", t, pk=match.pk), {"winner": match.pair_a_id, "points_a": "12",
                                                           "points_b": "15", "reason": "anotado à mão"})
    assert response.status_code == 400 and not Result.objects.filter(match=match).exists()
    html = response.content.decode()
    form = html[html.index(f'action="{url("result", t, pk=match.pk)}" class="fields"') - 400:]  # not the quick one
    assert "<details class=\"more\" open>" in form[:400]
    assert f'value="{match.pair_a_id}" required checked' in form
    assert 'name="points_b" min="0" max="60" inputmode="numeric" value="15"' in form
    assert 'value="anotado à mão"' in form
    assert [str(m) for m in response.context["messages"]]  # the reason of the refusal, above the form
