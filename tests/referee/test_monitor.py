"""The room monitor: tiles by what needs a person first, the organizer's and referees'
page only, and a poll that costs one query when nothing changed."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from referee import monitor
from tests.referee.monitor_room import mixed_room
from tests.tournaments import factories as f
from tournaments.models import Result


@pytest.mark.django_db
def test_tiles_come_most_urgent_first_with_every_state():
    org = f.user("org")
    t = mixed_room(org, 30)
    tiles, next_change = monitor.tiles(t)
    assert len(tiles) == 30
    states = [tile.state for tile in tiles]
    assert states[0] == "disputed" and tiles[0].table == 1
    assert {"disputed", "calling", "late", "over_time", "signing", "called", "playing", "received"} <= set(states)
    assert states == sorted(states, key=monitor.ORDER.index)
    late = next(tile for tile in tiles if tile.state == "late")
    assert late.proposal is not None and late.proposal.absent.pk == late.match.pair_b_id
    assert next_change is not None  # the playing tables' time limits


@pytest.mark.django_db
def test_only_the_organizer_and_referees_see_it_and_the_poll_is_one_query_when_nothing_changed(client):
    org = f.user("org")
    t = mixed_room(org, 100, slug="grande")
    url = f"/torneios/{t.slug}/sala/"
    assert client.get(url).status_code == 302  # log in first
    client.force_login(f.user("stranger"))
    assert client.get(url).status_code == 403
    client.force_login(org)
    page = client.get(url)
    assert page.status_code == 200 and 'data-testid="tile-100"' in page.content.decode()
    client.logout()  # the marker is public (a hash): a poll loads no session
    first = client.get(url + "versao/")
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url + "versao/", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and len(queries) == 1
    tile = next(tile for tile in monitor.tiles(t)[0] if tile.state == "called")
    from room.services import presence

    presence.confirm_presence(tile.match, 0)
    assert client.get(url + "versao/", HTTP_IF_NONE_MATCH=etag).status_code == 200  # a pair came: it moves
    client.force_login(org)
    fragment = client.get(url + "?parte=1")
    assert fragment.status_code == 200 and "<html" not in fragment.content.decode()


@pytest.mark.django_db
def test_the_organizer_confirms_a_walkover_proposal_from_its_tile(client):
    org = f.user("org")
    t = mixed_room(org, 10, slug="dez")
    client.force_login(org)
    late = next(tile for tile in monitor.tiles(t)[0] if tile.state == "late")
    answer = client.post(f"/torneios/{t.slug}/sala/acao/", {"do": "walkover", "match": late.match.pk,
                                                              "absent": late.proposal.absent.pk})
    assert answer.status_code == 302, answer
    messages = [str(m) for m in client.get(f"/torneios/{t.slug}/sala/").context["messages"]]
    assert Result.objects.get(match=late.match).kind == "walkover", messages


@pytest.mark.django_db
def test_the_organizer_assigns_a_referee_from_a_tile(client):
    from scoring.models import Match
    from tournaments.models import TableAssignment

    org = f.user("org")
    referee = f.user("ref")
    t = mixed_room(org, 4, slug="quatro")
    f.referee_of(t, referee)
    client.force_login(org)
    page = client.get(f"/torneios/{t.slug}/sala/").content.decode()
    assert 'data-testid="assign-2"' in page  # the tile's link to the one assignment form (not a form per tile)
    assert 'value="2"' in client.get(f"/torneios/{t.slug}/sala/?mesa=2").content.decode()
    client.post(f"/torneios/{t.slug}/sala/acao/", {"do": "referee", "table": "2", "referee": str(referee.pk)})
    assert TableAssignment.objects.get(tournament=t, table=2).referee == referee
    assert Match.objects.get(tournament=t, table=2).referee == referee
    client.force_login(referee)  # a referee of the tournament now sees the monitor, without the organizer's actions
    page = client.get(f"/torneios/{t.slug}/sala/")
    assert page.status_code == 200 and 'data-testid="assign-' not in page.content.decode()
    assert 'id="assign"' not in page.content.decode()
    assert client.post(f"/torneios/{t.slug}/sala/acao/", {"do": "referee", "table": "3",
                                                           "referee": str(referee.pk)}).status_code == 403


@pytest.mark.django_db
def test_a_table_whose_result_was_typed_says_so_not_received(client):
    """A W.O. or a result typed by the organizer is "resultado lançado"; "súmula recebida" only for a received súmula."""
    import re

    from django.utils import timezone

    from scoring.models import Match

    org = f.user("org")
    t = mixed_room(org, 10, slug="dez")
    client.force_login(org)
    html = client.get(f"/torneios/{t.slug}/sala/?parte=1").content.decode()
    tile = re.search(r'data-testid="tile-7".*?</h3>', html, re.S).group(0)  # a W.O. (mixed_room)
    assert "resultado lançado" in tile and "recebida" not in tile
    Match.objects.filter(tournament=t, table=7).update(status=Match.Status.RECEIVED, winner=0,
                                                          received_at=timezone.now())
    html = client.get(f"/torneios/{t.slug}/sala/?parte=1").content.decode()
    assert "súmula recebida" in re.search(r'data-testid="tile-7".*?</h3>', html, re.S).group(0)
