"""The calls', rulings' and appeals' keys to the table link follow it to ``tables`` (state only: the
columns and their constraints are already right)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0010_call_withdrawn'),
        ('tables', '0001_initial'),
    ]

    state_operations = [
        migrations.AlterField(
            model_name='appeal',
            name='table_link',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.tablelink', verbose_name='table link'),
        ),
        migrations.AlterField(
            model_name='refereecall',
            name='table_link',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tables.tablelink', verbose_name='called through the table link'),
        ),
        migrations.AlterField(
            model_name='ruling',
            name='table_link',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tables.tablelink', verbose_name='table link'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
