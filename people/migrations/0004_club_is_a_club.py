"""The free-text club is gone (0003 made clubs of it); ``club`` is the foreign key to the player's club."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [("people", "0003_free_text_clubs")]

    operations = [
        migrations.RemoveField(model_name="player", name="club"),
        migrations.RenameField(model_name="player", old_name="club_ref", new_name="club"),
        migrations.AlterField(
            model_name="player",
            name="club",
            field=models.ForeignKey(blank=True, help_text="The club the player plays for now.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="players", to="people.club", verbose_name="club"),
        ),
    ]
