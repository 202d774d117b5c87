"""Joins the three moves out of this app's state: the room's models to ``room``, the season's
(circuits, ratings, categories) to ``seasons`` and the table cards to ``tables``; none touches the
database."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0034_room_models_to_room"),
        ("tournaments", "0034_season_models_to_seasons"),
        ("tournaments", "0034_table_channel_to_tables"),
    ]

    operations = []
