"""Circuits, ratings and categories move from ``tournaments`` up to ``seasons`` by state-only
migrations (seasons 0001, tournaments 0034): the tables and their rows stay, the content types follow,
and so do the player merges' recorded rating-row keys; and all of it backwards. One test (one trip up
and down the migrations: they are slow), run on SQLite and on PostgreSQL by CI."""
import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("contenttypes", "0002_remove_content_type_name"), ("tournaments", "0033_circuits_of_organizations"),
          ("seasons", None)]
MOVED = [("tournaments", "0034_season_models_to_seasons"), ("seasons", "0001_initial")]


def test_the_season_moves_to_seasons_keeping_its_tables_rows_and_merges_then_back():
    apps = start_at(connection, BEFORE, fresh=True)  # from nothing: cheaper than walking down the history
    try:
        User = apps.get_model("auth", "User")
        Tournament = apps.get_model("events", "Tournament")
        Pair = apps.get_model("events", "Pair")
        Player = apps.get_model("people", "Player")
        org = User.objects.create(username="org")
        old_type, _ = ContentType.objects.get_or_create(app_label="tournaments", model="circuit")
        t = Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 5, 1), organizer=org)
        ana, bia, dup = (Player.objects.create(name=n) for n in ("Ana", "Bia", "Ana S."))
        pair = Pair.objects.create(tournament=t, name="A", first_player=ana, second_player=bia)
        circuit = apps.get_model("tournaments", "Circuit").objects.create(name="Circuito", slug="c", organizer=org)
        stage = apps.get_model("tournaments", "CircuitStage").objects.create(circuit=circuit, tournament=t, number=1)
        apps.get_model("tournaments", "CircuitPlacing").objects.create(stage=stage, pair=pair, place=1)
        flight = apps.get_model("tournaments", "Flight").objects.create(tournament=t, name="A", position=1)
        apps.get_model("tournaments", "FlightMember").objects.create(flight=flight, pair=pair)
        merge = apps.get_model("people", "PlayerMerge").objects.create(  # undoing it must find the rating rows' key
            kept=ana, duplicate=dup, reason="same", merged_by=org,
            moved={"tournaments.ratingentry.player": [7], "events.pair.first_player": [pair.pk]})

        apps = migrate_to(connection, MOVED)
        tables = set(connection.introspection.table_names())
        assert {"tournaments_circuit", "tournaments_ratingentry", "tournaments_flight"} <= tables
        assert not {table for table in tables if table.startswith("seasons_")}
        Circuit = apps.get_model("seasons", "Circuit")
        moved = Circuit.objects.get(pk=circuit.pk)
        assert (moved.name, moved.organizer_id, moved.points) == ("Circuito", org.pk, [100, 80, 65, 55, 45, 40, 35, 30])
        assert [(p.pair_id, p.place) for s in moved.stages.all() for p in s.placings.all()] == [(pair.pk, 1)]
        assert apps.get_model("seasons", "FlightMember").objects.get(pair_id=pair.pk).flight.name == "A"
        assert apps.get_model("seasons", "RatingEntry")._meta.get_field("player").related_model._meta.label == "people.Player"
        assert ContentType.objects.get(pk=old_type.pk).app_label == "seasons"  # admin log entries follow
        assert apps.get_model("people", "PlayerMerge").objects.get(pk=merge.pk).moved == {
            "seasons.ratingentry.player": [7], "events.pair.first_player": [pair.pk]}

        apps = migrate_to(connection, BEFORE)  # and back: the same rows in tournaments' state
        assert apps.get_model("tournaments", "Circuit").objects.get(pk=circuit.pk).stages.count() == 1
        assert ContentType.objects.get(pk=old_type.pk).app_label == "tournaments"
        assert apps.get_model("people", "PlayerMerge").objects.get(pk=merge.pk).moved == {
            "tournaments.ratingentry.player": [7], "events.pair.first_player": [pair.pk]}
    finally:
        back_to_latest(connection)
