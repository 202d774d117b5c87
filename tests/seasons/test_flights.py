"""Categories (flights) of a tournament: by rating or declared, placings per category
(draw/pairing/flights.py, seasons/services/flights.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401  (autouse: messages in English)
from tests.tournaments.pages_fixtures import play_all
from tournaments import services
from tournaments.models import AuditEntry
from seasons.models import FlightMember
from draw.pairing.flights import FlightRule, check_flights, flight_for, flight_places
from seasons.services import flights, ratings

RULES = [FlightRule("A", 1100), FlightRule("B", 1000), FlightRule("C")]


def test_flight_by_rating():
    assert [flight_for(r, RULES) for r in (1300, 1100, 1099, 1000, 999, None)] == ["A", "A", "B", "B", "C", "C"]


@pytest.mark.parametrize("rules, field", [
    ([FlightRule("A", 10), FlightRule("A")], "flights"),
    ([FlightRule(" ")], "flights"),
    ([FlightRule("A"), FlightRule("B")], "min_rating"),
    ([FlightRule("A", 10), FlightRule("B", 20), FlightRule("C")], "min_rating"),
])
def test_bad_flights(rules, field):
    with pytest.raises(ValueError, match=field):
        check_flights(rules)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 12), st.sampled_from("ABC")), max_size=20))
def test_places_within_a_flight_follow_the_overall_order(rows):
    ranked = sorted(((i, place) for i, (place, _) in enumerate(rows)), key=lambda r: r[1])
    flight_of = {i: name for i, (_, name) in enumerate(rows)}
    out = flight_places(ranked, flight_of)
    assert sum(len(v) for v in out.values()) == len(rows)
    overall = dict(ranked)
    for placed in out.values():
        assert placed[0][0] == 1
        for (p1, a), (p2, b) in zip(placed, placed[1:]):
            assert p1 <= p2 and overall[a] <= overall[b]
            assert (p1 == p2) == (overall[a] == overall[b])


@pytest.mark.django_db
def test_categories_by_rating_and_declared_with_placings_per_category(client):
    org = f.user("org")
    first = f.tournament(org, slug="antes")
    pairs = f.pairs(first, 4)
    services.configure_stage(first, org, format="round_robin")
    services.generate_first_round(first, org)
    play_all(first, org, seed=3)
    ratings.sync_ratings()
    t = f.tournament(org, slug="copa-categorias")
    from tournaments.models import Pair

    again = [Pair.objects.create(tournament=t, name=f"N{i}", first_player=p.first_player,
                                 second_player=p.second_player) for i, p in enumerate(pairs, start=1)]
    combined = {pk: r.display for pk, r in ratings.pair_ratings(again).items()}
    cut = sorted(combined.values())[2]  # the two best-rated pairs reach it
    with pytest.raises(services.TournamentError) as e:
        flights.set_flights(t, org, [{"name": "A"}, {"name": "B"}], by_rating=True)
    assert e.value.field == "min_rating"
    flights.set_flights(t, org, [{"name": "A", "min_rating": cut}, {"name": "B"}], by_rating=True)
    members = dict(FlightMember.objects.values_list("pair_id", "flight__name"))
    assert sorted(members.values()) == ["A", "A", "B", "B"]
    assert all((members[pk] == "A") == (combined[pk] >= cut) for pk in members)
    # a declared level: the organizer moves one pair
    moved = next(p for p in again if members[p.pk] == "B")
    flights.set_pair_flight(moved, org, "A")
    assert AuditEntry.objects.filter(tournament=t, action="flights_set").count() == 2
    services.configure_stage(t, org, format="round_robin")
    services.generate_first_round(t, org)
    play_all(t, org, seed=5)
    table = flights.flight_standings(t)
    assert [(fl.name, len(rows)) for fl, rows in table] == [("A", 3), ("B", 1)]
    a_rows = table[0][1]
    assert a_rows[0][0] == 1 and [line.rank for _, line in a_rows] == sorted(line.rank for _, line in a_rows)
    assert table[1][1][0][0] == 1
    page = client.get("/torneios/copa-categorias/categorias/").content.decode()
    assert page.count('data-testid="flight-row"') == 4
