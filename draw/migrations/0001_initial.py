"""The draw moves to ``draw``: stages, groups, bracket nodes, rounds, byes, check-ins, table
assignments, results and the audit log from ``tournaments``, the match from ``scoring``. State only:
the tables (``tournaments_round``, ``scoring_match``, …), their rows, constraints and append-only
triggers stay where they are. The content types follow."""
import django.db.models.deletion
import django.utils.timezone
import draw.models.stages
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('tournaments', '0028_help_texts_by_subject'),
        ('scoring', '0020_matchevent_match_at_index'),
        ('events', '0001_initial'),
        ('contenttypes', '0002_remove_content_type_name'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.CreateModel(
            name='BracketNode',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('code', models.CharField(max_length=16, verbose_name='code')),
                ('section', models.CharField(choices=[('winners', "Winners' bracket"), ('losers', "Losers' bracket"), ('grand_final', 'Grand final'), ('third_place', 'Third-place match'), ('classification', 'Places 5 to 8')], max_length=14, verbose_name='section')),
                ('bracket_round', models.PositiveSmallIntegerField(verbose_name='bracket round')),
                ('position', models.PositiveIntegerField(verbose_name='position')),
                ('level', models.PositiveSmallIntegerField(help_text='1 for the first round played.', verbose_name='play order')),
                ('top_seed', models.PositiveIntegerField(blank=True, null=True)),
                ('bottom_seed', models.PositiveIntegerField(blank=True, null=True)),
                ('top_source', models.CharField(blank=True, max_length=16)),
                ('top_takes', models.CharField(blank=True, max_length=6)),
                ('bottom_source', models.CharField(blank=True, max_length=16)),
                ('bottom_takes', models.CharField(blank=True, max_length=6)),
                ('top_bye', models.BooleanField(default=False)),
                ('bottom_bye', models.BooleanField(default=False)),
                ('unplayed', models.BooleanField(default=False)),
            ],
            options={
                'verbose_name': 'bracket match',
                'verbose_name_plural': 'bracket matches',
                'db_table': 'tournaments_bracketnode',
                'ordering': ['stage', 'level', 'section', 'bracket_round', 'position'],
            },
        ),
        migrations.CreateModel(
            name='Bye',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
            ],
            options={
                'verbose_name': 'bye',
                'verbose_name_plural': 'byes',
                'db_table': 'tournaments_bye',
                'ordering': ['round', 'pair'],
            },
        ),
        migrations.CreateModel(
            name='CheckIn',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('checked_in_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='checked in at')),
            ],
            options={
                'verbose_name': 'check-in',
                'verbose_name_plural': 'check-ins',
                'db_table': 'tournaments_checkin',
                'ordering': ['round', 'checked_in_at', 'id'],
            },
        ),
        migrations.CreateModel(
            name='GroupMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('group', models.PositiveSmallIntegerField(verbose_name='group (0 = A)')),
                ('number', models.PositiveSmallIntegerField(verbose_name='pairing number')),
            ],
            options={
                'verbose_name': 'group member',
                'verbose_name_plural': 'group members',
                'db_table': 'tournaments_groupmember',
                'ordering': ['stage', 'group', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Match',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='table')),
                ('rule_set', models.JSONField(verbose_name='rule set')),
                ('best_of', models.PositiveSmallIntegerField(default=1, verbose_name='best of')),
                ('status', models.CharField(choices=[('open', 'Open'), ('signed', 'Signed (locked)'), ('received', 'Received')], default='open', max_length=10, verbose_name='status')),
                ('winner', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='winner (team)')),
                ('games_a', models.PositiveSmallIntegerField(default=0, verbose_name='games won by team 0')),
                ('games_b', models.PositiveSmallIntegerField(default=0, verbose_name='games won by team 1')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created at')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('signed_at', models.DateTimeField(blank=True, null=True, verbose_name='signed at')),
                ('received_at', models.DateTimeField(blank=True, null=True, verbose_name='received at')),
                ('time_up_at', models.DateTimeField(blank=True, help_text="Set by the tournament's room when the match starts (its time limit); the entry applies the end-of-time procedure after it.", null=True, verbose_name='time limit ends at')),
                ('end_of_time', models.CharField(blank=True, choices=[('', 'No procedure'), ('higher_score', 'Finish the hand in play; then the higher score wins'), ('one_more_hand', 'Finish the hand in play, then play one more hand'), ('eleven_all', 'Finish the game in play; the remaining games start at 11×11')], default='', max_length=16, verbose_name='end-of-time procedure')),
            ],
            options={
                'verbose_name': 'match',
                'verbose_name_plural': 'matches',
                'db_table': 'scoring_match',
                'ordering': ['-created_at', '-id'],
            },
        ),
        migrations.CreateModel(
            name='Result',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('sumula', 'Súmula received'), ('walkover', 'Walkover (W.O.)'), ('manual', 'Set by the organizer'), ('double_walkover', 'Double walkover (both absent, no winner)')], max_length=16, verbose_name='kind')),
                ('games_a', models.PositiveSmallIntegerField(default=0)),
                ('games_b', models.PositiveSmallIntegerField(default=0)),
                ('points_a', models.PositiveIntegerField(default=0)),
                ('points_b', models.PositiveIntegerField(default=0)),
                ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                ('recorded_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='recorded at')),
                ('sumula_version', models.PositiveIntegerField(blank=True, null=True)),
                ('server_seal', models.CharField(blank=True, default='', max_length=100)),
                ('server_key', models.CharField(blank=True, default='', max_length=16)),
            ],
            options={
                'verbose_name': 'result',
                'verbose_name_plural': 'results',
                'db_table': 'tournaments_result',
                'ordering': ['tournament', 'match'],
            },
        ),
        migrations.CreateModel(
            name='Round',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField(verbose_name='number')),
                ('name', models.CharField(blank=True, max_length=80, verbose_name='name')),
                ('phase', models.CharField(blank=True, choices=[('groups', 'Round robin'), ('swiss', 'Swiss'), ('bracket', 'Bracket')], max_length=10, verbose_name='phase')),
                ('generated_at', models.DateTimeField(blank=True, help_text='Empty while the round is only open for check-in.', null=True, verbose_name='paired at')),
                ('lot_seed', models.BigIntegerField(blank=True, help_text='The seed of the draw made for this round, when it was drawn by lot.', null=True, verbose_name='lot seed')),
                ('unavoided', models.JSONField(blank=True, default=list, help_text='Pairs sharing an avoid tag that meet in this round (or share a group of its draw): no pairing kept them apart.', verbose_name='pairings that could not be avoided')),
            ],
            options={
                'verbose_name': 'round',
                'verbose_name_plural': 'rounds',
                'db_table': 'tournaments_round',
                'ordering': ['tournament', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Stage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('position', models.PositiveSmallIntegerField(default=1, verbose_name='position')),
                ('name', models.CharField(blank=True, max_length=80, verbose_name='name')),
                ('format', models.CharField(choices=[('single_elimination', 'Single elimination'), ('double_elimination', 'Double elimination'), ('round_robin', 'Round robin'), ('swiss', 'Swiss system'), ('groups_knockout', 'Groups then knockout')], max_length=20, verbose_name='format')),
                ('seeding', models.CharField(choices=[('order', "Organizer's order"), ('rating', 'Rating'), ('lot', 'Lot'), ('players', "Players' ratings (from their official matches)")], default='order', max_length=10, verbose_name='seeding')),
                ('lot_seed', models.BigIntegerField(blank=True, null=True, verbose_name='lot seed of the draw')),
                ('third_place', models.BooleanField(default=False, verbose_name='third-place match')),
                ('classification', models.BooleanField(default=False, help_text='A single elimination of 8 or more: the quarterfinal losers play for places 5 to 8 beside the semifinals and the final.', verbose_name='places 5 to 8 played')),
                ('grand_final_reset', models.BooleanField(default=True, verbose_name='grand-final reset')),
                ('group_count', models.PositiveSmallIntegerField(default=1, verbose_name='groups')),
                ('qualifiers_per_group', models.PositiveSmallIntegerField(default=2, verbose_name='qualifiers per group')),
                ('swiss_rounds', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='Swiss rounds')),
                ('swiss_order', models.CharField(choices=[('fold', 'Top half against bottom half'), ('neighbour', 'Neighbours (1-2, 3-4)')], default='fold', max_length=10, verbose_name='Swiss pairing in a score group')),
                ('legs', models.PositiveSmallIntegerField(default=1, help_text='2: a double round robin (every pair meets every other twice).', verbose_name='legs')),
                ('best_of', models.PositiveSmallIntegerField(blank=True, help_text="Games per match in this stage (1, 3 or 5); empty: the tournament's.", null=True, verbose_name='match format')),
                ('third_place_best_of', models.PositiveSmallIntegerField(blank=True, help_text="Games in the third-place match (1, 3 or 5); empty: the stage's, not the final's.", null=True, verbose_name='third-place match format')),
                ('round_best_of', models.JSONField(blank=True, default=dict, help_text='Round of the stage (1, 2, ...; -1 the final round, -2 the one before) to games per match, e.g. {"-2": 3, "-1": 3}.', verbose_name='match format per round')),
                ('qualification', models.CharField(choices=[('overall', "Top of the previous stage's standings"), ('per_group', 'Top of each group')], default='overall', max_length=10, verbose_name='qualifiers')),
                ('qualifiers', models.PositiveSmallIntegerField(blank=True, help_text='Top N of the previous stage (overall); with groups, the best N of the next place across groups.', null=True, verbose_name='qualifiers')),
                ('qualify_from', models.PositiveSmallIntegerField(default=1, help_text='5 with 4 qualifiers: the pairs placed 5th to 8th.', verbose_name='from place')),
                ('unequal_groups', models.CharField(choices=[('drop_last', 'Leave out the results against the last of the larger groups'), ('per_match', 'Every result, per match played')], default='drop_last', help_text='How pairs of one place in groups of different sizes are compared (the best thirds...).', max_length=10, verbose_name='groups of different sizes')),
                ('entrants', models.JSONField(blank=True, default=list, verbose_name='entrants')),
                ('entrants_adjusted', models.BooleanField(default=False, help_text='The organizer chose the qualifiers (with a reason in the audit log).', verbose_name='qualifiers adjusted by hand')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('tiebreaks', models.JSONField(default=draw.models.stages.default_tiebreaks, verbose_name='tiebreak order')),
                ('standings_lot_seed', models.BigIntegerField(default=draw.models.stages.new_lot_seed, verbose_name='lot seed of the standings')),
                ('walkover_scores', models.BooleanField(default=False, help_text='Off: a walkover counts as a match won and nothing else.', verbose_name='walkovers count games and points')),
                ('bye_value', models.CharField(choices=[('win', 'A match won'), ('draw', "Half: a draw's points"), ('nothing', 'Nothing (a rest)')], default='win', help_text="A round without an opponent: a match won (FIDE's pairing bye), half, or nothing.", max_length=8, verbose_name='a bye is worth')),
                ('bye_played', models.BooleanField(default=True, help_text='On: a bye is in the matches played and won (drawn, lost), so P = W + L.', verbose_name='a bye counts as a match played')),
                ('avoid_rounds', models.PositiveSmallIntegerField(blank=True, help_text='Pairs sharing an avoid tag (club, family) are kept apart when possible in the group draw and the Swiss rounds up to this one; empty: every round.', null=True, verbose_name='keep club mates apart until round')),
                ('withdrawn_last', models.BooleanField(default=True, help_text='On: a withdrawn or disqualified pair ranks below every pair still in, whatever it had won.', verbose_name='withdrawn pairs last')),
                ('bracket_seeds', models.JSONField(blank=True, default=list, verbose_name='bracket seeds')),
                ('bracket_first_round', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='first bracket round')),
                ('updated_at', models.DateTimeField(auto_now=True, verbose_name='updated at')),
            ],
            options={
                'verbose_name': 'stage',
                'verbose_name_plural': 'stages',
                'db_table': 'tournaments_stage',
                'ordering': ['tournament', 'position'],
            },
        ),
        migrations.CreateModel(
            name='TableAssignment',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table', models.PositiveSmallIntegerField(verbose_name='table')),
            ],
            options={
                'verbose_name': 'table assignment',
                'verbose_name_plural': 'table assignments',
                'db_table': 'tournaments_tableassignment',
                'ordering': ['tournament', 'round', 'table'],
            },
        ),
        migrations.CreateModel(
            name='AuditEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('stage_configured', 'Format configured'), ('pair_registered', 'Pair registered'), ('pair_updated', 'Pair updated'), ('pairs_imported', 'Pairs imported'), ('pair_withdrawn', 'Pair withdrawn'), ('round_generated', 'Round generated'), ('round_regenerated', 'Round regenerated'), ('bracket_advanced', 'Bracket advanced'), ('pairing_changed', 'Pairing changed by hand'), ('result_set', 'Result set by hand'), ('tables_swapped', 'Tables swapped'), ('walkover', 'Walkover recorded'), ('referee_assigned', 'Referee assigned to a table'), ('result_official', 'Súmula result made official'), ('result_ignored', 'Súmula result not applied'), ('pair_reinstated', 'Withdrawal undone'), ('stage_started', 'Stage started'), ('qualifiers_adjusted', 'Qualifiers adjusted by hand'), ('referee_invited', 'Referee invited by link'), ('invitation_revoked', "Referee's invitation revoked"), ('invitation_used', "Referee's invitation used"), ('pair_disqualified', 'Pair disqualified'), ('placing_overridden', 'Final place set by hand'), ('flights_set', 'Categories set'), ('match_called', 'Match called to a table'), ('room_configured', 'Room options saved'), ('push_revoked', "Phones notified of a pair's calls cleared"), ('co_organizer_added', 'Co-organizer added'), ('co_organizer_gone', 'Co-organizer removed'), ('organizer_invited', 'Co-organizer invited by link'), ('signup_configured', 'Sign-up options saved'), ('signup_approved', 'Sign-up approved'), ('signup_refused', 'Sign-up refused'), ('pair_deleted', 'Pair deleted (registered by mistake)'), ('result_undone', 'Result by hand undone')], max_length=20, verbose_name='action')),
                ('reason', models.CharField(blank=True, max_length=300, verbose_name='reason')),
                ('before', models.JSONField(blank=True, null=True, verbose_name='before')),
                ('after', models.JSONField(blank=True, null=True, verbose_name='after')),
                ('at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='at')),
                ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
            ],
            options={
                'verbose_name': 'audit entry',
                'verbose_name_plural': 'audit entries',
                'db_table': 'tournaments_auditentry',
                'ordering': ['tournament', 'at', 'id'],
            },
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
