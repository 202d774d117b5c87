"""What moved to ``events`` and ``draw`` leaves tournaments' state; what stays repoints its keys
(state only: tables, rows and constraints are unchanged)."""
import django.db.models.deletion
from config.model_moves import content_types_moved
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('draw', '0002_keys_and_constraints'),
        ('events', '0001_initial'),
        ('referee', '0009_keys_to_events_and_draw'),
        ('scoring', '0021_match_to_draw'),
        ('tournaments', '0028_help_texts_by_subject'),
    ]

    state_operations = [
        migrations.RemoveField(
            model_name='bracketnode',
            name='bottom_pair',
        ),
        migrations.RemoveField(
            model_name='bracketnode',
            name='match',
        ),
        migrations.RemoveField(
            model_name='bracketnode',
            name='stage',
        ),
        migrations.RemoveField(
            model_name='bracketnode',
            name='top_pair',
        ),
        migrations.RemoveField(
            model_name='bracketnode',
            name='winner',
        ),
        migrations.RemoveField(
            model_name='bye',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='bye',
            name='round',
        ),
        migrations.RemoveField(
            model_name='checkin',
            name='checked_in_by',
        ),
        migrations.RemoveField(
            model_name='checkin',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='checkin',
            name='round',
        ),
        migrations.RemoveField(
            model_name='coorganizer',
            name='added_by',
        ),
        migrations.RemoveField(
            model_name='coorganizer',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='coorganizer',
            name='user',
        ),
        migrations.RemoveField(
            model_name='groupmember',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='groupmember',
            name='stage',
        ),
        migrations.RemoveField(
            model_name='organizerinvitation',
            name='created_by',
        ),
        migrations.RemoveField(
            model_name='organizerinvitation',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='organizerinvitation',
            name='used_by',
        ),
        migrations.RemoveField(
            model_name='pair',
            name='first_player',
        ),
        migrations.RemoveField(
            model_name='pair',
            name='second_player',
        ),
        migrations.RemoveField(
            model_name='pair',
            name='substitute',
        ),
        migrations.RemoveField(
            model_name='pair',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='result',
            name='pair_b',
        ),
        migrations.RemoveField(
            model_name='signup',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='result',
            name='absent',
        ),
        migrations.AlterField(
            model_name='flightmember',
            name='pair',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='flight_member', to='events.pair'),
        ),
        migrations.AlterField(
            model_name='pushsubscription',
            name='pair',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to='events.pair', verbose_name='pair'),
        ),
        migrations.RemoveField(
            model_name='result',
            name='winner',
        ),
        migrations.RemoveField(
            model_name='result',
            name='pair_a',
        ),
        migrations.AlterField(
            model_name='circuitplacing',
            name='pair',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair'),
        ),
        migrations.RemoveField(
            model_name='result',
            name='match',
        ),
        migrations.RemoveField(
            model_name='result',
            name='recorded_by',
        ),
        migrations.RemoveField(
            model_name='result',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='round',
            name='stage',
        ),
        migrations.RemoveField(
            model_name='round',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='tableassignment',
            name='round',
        ),
        migrations.RemoveField(
            model_name='signup',
            name='approved_by',
        ),
        migrations.RemoveField(
            model_name='signup',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='signupplayer',
            name='signup',
        ),
        migrations.RemoveField(
            model_name='signupplayer',
            name='player',
        ),
        migrations.RemoveField(
            model_name='signupsettings',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='stage',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='tableassignment',
            name='referee',
        ),
        migrations.RemoveField(
            model_name='tableassignment',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='tournament',
            name='organizer',
        ),
        migrations.AlterField(
            model_name='tablecard',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_cards', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='ratedresult',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.tournament'),
        ),
        migrations.AlterField(
            model_name='circuitstage',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='circuit_stages', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='flight',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='flights', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='roomsettings',
            name='tournament',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='room', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AlterField(
            model_name='matchcall',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='match_calls', to='events.tournament'),
        ),
        migrations.AlterField(
            model_name='callnotice',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='draw.match'),
        ),
        migrations.AlterField(
            model_name='matchcall',
            name='match',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='call', to='draw.match', verbose_name='match'),
        ),
        migrations.AlterField(
            model_name='ratedresult',
            name='match',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='draw.match'),
        ),
        migrations.AlterField(
            model_name='ratingentry',
            name='match',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='draw.match'),
        ),
        migrations.DeleteModel(
            name='AuditEntry',
        ),
        migrations.DeleteModel(
            name='BracketNode',
        ),
        migrations.DeleteModel(
            name='Bye',
        ),
        migrations.DeleteModel(
            name='CheckIn',
        ),
        migrations.DeleteModel(
            name='CoOrganizer',
        ),
        migrations.DeleteModel(
            name='GroupMember',
        ),
        migrations.DeleteModel(
            name='OrganizerInvitation',
        ),
        migrations.DeleteModel(
            name='Pair',
        ),
        migrations.DeleteModel(
            name='Result',
        ),
        migrations.DeleteModel(
            name='Round',
        ),
        migrations.DeleteModel(
            name='SignUp',
        ),
        migrations.DeleteModel(
            name='SignUpPlayer',
        ),
        migrations.DeleteModel(
            name='SignUpSettings',
        ),
        migrations.DeleteModel(
            name='Stage',
        ),
        migrations.DeleteModel(
            name='TableAssignment',
        ),
        migrations.DeleteModel(
            name='Tournament',
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('tournaments', 'draw', ['stage', 'groupmember', 'bracketnode', 'round', 'bye', 'checkin', 'tableassignment', 'result', 'auditentry']), elidable=False),
    ]
