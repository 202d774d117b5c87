"""Where do I play: the pair card's QR code leads to the pair's page, which shows the
table of a match as soon as it is called (the live views' marker moves; the fragment has the table)."""
from __future__ import annotations

import pytest

from scoring.models import Match
from tests.qr import qr_codes
from tests.tournaments import factories as f
from tournaments import services
from public.live import tournament_version
from room.services import ready


@pytest.mark.django_db
def test_the_pair_card_qr_leads_to_the_pair_page_which_shows_a_newly_called_table(client, org, t, tmp_path):
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, ready_matches=True)
    services.generate_first_round(t, org)
    client.force_login(org)
    pdf = client.post(f"/torneios/{t.slug}/painel/cartoes-das-duplas.pdf")
    codes = qr_codes(pdf.content, tmp_path, dpi=200)
    pages = {f"http://testserver/torneios/{t.slug}/duplas/{p.pk}/" for p in pairs}  # the printing address
    assert pages <= codes
    client.logout()
    first = list(Match.objects.filter(round__number=1).select_related("pair_a", "pair_b").order_by("table"))
    for m in first:
        winner = m.pair_a if m.pair_a.seed < m.pair_b.seed else m.pair_b
        services.set_result(m, org, winner=winner, games=[1, 0] if winner.pk == m.pair_a_id else [0, 1],
                            reason="test")
    pending = ready.room_queue(t).ready[0].match
    page = f"/torneios/{t.slug}/duplas/{pending.pair_a_id}/"
    body = client.get(page).content.decode()
    assert 'data-testid="pair-where"' in body and 'data-live="' in body
    before = tournament_version(t.slug).tag
    assert 'data-table=""' in client.get(page + "?parte=1&v=x").content.decode()  # not called yet
    ready.call_match(pending.pk, org, table=2)
    assert tournament_version(t.slug).tag != before  # the page's next poll sees a change
    fragment = client.get(page + "?parte=1&v=y").content.decode()
    assert 'data-table="2"' in fragment


@pytest.mark.django_db
def test_the_projector_shows_the_calls_to_the_tables_newest_first(client, org, t):
    pairs = f.pairs(t, 4)
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    services.generate_first_round(t, org)
    body = client.get(f"/torneios/{t.slug}/telao/").content.decode()
    assert 'data-slide="calls-1"' not in body  # a room without ready matches or a clock: as before
    ready.configure_room(t, org, time_limit=90)
    body = client.get(f"/torneios/{t.slug}/telao/?x=1").content.decode()
    assert 'data-slide="calls-1"' in body
    for m in Match.objects.filter(tournament=t):
        assert f'data-testid="call-{m.pk}"' in body


@pytest.mark.django_db
def test_a_pair_checks_itself_in_from_its_page_with_a_players_pin(client, org):
    from tournaments import pins
    from tournaments.models import CheckIn

    t = f.tournament(org, slug="chegada", check_in_required=True)
    pair = f.pairs(t, 2)[0]
    issued = pins.issue_for_pairs([pair])
    player = pair.first_player
    page = f"/torneios/{t.slug}/duplas/{pair.pk}/"
    assert 'data-testid="self-check-in"' in client.get(page).content.decode()
    client.post(page + "chegamos/", {"player": player.pk, "pin": "000000" if issued[player.pk] != "000000" else "1"})
    assert not CheckIn.objects.exists()  # a wrong PIN checks nobody in
    answer = client.post(page + "chegamos/", {"player": player.pk, "pin": issued[player.pk]})
    assert answer.status_code == 302
    assert CheckIn.objects.filter(pair=pair, round__number=1).count() == 1
    client.post(page + "chegamos/", {"player": player.pk, "pin": issued[player.pk]})  # a second tap
    assert CheckIn.objects.filter(pair=pair).count() == 1
    assert 'data-testid="checked-in"' in client.get(page + "?again=1").content.decode()
    services.undo_check_in(CheckIn.objects.get().round, pair, org)  # the organizer still decides by hand
    assert not CheckIn.objects.exists()
