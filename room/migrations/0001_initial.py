"""The room moves from ``tournaments`` to ``room``: state only. The tables (``tournaments_roomsettings``,
``tournaments_matchcall``, ``tournaments_pushsubscription``, ``tournaments_callnotice``) and their rows stay
where they are; ``tournaments`` 0034 drops the old models from its state. No other app has a key to them.
The content types follow, and so do the player merges that recorded a phone's player key."""
import django.db.models.deletion
import django.utils.timezone
from config.model_moves import content_types_moved
from django.conf import settings
from django.db import migrations, models


MOVED_KEYS = {"tournaments.pushsubscription.": "room.pushsubscription."}


def relabel_merges(apps, schema_editor, keys=MOVED_KEYS):
    """A player merge records the rows it repointed by ``app.model.field`` (``people.services.merges``),
    so undoing it finds them: a phone's player key names its new app."""
    merges = apps.get_model("people", "PlayerMerge").objects.using(schema_editor.connection.alias)
    for merge in merges.all():
        moved = {next((new + key[len(old):] for old, new in keys.items() if key.startswith(old)), key): ids
                 for key, ids in merge.moved.items()}
        if moved != merge.moved:
            merges.filter(pk=merge.pk).update(moved=moved)


def relabel_merges_back(apps, schema_editor):
    relabel_merges(apps, schema_editor, keys={new: old for old, new in MOVED_KEYS.items()})


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0033_circuits_of_organizations'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('draw', '0002_keys_and_constraints'),
        ('events', '0004_organizations_of_organizers'),
        ('people', '0004_club_is_a_club'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name='CallNotice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table', models.PositiveSmallIntegerField(verbose_name='table')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('pushes', models.PositiveSmallIntegerField(default=0, verbose_name='pushes sent')),
                ('emails', models.PositiveSmallIntegerField(default=0, verbose_name='e-mails sent')),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='draw.match')),
            ],
            options={
                'verbose_name': 'call notice',
                'verbose_name_plural': 'call notices',
                'db_table': 'tournaments_callnotice',
                'constraints': [models.UniqueConstraint(fields=('match', 'table'), name='call_notice_once')],
            },
        ),
        migrations.CreateModel(
            name='MatchCall',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table', models.PositiveSmallIntegerField(verbose_name='table')),
                ('called_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='called at')),
                ('automatic', models.BooleanField(default=False, verbose_name='called by itself')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('present_a_at', models.DateTimeField(blank=True, null=True, verbose_name='pair A at the table since')),
                ('present_b_at', models.DateTimeField(blank=True, null=True, verbose_name='pair B at the table since')),
                ('called_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='call', to='draw.match', verbose_name='match')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='match_calls', to='events.tournament')),
            ],
            options={
                'verbose_name': 'match call',
                'verbose_name_plural': 'match calls',
                'db_table': 'tournaments_matchcall',
                'ordering': ['tournament', 'called_at', 'id'],
                'constraints': [models.CheckConstraint(condition=models.Q(('table__gte', 1)), name='match_call_table_positive', violation_error_message='Tables are numbered from 1.')],
            },
        ),
        migrations.CreateModel(
            name='PushSubscription',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('endpoint', models.URLField(max_length=1000, verbose_name='endpoint')),
                ('p256dh', models.CharField(max_length=200, verbose_name='public key')),
                ('auth', models.CharField(max_length=64, verbose_name='authentication secret')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                ('sent_at', models.DateTimeField(blank=True, null=True, verbose_name='last sent at')),
                ('pair', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='push_subscriptions', to='events.pair', verbose_name='pair')),
                ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='people.player', verbose_name='player')),
            ],
            options={
                'verbose_name': 'push subscription',
                'verbose_name_plural': 'push subscriptions',
                'db_table': 'tournaments_pushsubscription',
                'constraints': [models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('pair', 'endpoint'), name='push_subscription_once_per_pair')],
            },
        ),
        migrations.CreateModel(
            name='RoomSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('ready_matches', models.BooleanField(default=False, help_text='Round robins and groups: every match is made at the draw (Berger order) and called to a table as soon as both pairs and a table are free; no table waits for the slowest.', verbose_name='ready matches')),
                ('auto_call', models.BooleanField(default=False, help_text="The next ready match is called to a table as soon as the table's result is official.", verbose_name='call the next match when a table frees')),
                ('tables', models.PositiveSmallIntegerField(blank=True, help_text='Empty: as many as round 1 used.', null=True, verbose_name='tables in the room')),
                ('tolerance_first', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='lateness tolerance, first round (minutes)')),
                ('tolerance_later', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='lateness tolerance, later rounds (minutes)')),
                ('time_limit', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='match time limit (minutes)')),
                ('end_of_time', models.CharField(blank=True, choices=[('', 'No procedure (no time limit)'), ('higher_score', 'Finish the hand in play; then the higher score wins'), ('one_more_hand', 'Finish the hand in play, then play one more hand'), ('eleven_all', 'Finish the game in play; the remaining games start at 11×11')], default='', max_length=16, verbose_name='end-of-time procedure')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='room', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'room settings',
                'verbose_name_plural': 'room settings',
                'db_table': 'tournaments_roomsettings',
                'constraints': [models.CheckConstraint(condition=models.Q(('end_of_time__in', ['', 'higher_score', 'one_more_hand', 'eleven_all'])), name='room_end_of_time_valid'), models.CheckConstraint(condition=models.Q(('tables__isnull', True), ('tables__gte', 1), _connector='OR'), name='room_tables_positive', violation_error_message='Tables are numbered from 1.')],
            },
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('tournaments', 'room', ['roomsettings', 'matchcall', 'pushsubscription', 'callnotice']), elidable=False),
        migrations.RunPython(relabel_merges, relabel_merges_back, elidable=False),
    ]
