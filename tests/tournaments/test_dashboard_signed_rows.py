"""The dashboard's row of a signed or corrected súmula tells the truth: a súmula signed
by both pairs says whether it waits for the referee's countersignature (art. 25) — and offers "receive" only
when receiving would work — with the signed score and winner shown before it is received; a received súmula
corrected since says so, shows the new score beside the result still official, and can be received again."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scoring import services as scoring
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments.models import Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def row_of(client, t, match) -> str:
    html = client.get(url("dashboard", t)).content.decode()
    start = html.index(f'id="match-{match.pk}"')
    return html[start:html.index("</li>", start)]


def test_a_signed_row_says_it_waits_for_the_referee_then_offers_receiving(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    f.play(match, match.pair_b, org, loser_points=5, receive_it=False)  # signed by both pairs, no referee yet
    referee = get_user_model().objects.create_user("carla", password="x")
    match.refresh_from_db()
    match.referee = referee  # the table's referee: their countersignature is now needed (art. 25)
    match.save(update_fields=["referee"])
    row = row_of(client, t, match)
    assert 'data-testid="awaiting-referee"' in row and 'data-testid="receive"' not in row
    assert 'data-testid="signed-result"' in row and match.pair_b.name in row and "0–1" in row
    scoring.countersign(match, referee)
    row = row_of(client, t, match)
    assert 'data-testid="ready-to-receive"' in row and 'data-testid="receive"' in row
    client.post(url("receive", t, pk=match.pk))
    assert Result.objects.get(match=match).winner_id == match.pair_b_id


def test_a_corrected_received_sumula_says_so_and_is_received_again(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    f.play(match, match.pair_a, org, loser_points=4)  # received: official 12-4
    assert Result.objects.get(match=match).points_b == 4
    scoring.correct(match, [{"op": "remove_entry", "game": 1, "position": 1}], "mão lançada errada", org)
    match.refresh_from_db()
    row = row_of(client, t, match)
    assert 'data-testid="reopened" data-state="signing"' in row and "assinarem de novo" in row
    assert "oficial até ser recebida de novo" in row and 'data-testid="receive"' not in row
    f.sign_and_receive(match, org, receive_it=False)
    row = row_of(client, t, match)
    assert 'data-state="ready-to-receive"' in row and 'data-testid="receive"' in row
