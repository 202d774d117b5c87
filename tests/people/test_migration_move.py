"""The player moves from ``tournaments`` to ``people`` with state-only migrations: the
table ``tournaments_player`` and its rows stay, every foreign key follows; then the free-text clubs
become ``Club`` rows with memberships (people 0003); and all of it backwards. One test (one trip
down and up the migrations: they are slow), run on SQLite and on PostgreSQL by CI."""
import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("contenttypes", "0002_remove_content_type_name"), ("tournaments", "0021_audit_actions_merged"),
          ("people", None)]
MOVED = [("tournaments", "0022_player_to_people"), ("people", "0001_initial")]
AFTER = [("tournaments", "0022_player_to_people"), ("people", "0004_club_is_a_club")]


def test_the_player_moves_to_people_keeping_its_table_and_rows_then_clubs_and_back():
    apps = start_at(connection, BEFORE, fresh=True)  # from nothing: cheaper than walking down the history
    try:
        User = apps.get_model("auth", "User")
        Tournament = apps.get_model("tournaments", "Tournament")
        Player = apps.get_model("tournaments", "Player")
        Pair = apps.get_model("tournaments", "Pair")
        org = User.objects.create(username="org")
        old_type, _ = ContentType.objects.get_or_create(app_label="tournaments", model="player")
        t = Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 5, 1), organizer=org)
        ana = Player.objects.create(name="Ana", nickname="Aninha", club="Clube do Truco", contact="ana@x", entered_by=org)
        bia = Player.objects.create(name="Bia", club="clube do  trúco")  # the same club, spelled otherwise
        caio = Player.objects.create(name="Caio", club="Outro Clube")
        Player.objects.create(name="Dani")  # no club
        pair = Pair.objects.create(tournament=t, name="Ana/Bia", first_player=ana, second_player=bia)

        apps = migrate_to(connection, MOVED)
        assert [table for table in connection.introspection.table_names() if table.endswith("_player")] == [
            "tournaments_player"]
        Player = apps.get_model("people", "Player")
        moved = Player.objects.get(pk=ana.pk)
        assert (moved.name, moved.nickname, moved.club, moved.contact, moved.entered_by_id) == (
            "Ana", "Aninha", "Clube do Truco", "ana@x", org.pk)
        Pair = apps.get_model("tournaments", "Pair")
        assert Pair.objects.get(pk=pair.pk).first_player == moved
        assert Pair._meta.get_field("first_player").related_model is Player
        assert apps.get_model("scoring", "Signature")._meta.get_field("player").related_model is Player
        assert apps.get_model("referee", "Appeal")._meta.get_field("player").related_model is Player
        assert ContentType.objects.get(pk=old_type.pk).app_label == "people"  # admin log entries follow

        apps = migrate_to(connection, AFTER)  # the free-text clubs become clubs
        Player = apps.get_model("people", "Player")
        Club = apps.get_model("people", "Club")
        assert sorted(Club.objects.values_list("name", flat=True)) == ["Clube do Truco", "Outro Clube"]
        clubs = {p.name: p.club.name if p.club_id else None for p in Player.objects.select_related("club")}
        assert clubs == {"Ana": "Clube do Truco", "Bia": "Clube do Truco", "Caio": "Outro Clube", "Dani": None}
        memberships = apps.get_model("people", "ClubMembership").objects.all()
        assert sorted((m.player_id, m.since, m.until) for m in memberships) == [
            (ana.pk, None, None), (bia.pk, None, None), (caio.pk, None, None)]

        apps = migrate_to(connection, BEFORE)  # and back: the text again (the club's name), the player in tournaments
        Player = apps.get_model("tournaments", "Player")
        assert {p.name: p.club for p in Player.objects.all()} == {
            "Ana": "Clube do Truco", "Bia": "Clube do Truco", "Caio": "Outro Clube", "Dani": ""}
        assert apps.get_model("tournaments", "Pair").objects.get(pk=pair.pk).second_player_id == bia.pk
        assert ContentType.objects.get(pk=old_type.pk).app_label == "tournaments"
    finally:
        back_to_latest(connection)
