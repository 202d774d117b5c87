"""Every move by concern, by state-only migrations: the player from ``tournaments`` to ``people`` (then
the free-text clubs become clubs, and back), the event from ``tournaments`` to ``events``, the draw
(with the match, from ``scoring``) to ``draw``, then the room (options, calls, notices) to ``room``,
circuits, ratings and categories to ``seasons``, the table channel (links, cards, conflicts,
idempotency) to ``tables`` and print jobs to ``printing``. The tables and their rows stay, every
foreign key follows, the content types and the player merges' recorded keys follow; an upgraded
database ends with the same schema as one made fresh. One trip up the migrations from nothing for all
of them (they are slow: each trip from nothing cost 25-80 s of a test process), run on SQLite and on
PostgreSQL by CI."""
import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tables import cards as table_cards
from tables import links as table_links
from tables import token_keys
from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

PLAYER_BEFORE = [("contenttypes", "0002_remove_content_type_name"), ("tournaments", "0021_audit_actions_merged"),
                 ("people", None)]
PLAYER_MOVED = [("tournaments", "0022_player_to_people"), ("people", "0001_initial")]
PLAYER_AFTER = [("tournaments", "0022_player_to_people"), ("people", "0004_club_is_a_club")]
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


def _the_player_moves_to_people_then_clubs_and_back(apps) -> None:
    """The player from ``tournaments`` to ``people`` (the table ``tournaments_player`` and its rows stay,
    every foreign key follows), then the free-text clubs become ``Club`` rows with memberships
    (people 0003), and all of it backwards."""
    User = apps.get_model("auth", "User")
    Tournament = apps.get_model("tournaments", "Tournament")
    Player = apps.get_model("tournaments", "Player")
    Pair = apps.get_model("tournaments", "Pair")
    org = User.objects.create(username="org-players")
    old_type, _ = ContentType.objects.get_or_create(app_label="tournaments", model="player")
    t = Tournament.objects.create(name="P", slug="players", date=datetime.date(2026, 5, 1), organizer=org)
    ana = Player.objects.create(name="Ana", nickname="Aninha", club="Clube do Truco", contact="ana@x", entered_by=org)
    bia = Player.objects.create(name="Bia", club="clube do  trúco")  # the same club, spelled otherwise
    caio = Player.objects.create(name="Caio", club="Outro Clube")
    Player.objects.create(name="Dani")  # no club
    pair = Pair.objects.create(tournament=t, name="Ana/Bia", first_player=ana, second_player=bia)

    apps = migrate_to(connection, PLAYER_MOVED)
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

    apps = migrate_to(connection, PLAYER_AFTER)  # the free-text clubs become clubs
    Player = apps.get_model("people", "Player")
    Club = apps.get_model("people", "Club")
    assert sorted(Club.objects.values_list("name", flat=True)) == ["Clube do Truco", "Outro Clube"]
    clubs = {p.name: p.club.name if p.club_id else None for p in Player.objects.select_related("club")}
    assert clubs == {"Ana": "Clube do Truco", "Bia": "Clube do Truco", "Caio": "Outro Clube", "Dani": None}
    memberships = apps.get_model("people", "ClubMembership").objects.all()
    assert sorted((m.player_id, m.since, m.until) for m in memberships) == [
        (ana.pk, None, None), (bia.pk, None, None), (caio.pk, None, None)]

    apps = migrate_to(connection, PLAYER_BEFORE)  # and back: the text again (the club's name), the player in tournaments
    Player = apps.get_model("tournaments", "Player")
    assert {p.name: p.club for p in Player.objects.all()} == {
        "Ana": "Clube do Truco", "Bia": "Clube do Truco", "Caio": "Outro Clube", "Dani": ""}
    assert apps.get_model("tournaments", "Pair").objects.get(pk=pair.pk).second_player_id == bia.pk
    assert ContentType.objects.get(pk=old_type.pk).app_label == "tournaments"


def test_every_move_by_concern_keeps_tables_rows_and_permissions():
    apps = start_at(connection, PLAYER_BEFORE, fresh=True)  # from nothing: cheaper than walking down the history
    try:
        _the_player_moves_to_people_then_clubs_and_back(apps)
        apps = migrate_to(connection, BEFORE)  # then the later moves, on the same database
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
        # the season, the table channel and printing, moved later (seasons, tables, printing 0001)
        circuit = apps.get_model("tournaments", "Circuit").objects.create(name="Circuito", slug="c", organizer=org)
        stage = apps.get_model("tournaments", "CircuitStage").objects.create(circuit=circuit, tournament=t, number=1)
        apps.get_model("tournaments", "CircuitPlacing").objects.create(stage=stage, pair=a, place=1)
        flight = apps.get_model("tournaments", "Flight").objects.create(tournament=t, name="A", position=1)
        apps.get_model("tournaments", "FlightMember").objects.create(flight=flight, pair=a)
        link = apps.get_model("scoring", "TableLink").objects.create(match=m, token="a" * 32)
        game = apps.get_model("scoring", "Game").objects.create(match=m, number=1, first_dealer=0)
        hand = apps.get_model("scoring", "HandEntry").objects.create(
            game=game, position=1, number=1, dealer=0, ended_by="tricks", value=1, winner=0, points=1,
            score_a=1, score_b=0, table_link=link)
        conflict = apps.get_model("scoring", "EntryConflict").objects.create(match=m, table_link=link, kind="hand",
                                                                             game=1, position=2)
        apps.get_model("scoring", "IdempotencyRecord").objects.create(credential=f"table:{link.pk}", key="k-1",
                                                                      request_hash="0" * 64, status=201)
        card = apps.get_model("tournaments", "TableCard").objects.create(tournament=t, table=3, token="b" * 32)
        job = apps.get_model("scoring", "PrintJob").objects.create(kind="blank", status="done", tournament=t, round=r,
                                                                   total=1, done=1, created_by=org)
        job.matches.add(m)
        old_types.update({model: ContentType.objects.get_or_create(app_label=app, model=model)[0].pk
                          for app, model in [("tournaments", "circuit"), ("scoring", "tablelink"),
                                             ("tournaments", "tablecard"), ("scoring", "printjob")]})
        dup = Player.objects.create(name="Ana S.")
        merge = apps.get_model("people", "PlayerMerge").objects.create(  # undoing it must find the pairs' keys
            kept=ana, duplicate=dup, reason="same", merged_by=org,
            moved={"tournaments.pair.first_player": [a.pk], "scoring.signature.player": [],
                   "tournaments.pushsubscription.player": [], "tournaments.ratingentry.player": [7]})

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
        moved_circuit = apps.get_model("seasons", "Circuit").objects.get(pk=circuit.pk)
        assert [(p.pair_id, p.place) for s in moved_circuit.stages.all() for p in s.placings.all()] == [(a.pk, 1)]
        assert apps.get_model("seasons", "FlightMember").objects.get(pair_id=a.pk).flight.name == "A"
        TableLink = apps.get_model("tables", "TableLink")
        # the tokens printed before are kept only as their digest and sealed text (tables 0002), and still open
        moved_link = apps.get_model("scoring", "HandEntry").objects.get(pk=hand.pk).table_link
        assert moved_link.digest == token_keys.digest("a" * 32) and "a" * 32 not in moved_link.sealed
        assert table_links.resolve("a" * 32).pk == link.pk
        assert apps.get_model("scoring", "HandEntry")._meta.get_field("table_link").related_model is TableLink
        assert apps.get_model("referee", "RefereeCall")._meta.get_field("table_link").related_model is TableLink
        assert apps.get_model("tables", "EntryConflict").objects.get(pk=conflict.pk).table_link_id == link.pk
        assert apps.get_model("tables", "IdempotencyRecord").objects.get(key="k-1").status == 201
        assert apps.get_model("tables", "TableCard").objects.get(pk=card.pk).digest == token_keys.digest("b" * 32)
        assert table_cards.resolve("b" * 32).pk == card.pk and table_cards.resolve("b" * 32).token == "b" * 32
        moved_job = apps.get_model("printing", "PrintJob").objects.get(pk=job.pk)
        assert (moved_job.kind, list(moved_job.matches.values_list("pk", flat=True))) == ("blank", [m.pk])
        assert {ContentType.objects.get(pk=pk).app_label for pk in old_types.values()} == {
            "events", "draw", "room", "seasons", "tables", "printing"}
        assert apps.get_model("people", "PlayerMerge").objects.get(pk=merge.pk).moved == {
            "events.pair.first_player": [a.pk], "scoring.signature.player": [],
            "room.pushsubscription.player": [], "seasons.ratingentry.player": [7]}
        upgraded = schema(connection)
        assert {"tournaments_tournament", "tournaments_round", "scoring_match"} <= set(upgraded)
        assert len(upgraded) >= 50  # every table of ours
    finally:
        back_to_latest(connection)
    fresh = schema(connection)
    assert upgraded == fresh
