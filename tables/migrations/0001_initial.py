"""The table channel moves to ``tables``: a match's table links, the idempotency keys and the
conflicts between a table's phones from ``scoring``, the cards of the physical tables and the address
they were printed from from ``tournaments``. State only: the tables (``scoring_tablelink``,
``scoring_idempotencyrecord``, ``scoring_entryconflict``, ``tournaments_tablecard``,
``tournaments_linkaddress``), their rows, constraints and indexes stay where they are; ``referee`` 0011
and ``scoring`` 0026 repoint their keys to the link, ``scoring`` 0026 and ``tournaments`` 0034 drop the
old models from their state and the content types follow."""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('draw', '0002_keys_and_constraints'),
        ('events', '0004_organizations_of_organizers'),
        ('scoring', '0025_seal_key_in_use_owner_only'),
        ('tournaments', '0030_link_address'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name='IdempotencyRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('credential', models.CharField(max_length=80)),
                ('key', models.CharField(max_length=255)),
                ('request_hash', models.CharField(max_length=64)),
                ('status', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('content_type', models.CharField(blank=True, max_length=100)),
                ('body', models.TextField(blank=True)),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now)),
            ],
            options={
                'verbose_name': 'idempotency key',
                'verbose_name_plural': 'idempotency keys',
                'db_table': 'scoring_idempotencyrecord',
                'constraints': [models.UniqueConstraint(fields=('credential', 'key'), name='idempotency_one_per_credential_key')],
            },
        ),
        migrations.CreateModel(
            name='LinkAddress',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('site_url', models.CharField(max_length=200, verbose_name='site address')),
                ('printed_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='printed at')),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='link_address', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'address of the printed links',
                'verbose_name_plural': 'addresses of the printed links',
                'db_table': 'tournaments_linkaddress',
            },
        ),
        migrations.CreateModel(
            name='TableLink',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token', models.CharField(max_length=64, unique=True, verbose_name='token')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                ('closed_as', models.CharField(blank=True, choices=[('', 'revoked or reissued'), ('walkover', 'W.O. (art. 26)'), ('result', 'result set by the organizer (art. 26)'), ('received', 'súmula received (art. 25)')], default='', max_length=10, verbose_name='closed as')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_links', to='draw.match', verbose_name='match')),
                ('revoked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'table link',
                'verbose_name_plural': 'table links',
                'db_table': 'scoring_tablelink',
                'ordering': ['match', '-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='EntryConflict',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(max_length=10)),
                ('game', models.PositiveSmallIntegerField()),
                ('position', models.PositiveSmallIntegerField()),
                ('sent', models.JSONField(blank=True, default=dict)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('settled_at', models.DateTimeField(blank=True, null=True)),
                ('settled_how', models.CharField(blank=True, max_length=10)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entry_conflicts', to='draw.match')),
                ('settled_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('table_link', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tables.tablelink')),
            ],
            options={
                'verbose_name': 'entry conflict',
                'verbose_name_plural': 'entry conflicts',
                'db_table': 'scoring_entryconflict',
            },
        ),
        migrations.CreateModel(
            name='TableCard',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table', models.PositiveSmallIntegerField(verbose_name='table')),
                ('token', models.CharField(max_length=64, unique=True, verbose_name='token')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('revoked_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_cards', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'table card',
                'verbose_name_plural': 'table cards',
                'db_table': 'tournaments_tablecard',
                'ordering': ['tournament', 'table', '-created_at', '-id'],
                'constraints': [models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('tournament', 'table'), name='table_card_one_active_per_table'), models.CheckConstraint(condition=models.Q(('table__gte', 1)), name='table_card_table_positive', violation_error_message='Tables are numbered from 1.'), models.CheckConstraint(condition=models.Q(('token__regex', '^[A-Za-z0-9_-]{20,64}$')), name='table_card_token_shape')],
            },
        ),
        migrations.AddConstraint(
            model_name='tablelink',
            constraint=models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('match',), name='table_link_one_active_per_match'),
        ),
        migrations.AddConstraint(
            model_name='tablelink',
            constraint=models.CheckConstraint(condition=models.Q(('token__regex', '^[A-Za-z0-9_-]{20,64}$')), name='table_link_token_shape'),
        ),
        migrations.AddIndex(
            model_name='entryconflict',
            index=models.Index(condition=models.Q(('settled_at__isnull', True)), fields=['match'], name='entry_conflict_pending'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
