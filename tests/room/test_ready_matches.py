"""Ready matches: a round robin made whole at the draw, matches called as pairs and
tables free up, so no table waits for the slowest."""
from __future__ import annotations

import pytest

from config.errors import Conflict
from scoring.models import Match
from tests.tournaments import factories as f
from tournaments import services
from tables import cards as table_cards
from tournaments.models import AuditEntry, Result, Round, Tournament
from room.models import MatchCall
from room.services import ready


def _round_robin(t, org, count=6, **room):
    pairs = f.pairs(t, count)
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="round_robin", seeding="order")
    ready.configure_room(t, org, ready_matches=True, **room)
    services.generate_first_round(t, org)
    return pairs


def _decide(match: Match, org) -> None:
    """The lower seed (the pair registered first) wins."""
    winner = match.pair_a if match.pair_a.seed < match.pair_b.seed else match.pair_b
    games = [1, 0] if winner.pk == match.pair_a_id else [0, 1]
    services.set_result(match, org, winner=winner, games=games, reason="played (test)")


@pytest.mark.django_db
def test_the_whole_schedule_exists_at_the_draw_later_rounds_without_tables(t, org):
    _round_robin(t, org)
    rounds = list(Round.objects.filter(tournament=t).order_by("number"))
    assert [r.number for r in rounds] == [1, 2, 3, 4, 5]
    assert Match.objects.filter(tournament=t).count() == 15
    assert sorted(Match.objects.filter(round=rounds[0]).values_list("table", flat=True)) == [1, 2, 3]
    assert set(Match.objects.filter(round__number__gt=1).values_list("table", flat=True)) == {None}
    queue = ready.room_queue(t)
    assert queue.free_tables == [] and queue.ready == []  # everyone plays round 1
    assert queue.swiss_waits_for is None
    assert AuditEntry.objects.filter(tournament=t, action="round_generated").count() == 5


@pytest.mark.django_db
def test_a_slow_table_does_not_stop_the_room_and_the_standings_are_right(t, org):
    """Table 1's first match takes three times longer than the others; the pairs elsewhere play on
    (art. 25: each result official as it comes) and the event ends with the right standings."""
    pairs = _round_robin(t, org, auto_call=True)
    finish: dict[int, int] = {}  # match id -> time its result comes in
    now = 0
    for m in Match.objects.filter(tournament=t, table__isnull=False):
        finish[m.pk] = now + (3 if m.table == 1 else 1)
    slow = next(pk for pk, end in finish.items() if end == 3)
    slow_pairs = set(Match.objects.filter(pk=slow).values_list("pair_a_id", "pair_b_id")[0])
    played_while_slow: dict[int, int] = {}
    while finish:
        now = min(finish.values())
        for pk in sorted(pk for pk, end in finish.items() if end == now):
            del finish[pk]
            match = Match.objects.select_related("pair_a", "pair_b").get(pk=pk)
            _decide(match, org)  # the result frees the table: the next ready match is called by itself
            if now <= 3:
                for p in (match.pair_a_id, match.pair_b_id):
                    played_while_slow[p] = played_while_slow.get(p, 0) + 1
        for call in MatchCall.objects.filter(tournament=t).select_related("match"):
            if call.match_id not in finish and not Result.objects.filter(match_id=call.match_id).exists():
                finish[call.match_id] = now + 1
        assert now < 40
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert Result.objects.filter(tournament=t).count() == 15
    others = set(p.pk for p in pairs) - slow_pairs
    # while table 1 played its first match, every other pair played three matches (rounds 1 to 3 worth)
    assert all(played_while_slow.get(p, 0) >= 3 for p in others), played_while_slow
    # the event ends when the slow pairs' own four other matches, played one after another, end
    assert now == 3 + 4
    table = services.standings(t)
    assert [r.pair.pk for r in table.rows] == [p.pk for p in pairs]
    assert [r.won for r in table.rows] == [5, 4, 3, 2, 1, 0]
    assert MatchCall.objects.filter(tournament=t, automatic=True).count() == 12


@pytest.mark.django_db
def test_the_organizer_calls_a_ready_match_in_one_tap_and_a_second_tap_is_refused(t, org):
    _round_robin(t, org)
    first = list(Match.objects.filter(round__number=1).select_related("pair_a", "pair_b").order_by("table"))
    _decide(first[1], org)  # table 2 frees: its pairs are free, the others still play
    queue = ready.room_queue(t)
    assert queue.free_tables == [2]
    assert queue.ready == []  # each free pair's next opponent still plays
    _decide(first[2], org)
    queue = ready.room_queue(t)
    assert queue.free_tables == [2, 3]
    assert len(queue.ready) == 2
    match = queue.ready[0].match
    busy = {first[0].pair_a_id, first[0].pair_b_id}
    assert not busy & {match.pair_a_id, match.pair_b_id}
    card = table_cards.ensure_cards(t, [2])[2]
    assert table_cards.current_match(card) is None  # between matches
    call = ready.call_match(match.pk, org)
    assert call.table == 2 and not call.automatic
    assert table_cards.current_match(card).pk == match.pk  # the table's card shows the new match
    match.refresh_from_db()
    assert match.table == 2
    with pytest.raises(Conflict):
        ready.call_match(match.pk, org)  # the same tap again
    waiting = next(p.match for p in ready.room_queue(t).waiting if p.busy)
    with pytest.raises(Conflict):
        ready.call_match(waiting.pk, org, table=3)  # one of its pairs is playing
    other = ready.room_queue(t).ready[0].match
    with pytest.raises(Conflict):
        ready.call_match(other.pk, org, table=1)  # table 1 is busy
    assert AuditEntry.objects.filter(tournament=t, action="match_called").count() == 1


@pytest.mark.django_db
def test_a_swiss_round_says_which_tables_it_waits_for(t, org):
    f.pairs(t, 6)
    services.configure_stage(t, org, format="swiss", seeding="lot")
    services.generate_first_round(t, org, seed=7)
    matches = list(Match.objects.filter(tournament=t).select_related("pair_a", "pair_b").order_by("table"))
    services.set_result(matches[0], org, winner=matches[0].pair_a, games=[1, 0], reason="test")
    assert ready.room_queue(t).swiss_waits_for == [2, 3]


@pytest.mark.django_db
def test_ready_matches_are_chosen_before_the_draw(t, org):
    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    with pytest.raises(Conflict):
        ready.configure_room(t, org, ready_matches=True)
    room = ready.configure_room(t, org, tolerance_first=15, tolerance_later=5)
    assert (room.tolerance_first, room.tolerance_later, room.ready_matches) == (15, 5, False)


@pytest.mark.django_db
def test_the_api_and_the_dashboard_list_ready_matches_and_call_one(client, t, org):
    _round_robin(t, org)
    for m in Match.objects.filter(round__number=1).select_related("pair_a", "pair_b").order_by("table")[1:]:
        _decide(m, org)
    assert client.get(f"/api/tournaments/{t.slug}/room/").status_code in (401, 403)
    client.force_login(org)
    data = client.get(f"/api/tournaments/{t.slug}/room/").json()
    assert data["free_tables"] == [2, 3] and len(data["ready"]) == 2 and data["ready_matches"] is True
    page = client.get(f"/torneios/{t.slug}/painel/").content.decode()
    assert 'data-testid="ready-matches"' in page and 'data-testid="next-round"' not in page
    first = data["ready"][0]["id"]
    answer = client.post(f"/api/tournaments/{t.slug}/room/call/", {"match": first, "table": 3},
                         content_type="application/json")
    assert answer.status_code == 200 and answer.json()["free_tables"] == [2]
    again = client.post(f"/api/tournaments/{t.slug}/room/call/", {"match": first}, content_type="application/json")
    assert again.status_code == 409 and again.json()["field"] == "match"
    second = data["ready"][1]["id"]
    client.post(f"/torneios/{t.slug}/painel/sala/chamar/", {"match": second})
    assert Match.objects.get(pk=second).table == 2
