"""Referee's foreign keys follow the tournament to ``events`` and the match to ``draw`` (state only)."""
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('draw', '0001_initial'),
        ('events', '0001_initial'),
        ('referee', '0008_player_to_people'),
    ]

    state_operations = [
        migrations.AlterField(
            model_name='escalationpolicy',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='escalation_policies', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='refereecall',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='referee_calls', to='draw.match', verbose_name='match'),
        ),
        migrations.AlterField(
            model_name='refereeinvitation',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='referee_invitations', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='refereesettings',
            name='tournament',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='referee_settings', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='ruling',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='rulings', to='draw.match', verbose_name='match'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
