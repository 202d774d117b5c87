"""A circuit's option: the referee's escalation policy counts a pair's rulings of the
circuit's other stages (art. 26)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0023_result_undone"),
    ]

    operations = [
        migrations.AddField(
            model_name="circuit",
            name="escalation_across_stages",
            field=models.BooleanField(default=False, help_text="A pair's confirmed rulings in the circuit's other stages count for the escalation policy (warning, tento, match loss: art. 26) as if made in this tournament.", verbose_name="escalation counts across the stages"),
        ),
    ]
