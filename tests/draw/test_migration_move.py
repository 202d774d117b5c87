"""The event moves from ``tournaments`` to ``events``, the draw (with the match, from ``scoring``)
to ``draw`` and the room (its options, calls and notices) to ``room``, by state-only migrations: the tables and their rows stay, every foreign key follows, the
content types follow; an upgraded database ends with the same schema as one made fresh. One trip up
the migrations from nothing (they are slow), run on SQLite and on PostgreSQL by CI."""
import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0028_help_texts_by_subject"), ("scoring", "0020_matchevent_match_at_index"),
          ("referee", "0008_player_to_people")]


def latest() -> list[tuple[str, str]]:
    """Every app at its latest migration: the upgraded database is compared with a fresh one."""
    from django.db.migrations.loader import MigrationLoader

    return MigrationLoader(connection, ignore_no_migrations=True).graph.leaf_nodes()


def schema(conn) -> dict:
    """Each of our tables' columns, foreign keys and unique constraints, by introspection:
    the same on both vendors whether the tables were made by the migrations or from the models."""
    from django.apps import apps as installed

    ours = {"people", "events", "draw", "tables", "scoring", "tournaments", "room", "seasons", "printing", "referee"}
    tables = {m._meta.db_table for m in installed.get_models(include_auto_created=True) if m._meta.app_label in ours}
    found = {}
    with conn.cursor() as cursor:
        for table in sorted(tables & set(conn.introspection.table_names(cursor))):
            if conn.vendor == "sqlite":  # Django's SQLite introspection cannot parse some of these tables' SQL
                columns = {(row[1], not row[3]) for row in cursor.execute(f"PRAGMA table_info({table})")}
                keys = {((row[3],), (row[2], row[4])) for row in cursor.execute(f"PRAGMA foreign_key_list({table})")}
                for index in list(cursor.execute(f"PRAGMA index_list({table})")):
                    if index[2]:  # unique
                        keys.add((tuple(r[2] for r in cursor.execute(f"PRAGMA index_info({index[1]})")), ()))
            else:
                columns = {(c.name, bool(c.null_ok)) for c in conn.introspection.get_table_description(cursor, table)}
                keys = {(tuple(c["columns"]), tuple(c["foreign_key"] or ()))
                        for c in conn.introspection.get_constraints(cursor, table).values()
                        if c["foreign_key"] or (c["unique"] and not c["primary_key"])}
            found[table] = (columns, keys)
    return found


def test_events_draw_and_room_move_keeping_tables_rows_and_permissions():
    apps = start_at(connection, BEFORE, fresh=True)
    try:
        User = apps.get_model("auth", "User")
        Tournament = apps.get_model("tournaments", "Tournament")
        Pair = apps.get_model("tournaments", "Pair")
        Round = apps.get_model("tournaments", "Round")
        Match = apps.get_model("scoring", "Match")
        Player = apps.get_model("people", "Player")
        org = User.objects.create(username="org")
        old_types = {model: ContentType.objects.get_or_create(app_label=app, model=model)[0].pk
                     for app, model in [("tournaments", "tournament"), ("tournaments", "round"), ("scoring", "match"),
                                        ("tournaments", "matchcall")]}
        t = Tournament.objects.create(name="T", slug="t", date=datetime.date(2026, 5, 1), organizer=org)
        ana, bia, caio, dani = (Player.objects.create(name=n) for n in ("Ana", "Bia", "Caio", "Dani"))
        a = Pair.objects.create(tournament=t, name="A", first_player=ana, second_player=bia)
        b = Pair.objects.create(tournament=t, name="B", first_player=caio, second_player=dani)
        r = Round.objects.create(tournament=t, number=1)
        m = Match.objects.create(tournament=t, round=r, pair_a=a, pair_b=b, rule_set={}, table=3)
        apps.get_model("tournaments", "MatchCall").objects.create(match=m, tournament=t, table=3)
        dup = Player.objects.create(name="Ana S.")
        merge = apps.get_model("people", "PlayerMerge").objects.create(  # undoing it must find the pairs' keys
            kept=ana, duplicate=dup, reason="same", merged_by=org,
            moved={"tournaments.pair.first_player": [a.pk], "scoring.signature.player": [],
                   "tournaments.pushsubscription.player": []})

        apps = migrate_to(connection, latest())
        Match = apps.get_model("draw", "Match")
        moved = Match.objects.get(pk=m.pk)
        assert (moved.table, moved.pair_a.name, moved.round.number, moved.tournament.slug) == (3, "A", 1, "t")
        assert Match._meta.get_field("tournament").related_model is apps.get_model("events", "Tournament")
        assert apps.get_model("scoring", "Game")._meta.get_field("match").related_model is Match
        assert apps.get_model("referee", "Ruling")._meta.get_field("match").related_model is Match
        MatchCall = apps.get_model("room", "MatchCall")
        assert MatchCall._meta.get_field("match").related_model is Match
        assert MatchCall.objects.get(match_id=m.pk).table == 3
        assert {ContentType.objects.get(pk=pk).app_label for pk in old_types.values()} == {"events", "draw", "room"}
        assert apps.get_model("people", "PlayerMerge").objects.get(pk=merge.pk).moved == {
            "events.pair.first_player": [a.pk], "scoring.signature.player": [],
            "room.pushsubscription.player": []}
        upgraded = schema(connection)
        assert {"tournaments_tournament", "tournaments_round", "scoring_match"} <= set(upgraded)
        assert len(upgraded) >= 50  # every table of ours
    finally:
        back_to_latest(connection)
    fresh = schema(connection)
    assert upgraded == fresh
