"""The player moved to ``people``: the foreign keys point to ``people.Player`` in the
state; the database is untouched (same table, ``tournaments_player``, same constraints)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("people", "0001_initial"),
        ("referee", "0007_ruling_message_data"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="ruling",
                    name="claimed_by_player",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player", verbose_name="claimed by player"),
                ),
                migrations.AlterField(
                    model_name="appeal",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player", verbose_name="filed by"),
                ),
            ],
            database_operations=[],
        ),
    ]
