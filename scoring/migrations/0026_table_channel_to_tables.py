"""The table channel leaves scoring's state (``tables.TableLink``, ``tables.IdempotencyRecord``,
``tables.EntryConflict`` now; the tables ``scoring_tablelink``, … stay): a hand's key to the link that
entered it follows the link. It waits until ``referee`` has repointed its keys to the link too; the
content types follow."""
import django.db.models.deletion
from config.model_moves import content_types_moved
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0011_keys_to_tables'),
        ('scoring', '0025_seal_key_in_use_owner_only'),
        ('tables', '0001_initial'),
    ]

    state_operations = [
        migrations.AlterField(
            model_name='handentry',
            name='table_link',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.tablelink', verbose_name='entered through the table link'),
        ),
        migrations.DeleteModel(
            name='EntryConflict',
        ),
        migrations.DeleteModel(
            name='IdempotencyRecord',
        ),
        migrations.DeleteModel(
            name='TableLink',
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('scoring', 'tables', ['tablelink', 'idempotencyrecord',
                                                                        'entryconflict']), elidable=False),
    ]
