"""The súmula's foreign keys follow the match to ``draw`` and the tournament to ``events``
(state only: the columns and their constraints are already right)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('draw', '0002_keys_and_constraints'),
        ('events', '0001_initial'),
        ('scoring', '0020_matchevent_match_at_index'),
    ]

    state_operations = [
        migrations.RemoveField(
            model_name='match',
            name='created_by',
        ),
        migrations.RemoveField(
            model_name='match',
            name='pair_a',
        ),
        migrations.RemoveField(
            model_name='match',
            name='pair_b',
        ),
        migrations.RemoveField(
            model_name='match',
            name='received_by',
        ),
        migrations.RemoveField(
            model_name='match',
            name='referee',
        ),
        migrations.RemoveField(
            model_name='match',
            name='round',
        ),
        migrations.RemoveField(
            model_name='match',
            name='tournament',
        ),
        migrations.AlterField(
            model_name='matchevent',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='events', to='draw.match'),
        ),
        migrations.AlterField(
            model_name='tablelink',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_links', to='draw.match', verbose_name='match'),
        ),
        migrations.AlterField(
            model_name='game',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='games', to='draw.match', verbose_name='match'),
        ),
        migrations.AlterField(
            model_name='signingcode',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='signing_codes', to='draw.match'),
        ),
        migrations.AlterField(
            model_name='entryconflict',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entry_conflicts', to='draw.match'),
        ),
        migrations.AlterField(
            model_name='sumulaversion',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='versions', to='draw.match', verbose_name='match'),
        ),
        migrations.AlterField(
            model_name='printjob',
            name='matches',
            field=models.ManyToManyField(related_name='print_jobs', to='draw.match', verbose_name='matches'),
        ),
        migrations.AlterField(
            model_name='printjob',
            name='round',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='draw.round', verbose_name='round'),
        ),
        migrations.AlterField(
            model_name='printjob',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='print_jobs', to='events.tournament', verbose_name='tournament'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
