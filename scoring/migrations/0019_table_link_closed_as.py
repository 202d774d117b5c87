"""Why a table link was closed: a W.O. (art. 26), an organizer's result, a received súmula
(art. 25), or "" (revoked or reissued by the organizer, and every link closed before this field)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0018_player_to_people"),
    ]

    operations = [
        migrations.AddField(
            model_name="tablelink",
            name="closed_as",
            field=models.CharField(blank=True, choices=[("", "revoked or reissued"), ("walkover", "W.O. (art. 26)"), ("result", "result set by the organizer (art. 26)"), ("received", "súmula received (art. 25)")], default="", max_length=10, verbose_name="closed as"),
        ),
    ]
