"""The print job leaves scoring's state (``printing.PrintJob`` now; the tables ``scoring_printjob`` and
``scoring_printjob_matches`` stay); the content type follows."""
from config.model_moves import content_types_moved
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('printing', '0001_initial'),
        ('scoring', '0026_table_channel_to_tables'),
    ]

    state_operations = [
        migrations.DeleteModel(
            name='PrintJob',
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('scoring', 'printing', ['printjob']), elidable=False),
    ]
