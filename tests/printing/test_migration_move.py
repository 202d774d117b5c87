"""The print job moves from ``scoring`` to ``printing`` by state-only migrations: its tables
(``scoring_printjob``, ``scoring_printjob_matches``) and rows stay, its content type follows; an upgraded
database ends with the same schema as one made fresh (tests/draw/test_migration_move.py's comparison).
Slow: one trip up the migrations."""
import datetime

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection

from tests.draw.test_migration_move import latest, schema
from tests.migrations import back_to_latest, migrate_to, start_at

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0026_table_channel_to_tables")]


def test_the_print_job_moves_keeping_its_tables_rows_and_content_type():
    apps = start_at(connection, BEFORE, fresh=True)
    try:
        User = apps.get_model("auth", "User")
        Player = apps.get_model("people", "Player")
        Pair = apps.get_model("events", "Pair")
        org = User.objects.create(username="org")
        old_type = ContentType.objects.get_or_create(app_label="scoring", model="printjob")[0].pk
        t = apps.get_model("events", "Tournament").objects.create(name="T", slug="t", date=datetime.date(2026, 5, 1),
                                                                  organizer=org)
        ana, bia, caio, dani = (Player.objects.create(name=n) for n in ("Ana", "Bia", "Caio", "Dani"))
        a = Pair.objects.create(tournament=t, name="A", first_player=ana, second_player=bia)
        b = Pair.objects.create(tournament=t, name="B", first_player=caio, second_player=dani)
        r = apps.get_model("draw", "Round").objects.create(tournament=t, number=1)
        m = apps.get_model("draw", "Match").objects.create(tournament=t, round=r, pair_a=a, pair_b=b, rule_set={},
                                                            table=3)
        job = apps.get_model("scoring", "PrintJob").objects.create(kind="blank", status="done", tournament=t, round=r,
                                                                   total=1, done=1, created_by=org,
                                                                   site_url="http://192.168.0.10:8140")
        job.matches.add(m)

        apps = migrate_to(connection, latest())
        moved = apps.get_model("printing", "PrintJob").objects.get(pk=job.pk)
        assert (moved.kind, moved.round_id, moved.site_url) == ("blank", r.pk, "http://192.168.0.10:8140")
        assert list(moved.matches.values_list("pk", flat=True)) == [m.pk]
        assert ContentType.objects.get(pk=old_type).app_label == "printing"
        upgraded = schema(connection)
        assert {"scoring_printjob", "scoring_printjob_matches"} <= set(upgraded)
    finally:
        back_to_latest(connection)
    fresh = schema(connection)
    assert upgraded == fresh
