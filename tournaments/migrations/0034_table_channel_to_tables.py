"""The cards of the physical tables and the address they were printed from leave tournaments' state
(``tables.TableCard``, ``tables.LinkAddress`` now; the tables ``tournaments_tablecard`` and
``tournaments_linkaddress`` stay); the content types follow."""
from config.model_moves import content_types_moved
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0001_initial'),
        ('tournaments', '0033_circuits_of_organizations'),
    ]

    state_operations = [
        migrations.DeleteModel(
            name='LinkAddress',
        ),
        migrations.DeleteModel(
            name='TableCard',
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('tournaments', 'tables', ['tablecard', 'linkaddress']),
                             elidable=False),
    ]
