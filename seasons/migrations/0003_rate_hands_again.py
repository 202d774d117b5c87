"""The ``hands`` rating method now scales the match result by the hands' tentos
(draw/pairing/ratings.py) instead of rating every hand as a contest: a history rated by the
former method under the same name is dropped (derived rows only: the official results stay), so
the next sync (after the next result, the hourly check, or ``manage.py sync_ratings``) rates every
match again by the method as it is now."""
from django.db import migrations


def drop_hands_history(apps, schema_editor):
    apps.get_model("seasons", "RatedResult").objects.filter(method="hands").delete()
    apps.get_model("seasons", "RatingEntry").objects.filter(method="hands").delete()


class Migration(migrations.Migration):
    dependencies = [("seasons", "0002_circuit_seals")]
    operations = [migrations.RunPython(drop_hands_history, migrations.RunPython.noop)]
