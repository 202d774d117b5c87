"""The player moved to ``people``: the foreign keys point to ``people.Player`` in the
state; the database is untouched (same table, ``tournaments_player``, same constraints)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("people", "0001_initial"),
        ("scoring", "0017_api_tokens"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="signature",
                    name="player",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="signatures", to="people.player", verbose_name="player"),
                ),
                migrations.AlterField(
                    model_name="signingcode",
                    name="used_by",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player"),
                ),
            ],
            database_operations=[],
        ),
    ]
