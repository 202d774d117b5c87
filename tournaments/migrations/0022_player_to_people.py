"""The player moved to ``people``: the pairs' foreign keys point to ``people.Player``
and ``tournaments.Player`` leaves the state; the table ``tournaments_player``, its rows and every
constraint on it stay (state only). After scoring's and referee's own repointing, so no state ever
holds a foreign key to a model that is gone."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("people", "0001_initial"),
        ("referee", "0008_player_to_people"),
        ("scoring", "0018_player_to_people"),
        ("tournaments", "0021_audit_actions_merged"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="pair",
                    name="first_player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player", verbose_name="first player"),
                ),
                migrations.AlterField(
                    model_name="pair",
                    name="second_player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player", verbose_name="second player"),
                ),
                migrations.AlterField(
                    model_name="pair",
                    name="substitute",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player", verbose_name="substitute"),
                ),
                migrations.AlterField(
                    model_name="signupplayer",
                    name="player",
                    field=models.ForeignKey(blank=True, help_text="The existing identity, proved with its PIN.", null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="people.player"),
                ),
                migrations.AlterField(
                    model_name="ratingentry",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="rating_entries", to="people.player"),
                ),
                migrations.DeleteModel(name="Player"),
            ],
            database_operations=[],
        ),
    ]
