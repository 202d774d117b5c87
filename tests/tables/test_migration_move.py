"""The table channel moves from ``scoring`` and ``tournaments`` to ``tables`` by state-only migrations:
the tables (``scoring_tablelink``, ``scoring_idempotencyrecord``, ``scoring_entryconflict``,
``tournaments_tablecard``, ``tournaments_linkaddress``) and their rows stay, the hand's and referee's
keys to the link follow it, the content types follow; an upgraded database ends with the same schema as
one made fresh (tests/draw/test_migration_move.py's comparison). Slow: one trip up the migrations."""
import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.draw.test_migration_move import latest, schema
from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0025_seal_key_in_use_owner_only"), ("tournaments", "0033_circuits_of_organizations"),
          ("referee", "0010_call_withdrawn")]
MOVED = [("scoring", "tablelink"), ("scoring", "idempotencyrecord"), ("scoring", "entryconflict"),
         ("tournaments", "tablecard"), ("tournaments", "linkaddress")]


def test_the_table_channel_moves_keeping_tables_rows_and_content_types():
    apps = start_at(connection, BEFORE, fresh=True)
    try:
        User = apps.get_model("auth", "User")
        Player = apps.get_model("people", "Player")
        Pair = apps.get_model("events", "Pair")
        org = User.objects.create(username="org")
        old_types = {model: ContentType.objects.get_or_create(app_label=app, model=model)[0].pk for app, model in MOVED}
        t = apps.get_model("events", "Tournament").objects.create(name="T", slug="t", date=datetime.date(2026, 5, 1),
                                                                  organizer=org)
        ana, bia, caio, dani = (Player.objects.create(name=n) for n in ("Ana", "Bia", "Caio", "Dani"))
        a = Pair.objects.create(tournament=t, name="A", first_player=ana, second_player=bia)
        b = Pair.objects.create(tournament=t, name="B", first_player=caio, second_player=dani)
        r = apps.get_model("draw", "Round").objects.create(tournament=t, number=1)
        m = apps.get_model("draw", "Match").objects.create(tournament=t, round=r, pair_a=a, pair_b=b, rule_set={},
                                                            table=3)
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
        apps.get_model("tournaments", "LinkAddress").objects.create(tournament=t, site_url="http://192.168.0.10:8140")

        apps = migrate_to(connection, latest())
        TableLink = apps.get_model("tables", "TableLink")
        assert TableLink.objects.get(pk=link.pk).match_id == m.pk
        assert apps.get_model("scoring", "HandEntry").objects.get(pk=hand.pk).table_link.token == "a" * 32
        assert apps.get_model("scoring", "HandEntry")._meta.get_field("table_link").related_model is TableLink
        assert apps.get_model("referee", "RefereeCall")._meta.get_field("table_link").related_model is TableLink
        assert apps.get_model("tables", "EntryConflict").objects.get(pk=conflict.pk).table_link_id == link.pk
        assert apps.get_model("tables", "IdempotencyRecord").objects.get(key="k-1").status == 201
        assert apps.get_model("tables", "TableCard").objects.get(pk=card.pk).token == "b" * 32
        assert apps.get_model("tables", "LinkAddress").objects.get(tournament=t.pk).site_url.endswith(":8140")
        assert {ContentType.objects.get(pk=pk).app_label for pk in old_types.values()} == {"tables"}
        upgraded = schema(connection)
        assert {"scoring_tablelink", "scoring_entryconflict", "tournaments_tablecard"} <= set(upgraded)
    finally:
        back_to_latest(connection)
    fresh = schema(connection)
    assert upgraded == fresh
