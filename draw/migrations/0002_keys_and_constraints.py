"""The draw's foreign keys and constraints, as they already are in the tables (state only)."""
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('draw', '0001_initial'),
        ('events', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    state_operations = [
        migrations.AddField(
            model_name='auditentry',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='events.tournament'),
        ),
        migrations.AddField(
            model_name='bracketnode',
            name='bottom_pair',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair'),
        ),
        migrations.AddField(
            model_name='bracketnode',
            name='top_pair',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair'),
        ),
        migrations.AddField(
            model_name='bracketnode',
            name='winner',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair'),
        ),
        migrations.AddField(
            model_name='bye',
            name='pair',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='byes', to='events.pair', verbose_name='pair'),
        ),
        migrations.AddField(
            model_name='checkin',
            name='checked_in_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='checkin',
            name='pair',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='events.pair', verbose_name='pair'),
        ),
        migrations.AddField(
            model_name='groupmember',
            name='pair',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='group_memberships', to='events.pair'),
        ),
        migrations.AddField(
            model_name='match',
            name='created_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by'),
        ),
        migrations.AddField(
            model_name='match',
            name='pair_a',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='matches_as_a', to='events.pair', verbose_name='pair A (team 0)'),
        ),
        migrations.AddField(
            model_name='match',
            name='pair_b',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='matches_as_b', to='events.pair', verbose_name='pair B (team 1)'),
        ),
        migrations.AddField(
            model_name='match',
            name='received_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='received by'),
        ),
        migrations.AddField(
            model_name='match',
            name='referee',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='refereed_matches', to=settings.AUTH_USER_MODEL, verbose_name='referee'),
        ),
        migrations.AddField(
            model_name='match',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='matches', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AddField(
            model_name='bracketnode',
            name='match',
            field=models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='bracket_node', to='draw.match'),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='match',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='draw.match'),
        ),
        migrations.AddField(
            model_name='result',
            name='absent',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair', verbose_name='absent pair'),
        ),
        migrations.AddField(
            model_name='result',
            name='match',
            field=models.OneToOneField(on_delete=django.db.models.deletion.PROTECT, related_name='tournament_result', to='draw.match'),
        ),
        migrations.AddField(
            model_name='result',
            name='pair_a',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair'),
        ),
        migrations.AddField(
            model_name='result',
            name='pair_b',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair'),
        ),
        migrations.AddField(
            model_name='result',
            name='recorded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='result',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results', to='events.tournament'),
        ),
        migrations.AddField(
            model_name='result',
            name='winner',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair', verbose_name='winner'),
        ),
        migrations.AddField(
            model_name='round',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rounds', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AddField(
            model_name='match',
            name='round',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='matches', to='draw.round', verbose_name='round'),
        ),
        migrations.AddField(
            model_name='checkin',
            name='round',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='draw.round', verbose_name='round'),
        ),
        migrations.AddField(
            model_name='bye',
            name='round',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='byes', to='draw.round', verbose_name='round'),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='round',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='draw.round'),
        ),
        migrations.AddField(
            model_name='stage',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stages', to='events.tournament', verbose_name='tournament'),
        ),
        migrations.AddField(
            model_name='round',
            name='stage',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='rounds', to='draw.stage', verbose_name='stage'),
        ),
        migrations.AddField(
            model_name='groupmember',
            name='stage',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='group_members', to='draw.stage'),
        ),
        migrations.AddField(
            model_name='bracketnode',
            name='stage',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='bracket_nodes', to='draw.stage'),
        ),
        migrations.AddField(
            model_name='tableassignment',
            name='referee',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='table_assignments', to=settings.AUTH_USER_MODEL, verbose_name='referee'),
        ),
        migrations.AddField(
            model_name='tableassignment',
            name='round',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='table_assignments', to='draw.round'),
        ),
        migrations.AddField(
            model_name='tableassignment',
            name='tournament',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='table_assignments', to='events.tournament'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.CheckConstraint(condition=models.Q(('kind__in', ['sumula', 'walkover', 'manual', 'double_walkover'])), name='result_kind_valid'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.CheckConstraint(condition=models.Q(('pair_a', models.F('pair_b')), _negated=True), name='result_two_different_pairs'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('winner', models.F('pair_a')), ('games_a__gt', models.F('games_b'))), models.Q(('winner', models.F('pair_b')), ('games_b__gt', models.F('games_a'))), models.Q(('kind', 'double_walkover'), ('winner__isnull', True), ('games_a', 0), ('games_b', 0), ('points_a', 0), ('points_b', 0)), _connector='OR'), name='result_winner_won_more_games', violation_error_message='The winner is one of the two pairs and won more games.'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'walkover'), ('absent__isnull', False), models.Q(('absent', models.F('winner')), _negated=True), models.Q(('absent', models.F('pair_a')), ('absent', models.F('pair_b')), _connector='OR')), models.Q(models.Q(('kind', 'walkover'), _negated=True), ('absent__isnull', True)), _connector='OR'), name='result_walkover_names_the_absent_pair', violation_error_message='A walkover names the absent pair, which loses it.'),
        ),
        migrations.AddConstraint(
            model_name='result',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('kind', 'manual'), _negated=True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='result_manual_has_reason', violation_error_message='A result set by hand needs a reason.'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('pair_a', models.F('pair_b')), _negated=True), name='match_two_different_pairs', violation_error_message='A match is played between two different pairs.'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('best_of__in', [1, 3, 5])), name='match_best_of_1_3_5', violation_error_message='A match is played to the best of 1, 3 or 5 games.'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('table__isnull', True), ('table__gte', 1), _connector='OR'), name='match_table_positive', violation_error_message='Tables are numbered from 1.'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('round__isnull', True), ('tournament__isnull', False), _connector='OR'), name='match_round_needs_tournament', violation_error_message='A friendly has no round.'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('winner__isnull', True), ('winner__in', [0, 1]), _connector='OR'), name='match_winner_team', violation_error_message='The winner is team 0 or team 1.'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('status', 'open'), ('winner__isnull', False), _connector='OR'), name='match_signed_has_winner', violation_error_message='Only a finished match can be signed (art. 25).'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status', 'received'), _negated=True), ('received_at__isnull', False), _connector='OR'), name='match_received_has_time', violation_error_message='A received súmula records when it was received.'),
        ),
        migrations.AddConstraint(
            model_name='checkin',
            constraint=models.UniqueConstraint(fields=('round', 'pair'), name='check_in_once_per_round', violation_error_message='This pair is already checked in for this round.'),
        ),
        migrations.AddConstraint(
            model_name='bye',
            constraint=models.UniqueConstraint(fields=('round', 'pair'), name='bye_once_per_round', violation_error_message='This pair already has the bye in this round.'),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('action__in', ['pairing_changed', 'result_set', 'tables_swapped', 'pair_withdrawn', 'pair_reinstated', 'qualifiers_adjusted']), _negated=True), models.Q(('reason', ''), _negated=True), _connector='OR'), name='audit_override_has_reason', violation_error_message='A manual override needs a reason.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.UniqueConstraint(fields=('tournament', 'position'), name='stage_unique_position', violation_error_message='This tournament already has a stage at this position.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('position__gte', 1)), name='stage_position_positive'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('best_of__isnull', True), ('best_of__in', [1, 3, 5]), _connector='OR'), name='stage_best_of_1_3_5', violation_error_message='A match is played to the best of 1, 3 or 5 games.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('third_place_best_of__isnull', True), ('third_place_best_of__in', [1, 3, 5]), _connector='OR'), name='stage_third_place_best_of_1_3_5', violation_error_message='A match is played to the best of 1, 3 or 5 games.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('legs__in', [1, 2])), name='stage_legs_1_or_2'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('swiss_order__in', ['fold', 'neighbour'])), name='stage_swiss_order_valid'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('qualification__in', ['overall', 'per_group'])), name='stage_qualification_valid'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('qualify_from__gte', 1)), name='stage_qualify_from_positive'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('format__in', ['single_elimination', 'double_elimination', 'round_robin', 'swiss', 'groups_knockout'])), name='stage_format_valid'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('seeding__in', ['order', 'rating', 'lot', 'players'])), name='stage_seeding_valid'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('group_count__gte', 1)), name='stage_group_count_positive', violation_error_message='A round robin has at least one group.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('qualifiers_per_group__gte', 1)), name='stage_qualifiers_positive', violation_error_message='At least one pair per group qualifies.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('swiss_rounds__isnull', True), ('swiss_rounds__gte', 1), _connector='OR'), name='stage_swiss_rounds_positive', violation_error_message='A Swiss has at least one round.'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('lot_seed__isnull', True), ('lot_seed__gte', 0), _connector='OR'), name='stage_lot_seed_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='stage',
            constraint=models.CheckConstraint(condition=models.Q(('standings_lot_seed__gte', 0)), name='stage_standings_seed_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='round_unique_number_per_tournament', violation_error_message='This tournament already has a round with this number.'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='round_number_positive', violation_error_message='Rounds are numbered from 1.'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('phase__in', ['', 'groups', 'swiss', 'bracket'])), name='round_phase_valid'),
        ),
        migrations.AddConstraint(
            model_name='round',
            constraint=models.CheckConstraint(condition=models.Q(('phase', ''), ('generated_at__isnull', False), _connector='OR'), name='round_phase_once_paired'),
        ),
        migrations.AddConstraint(
            model_name='groupmember',
            constraint=models.UniqueConstraint(fields=('stage', 'pair'), name='group_member_one_group_per_pair'),
        ),
        migrations.AddConstraint(
            model_name='groupmember',
            constraint=models.UniqueConstraint(fields=('stage', 'group', 'number'), name='group_member_unique_number'),
        ),
        migrations.AddConstraint(
            model_name='groupmember',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='group_member_number_positive'),
        ),
        migrations.AddConstraint(
            model_name='bracketnode',
            constraint=models.UniqueConstraint(fields=('stage', 'code'), name='bracket_node_unique_code'),
        ),
        migrations.AddConstraint(
            model_name='bracketnode',
            constraint=models.CheckConstraint(condition=models.Q(('section__in', ['winners', 'losers', 'grand_final', 'third_place', 'classification'])), name='bracket_node_section_valid'),
        ),
        migrations.AddConstraint(
            model_name='bracketnode',
            constraint=models.CheckConstraint(condition=models.Q(('level__gte', 1)), name='bracket_node_level_positive'),
        ),
        migrations.AddConstraint(
            model_name='bracketnode',
            constraint=models.CheckConstraint(condition=models.Q(('top_pair__isnull', True), ('bottom_pair__isnull', True), models.Q(('top_pair', models.F('bottom_pair')), _negated=True), _connector='OR'), name='bracket_node_two_different_pairs'),
        ),
        migrations.AddConstraint(
            model_name='bracketnode',
            constraint=models.CheckConstraint(condition=models.Q(('winner__isnull', True), ('winner', models.F('top_pair')), ('winner', models.F('bottom_pair')), _connector='OR'), name='bracket_node_winner_plays'),
        ),
        migrations.AddConstraint(
            model_name='bracketnode',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('top_seed__isnull', True), ('top_source', ''), _connector='OR'), models.Q(('bottom_seed__isnull', True), ('bottom_source', ''), _connector='OR')), name='bracket_node_slot_seed_or_source'),
        ),
        migrations.AddConstraint(
            model_name='tableassignment',
            constraint=models.CheckConstraint(condition=models.Q(('table__gte', 1)), name='table_assignment_table_positive', violation_error_message='Tables are numbered from 1.'),
        ),
        migrations.AddConstraint(
            model_name='tableassignment',
            constraint=models.UniqueConstraint(condition=models.Q(('round__isnull', True)), fields=('tournament', 'table'), name='table_assignment_unique_table', violation_error_message='This table already has a referee for every round.'),
        ),
        migrations.AddConstraint(
            model_name='tableassignment',
            constraint=models.UniqueConstraint(condition=models.Q(('round__isnull', False)), fields=('tournament', 'round', 'table'), name='table_assignment_unique_table_per_round', violation_error_message='This table already has a referee in this round.'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
