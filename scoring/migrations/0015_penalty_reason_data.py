# a ruling's penalty stores its reason as data (key and parameters of referee.engine.messages),
# rendered in the reader's language with the pairs' names. Entries recorded before keep {} and show their
# reason as written.
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scoring", "0014_merge_0013_entry_conflicts_0013_seal_key_in_use"),
    ]

    operations = [
        migrations.AddField(
            model_name="penaltyentry",
            name="reason_data",
            field=models.JSONField(blank=True, default=dict, verbose_name="reason as data"),
        ),
    ]
