# a ruling's message stored as data (key and parameters of referee.engine.messages), rendered in
# the reader's language with the pairs' names. Rulings recorded before keep {} and show their text as written.
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("referee", "0006_merge_claim_branches"),
    ]

    operations = [
        migrations.AddField(
            model_name="ruling",
            name="message_data",
            field=models.JSONField(blank=True, default=dict, verbose_name="message as data"),
        ),
    ]
