"""The table page's "we are at the table" and its clock line."""
from __future__ import annotations

import pytest

from scoring.models import Match
from tables.links import ensure_links
from tests.tournaments import factories as f
from tournaments import services
from room.models import MatchCall
from room.services import ready


@pytest.mark.django_db
def test_each_pair_says_it_is_at_the_table_from_the_table_page(client):
    org = f.user("org")
    t = f.tournament(org)
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    ready.configure_room(t, org, tolerance_first=15)
    services.generate_first_round(t, org)
    match = Match.objects.filter(tournament=t, table=1).get()
    token = ensure_links([match])[match.pk].token
    page = client.get(f"/mesa/{token}/")
    assert page.status_code == 200
    body = page.content.decode()
    assert 'data-testid="here-0"' in body and 'data-testid="table-clock"' in body
    client.post(f"/mesa/{token}/presenca/", {"team": "0", "match": str(match.pk + 1000)})  # a stale page
    assert not MatchCall.objects.filter(match=match).exists()
    answer = client.post(f"/mesa/{token}/presenca/", {"team": "0", "match": str(match.pk)})
    assert answer.status_code == 302 and answer["Location"] == f"/mesa/{token}/"
    call = MatchCall.objects.get(match=match)
    assert call.present_a_at is not None and call.present_b_at is None
    client.post(f"/mesa/{token}/presenca/", {"team": "1", "match": str(match.pk)})
    call.refresh_from_db()
    assert call.started_at == call.present_b_at
    assert 'data-testid="here-0"' not in client.get(f"/mesa/{token}/").content.decode()  # started: no buttons
    assert client.post("/mesa/" + "x" * 30 + "/presenca/", {"team": "0"}).status_code == 404


@pytest.mark.django_db
def test_the_table_page_says_the_time_is_up_and_what_happens_next(client):
    """After the time limit the table page shows "Tempo esgotado" and the room's procedure
    (here Tupantruco's: the remaining games at 11×11); before it, what will happen."""
    from datetime import timedelta

    from django.utils import timezone

    from room.services import presence

    org = f.user("org")
    t = f.tournament(org)
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    ready.configure_room(t, org, time_limit=90, end_of_time="eleven_all")
    services.generate_first_round(t, org)
    match = Match.objects.filter(tournament=t, table=1).get()
    token = ensure_links([match])[match.pk].token
    started = timezone.now() - timedelta(minutes=30)
    presence.confirm_presence(match, 0, now=started)
    presence.confirm_presence(match, 1, now=started)
    body = client.get(f"/mesa/{token}/").content.decode()
    assert 'data-testid="time-up" hidden' in body and "11×11" in body  # announced, not yet up
    MatchCall.objects.filter(match=match).update(started_at=started - timedelta(hours=1))
    body = client.get(f"/mesa/{token}/").content.decode()
    assert 'data-testid="time-up">' in body and "Tempo esgotado" in body and "11×11" in body
