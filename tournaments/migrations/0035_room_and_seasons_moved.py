"""Joins the two moves out of this app's state: the room's models to ``room`` and the season's
(circuits, ratings, categories) to ``seasons``; neither touches the database."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0034_room_models_to_room"),
        ("tournaments", "0034_season_models_to_seasons"),
    ]

    operations = []
