"""The event and who is in it move from ``tournaments`` to ``events``: state only. The tables
(``tournaments_tournament``, ``tournaments_pair``, …) and their rows stay where they are; ``draw``
0002, ``scoring`` 0021, ``tournaments`` 0029 and ``referee`` 0009 repoint their foreign keys, and
``tournaments`` 0029 drops the old models from its state. The content types follow."""
import django.db.models.deletion
import django.utils.timezone
import events.models.tournament
from django.conf import settings
from config.model_moves import content_types_moved
from django.db import migrations, models


MOVED_KEYS = {"tournaments.pair.": "events.pair.", "tournaments.signupplayer.": "events.signupplayer."}


def relabel_merges(apps, schema_editor, keys=MOVED_KEYS):
    """A player merge records the rows it repointed by ``app.model.field`` (``people.services.merges``),
    so undoing it finds them: the pairs' and sign-ups' keys name their new app."""
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
        ('tournaments', '0028_help_texts_by_subject'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('people', '0004_club_is_a_club'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name='Pair',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('status', models.CharField(choices=[('pending', 'Awaiting confirmation'), ('confirmed', 'Confirmed'), ('withdrawn', 'Withdrawn')], default='confirmed', max_length=10, verbose_name='registration')),
                ('rating', models.PositiveIntegerField(blank=True, null=True, verbose_name='rating')),
                ('seed', models.PositiveIntegerField(blank=True, help_text="The organizer's order: 1 is the top seed.", null=True, verbose_name='seed')),
                ('registered_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='registered at')),
                ('withdrawn_at', models.DateTimeField(blank=True, null=True, verbose_name='withdrawn at')),
                ('withdrawal_reason', models.CharField(blank=True, max_length=300, verbose_name='reason for withdrawal')),
                ('disqualified', models.BooleanField(default=False, help_text="Withdrawn by the organizer's decision (a disqualification), not of its own accord.", verbose_name='disqualified')),
                ('avoid_tags', models.CharField(blank=True, help_text='Club, family...: comma separated. Pairs sharing one are kept apart in the Swiss rounds and the group draw when possible.', max_length=200, verbose_name='avoid meeting')),
                ('first_player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='people.player', verbose_name='first player')),
                ('second_player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='people.player', verbose_name='second player')),
                ('substitute', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='people.player', verbose_name='substitute')),
            ],
            options={
                'verbose_name': 'pair',
                'verbose_name_plural': 'pairs',
                'db_table': 'tournaments_pair',
                'ordering': ['tournament', 'name'],
            },
        ),
        migrations.CreateModel(
            name='Tournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('slug', models.SlugField(max_length=140, unique=True, verbose_name='slug')),
                ('venue', models.CharField(blank=True, max_length=200, verbose_name='venue')),
                ('date', models.DateField(verbose_name='date')),
                ('status', models.CharField(choices=[('draft', 'Draft'), ('registration', 'Registration open'), ('in_progress', 'In progress'), ('finished', 'Finished')], default='draft', max_length=20, verbose_name='status')),
                ('rule_set', models.JSONField(default=events.models.tournament.default_rule_set, help_text='A preset and its named variant options, e.g. {"preset": "regulamento-tecnico", "options": {}}.', verbose_name='rule set')),
                ('best_of', models.PositiveSmallIntegerField(choices=[(1, 'Single game'), (3, 'Best of 3 games'), (5, 'Best of 5 games')], default=1, verbose_name='match format')),
                ('check_in_required', models.BooleanField(default=False, help_text='Only the pairs checked in for a round are drawn or paired in it.', verbose_name='check-in required')),
                ('placing_overrides', models.JSONField(blank=True, default=dict, help_text='Pair id to {"place": n, "reason": "..."}: the organizer\'s decision, audited.', verbose_name='final places set by hand')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('organizer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='organized_tournaments', to=settings.AUTH_USER_MODEL, verbose_name='organizer')),
            ],
            options={
                'verbose_name': 'tournament',
                'verbose_name_plural': 'tournaments',
                'db_table': 'tournaments_tournament',
                'ordering': ['-date', 'name'],
            },
        ),
        migrations.CreateModel(
            name='SignUpSettings',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('open', models.BooleanField(default=False, verbose_name='sign-up open on the public page')),
                ('pair_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='limit of pairs')),
                ('waiting_list', models.BooleanField(default=True, help_text='Past the limit, pairs wait in order and take the place of a pair that withdraws.', verbose_name='waiting list')),
                ('deadline', models.DateTimeField(blank=True, null=True, verbose_name='sign-up deadline')),
                ('approval_required', models.BooleanField(default=False, help_text='Otherwise a pair is registered as soon as both players confirm.', verbose_name='the organizer approves each pair')),
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='signup_settings', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'sign-up settings',
                'verbose_name_plural': 'sign-up settings',
                'db_table': 'tournaments_signupsettings',
            },
        ),
        migrations.CreateModel(
            name='SignUp',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('pair_name', models.CharField(max_length=120, verbose_name="pair's name")),
                ('submission', models.CharField(editable=False, help_text="The form's one-time key: a second send of the same form is this row.", max_length=64, unique=True)),
                ('client', models.CharField(editable=False, help_text='A keyed digest of the sender (rate limit).', max_length=64)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('approved_at', models.DateTimeField(blank=True, null=True, verbose_name='approved at')),
                ('ready_at', models.DateTimeField(blank=True, help_text='Confirmed (and approved): its place in the waiting list.', null=True, verbose_name='ready at')),
                ('refused_at', models.DateTimeField(blank=True, null=True, verbose_name='refused at')),
                ('refusal_reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                ('approved_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                ('pair', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='signup', to='events.pair', verbose_name='pair')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='signups', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'sign-up',
                'verbose_name_plural': 'sign-ups',
                'db_table': 'tournaments_signup',
                'ordering': ['tournament', 'created_at', 'id'],
            },
        ),
        migrations.AddField(
            model_name='pair',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pairs', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.CreateModel(
            name='OrganizerInvitation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('token_hash', models.CharField(editable=False, max_length=64, unique=True)),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('expires_at', models.DateTimeField(verbose_name='expires at')),
                ('used_at', models.DateTimeField(blank=True, null=True, verbose_name='used at')),
                ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                ('created_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='invited by')),
                ('used_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='used by')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='organizer_invitations', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'organizer invitation',
                'verbose_name_plural': 'organizer invitations',
                'db_table': 'tournaments_organizerinvitation',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='CoOrganizer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('added_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='added at')),
                ('added_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='added by')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='co_organizer_roles', to=settings.AUTH_USER_MODEL, verbose_name='user')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='co_organizers', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'co-organizer',
                'verbose_name_plural': 'co-organizers',
                'db_table': 'tournaments_coorganizer',
                'ordering': ['tournament', 'added_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='SignUpPlayer',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField()),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('nickname', models.CharField(blank=True, max_length=60, verbose_name='nickname')),
                ('club', models.CharField(blank=True, max_length=120, verbose_name='club')),
                ('contact', models.CharField(blank=True, max_length=200, verbose_name='contact')),
                ('namesake', models.BooleanField(default=False, help_text='Named like a registered player, without their PIN.')),
                ('token_hash', models.CharField(editable=False, max_length=64, unique=True)),
                ('confirmed_at', models.DateTimeField(blank=True, null=True, verbose_name='confirmed at')),
                ('confirmed_via', models.CharField(blank=True, choices=[('link', 'link'), ('pin', 'PIN')], max_length=4)),
                ('player', models.ForeignKey(blank=True, help_text='The existing identity, proved with its PIN.', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='people.player')),
                ('signup', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='players', to='events.signup')),
            ],
            options={
                'db_table': 'tournaments_signupplayer',
                'ordering': ['signup', 'position'],
                'constraints': [models.UniqueConstraint(fields=('signup', 'position'), name='signup_player_once')],
            },
        ),
        migrations.AddConstraint(
            model_name='tournament',
            constraint=models.CheckConstraint(condition=models.Q(('best_of__in', [1, 3, 5])), name='tournament_best_of_1_3_5', violation_error_message='A match is played to the best of 1, 3 or 5 games.'),
        ),
        migrations.AddConstraint(
            model_name='signupsettings',
            constraint=models.CheckConstraint(condition=models.Q(('pair_limit__isnull', True), ('pair_limit__gte', 2), _connector='OR'), name='signup_limit_at_least_two', violation_error_message='A limit of pairs is at least 2.'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.UniqueConstraint(fields=('tournament', 'name'), name='pair_unique_name_per_tournament', violation_error_message='This tournament already has a pair with this name.'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.CheckConstraint(condition=models.Q(('first_player', models.F('second_player')), _negated=True), name='pair_two_different_players', violation_error_message='A pair needs two different players.'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.CheckConstraint(condition=models.Q(('substitute__isnull', True), models.Q(models.Q(('substitute', models.F('first_player')), _negated=True), models.Q(('substitute', models.F('second_player')), _negated=True)), _connector='OR'), name='pair_substitute_not_a_partner', violation_error_message='The substitute cannot be one of the two partners.'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.CheckConstraint(condition=models.Q(('status__in', ['pending', 'confirmed', 'withdrawn'])), name='pair_status_valid'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'withdrawn'), ('withdrawn_at__isnull', False), models.Q(('withdrawal_reason', ''), _negated=True)), models.Q(models.Q(('status', 'withdrawn'), _negated=True), ('withdrawn_at__isnull', True), ('withdrawal_reason', '')), _connector='OR'), name='pair_withdrawal_has_time_and_reason', violation_error_message='A withdrawn pair records when and why it withdrew.'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.CheckConstraint(condition=models.Q(('seed__isnull', True), ('seed__gte', 1), _connector='OR'), name='pair_seed_positive', violation_error_message='Seeds are numbered from 1.'),
        ),
        migrations.AddConstraint(
            model_name='pair',
            constraint=models.UniqueConstraint(condition=models.Q(('seed__isnull', False)), fields=('tournament', 'seed'), name='pair_unique_seed_per_tournament', violation_error_message='Another pair of this tournament has this seed.'),
        ),
        migrations.AddConstraint(
            model_name='coorganizer',
            constraint=models.UniqueConstraint(fields=('tournament', 'user'), name='co_organizer_once'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('tournaments', 'events', ['tournament', 'pair', 'coorganizer', 'organizerinvitation', 'signupsettings', 'signup', 'signupplayer']), elidable=False),
        migrations.RunPython(relabel_merges, relabel_merges_back, elidable=False),
    ]
