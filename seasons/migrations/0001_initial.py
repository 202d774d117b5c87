"""Circuits, ratings and categories move from ``tournaments`` to ``seasons``: state only. The tables
(``tournaments_circuit``, ``tournaments_ratingentry``, …) and their rows stay where they are, and no
other app has a key to them; ``tournaments`` 0034 drops the old models from its state. The content
types follow, and so do the player merges that repointed rating rows (their ``moved`` keys name the
model's app, for an undo)."""
import django.db.models.deletion
import seasons.models
from config.model_moves import content_types_moved
from django.conf import settings
from django.db import migrations, models


MOVED_KEYS = {"tournaments.ratingentry.": "seasons.ratingentry."}


def relabel_merges(apps, schema_editor, keys=MOVED_KEYS):
    """A player merge records the rows it repointed by ``app.model.field`` (``people.services.merges``),
    so undoing it finds them: the rating rows' keys name their new app."""
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
            name='RatingChange',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('match', models.BigIntegerField(null=True)),
                ('tournament', models.BigIntegerField(null=True)),
            ],
            options={
                'verbose_name': 'rating change',
                'verbose_name_plural': 'rating changes',
                'db_table': 'tournaments_ratingchange',
            },
        ),
        migrations.CreateModel(
            name='RatingSync',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('checked_at', models.DateTimeField(null=True)),
            ],
            options={
                'verbose_name': 'ratings sync',
                'verbose_name_plural': 'ratings syncs',
                'db_table': 'tournaments_ratingsync',
            },
        ),
        migrations.CreateModel(
            name='Circuit',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('slug', models.SlugField(max_length=140, unique=True, verbose_name='slug')),
                ('season', models.CharField(blank=True, max_length=40, verbose_name='season')),
                ('points', models.JSONField(default=seasons.models.default_circuit_points, help_text='The points of the 1st, 2nd, 3rd... places, never increasing.', verbose_name='points per final place')),
                ('beyond_points', models.PositiveIntegerField(default=0, help_text="The points of every place after the table's last.", verbose_name='points past the table')),
                ('best_of', models.PositiveSmallIntegerField(blank=True, help_text="Only each player's best N stages count; empty: every stage.", null=True, verbose_name='stages counted')),
                ('escalation_across_stages', models.BooleanField(default=False, help_text="A pair's confirmed rulings in the circuit's other stages count for the escalation policy (warning, tento, match loss: art. 26) as if made in this tournament.", verbose_name='escalation counts across the stages')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                ('organization', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='circuits', to='events.organization', verbose_name='organization')),
                ('organizer', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='circuits', to=settings.AUTH_USER_MODEL, verbose_name='organizer')),
            ],
            options={
                'verbose_name': 'circuit',
                'verbose_name_plural': 'circuits',
                'db_table': 'tournaments_circuit',
                'ordering': ['-created_at', 'name'],
            },
        ),
        migrations.CreateModel(
            name='CircuitStage',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField(verbose_name='stage number')),
                ('final_at', models.DateTimeField(blank=True, null=True, verbose_name='placings final at')),
                ('circuit', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='stages', to='seasons.circuit', verbose_name='circuit')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='circuit_stages', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'circuit stage',
                'verbose_name_plural': 'circuit stages',
                'db_table': 'tournaments_circuitstage',
                'ordering': ['circuit', 'number'],
            },
        ),
        migrations.CreateModel(
            name='CircuitPlacing',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('place', models.PositiveSmallIntegerField(verbose_name='final place')),
                ('pair', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to='events.pair')),
                ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='placings', to='seasons.circuitstage')),
            ],
            options={
                'db_table': 'tournaments_circuitplacing',
                'ordering': ['stage', 'place', 'pair'],
            },
        ),
        migrations.CreateModel(
            name='Flight',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=40, verbose_name='name')),
                ('position', models.PositiveSmallIntegerField(verbose_name='order')),
                ('min_rating', models.IntegerField(blank=True, null=True, verbose_name='minimum rating')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='flights', to='events.tournament', verbose_name='tournament')),
            ],
            options={
                'verbose_name': 'category',
                'verbose_name_plural': 'categories',
                'db_table': 'tournaments_flight',
                'ordering': ['tournament', 'position'],
            },
        ),
        migrations.CreateModel(
            name='FlightMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('by_rating', models.IntegerField(blank=True, null=True, verbose_name='rating when placed')),
                ('flight', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='members', to='seasons.flight')),
                ('pair', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='flight_member', to='events.pair')),
            ],
            options={
                'db_table': 'tournaments_flightmember',
            },
        ),
        migrations.CreateModel(
            name='RatedResult',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('sequence', models.PositiveIntegerField(unique=True)),
                ('method', models.CharField(max_length=10)),
                ('date', models.DateField()),
                ('stage', models.PositiveIntegerField()),
                ('round', models.PositiveIntegerField()),
                ('table', models.PositiveIntegerField()),
                ('match_pair_a', models.BigIntegerField()),
                ('pair_a', models.BigIntegerField()),
                ('pair_a_first', models.BigIntegerField()),
                ('pair_a_second', models.BigIntegerField()),
                ('pair_b_first', models.BigIntegerField()),
                ('pair_b_second', models.BigIntegerField()),
                ('winner', models.BigIntegerField()),
                ('points_a', models.PositiveIntegerField()),
                ('points_b', models.PositiveIntegerField()),
                ('kind', models.CharField(max_length=16)),
                ('sumula_version', models.PositiveIntegerField()),
                ('match', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='draw.match')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='events.tournament')),
            ],
            options={
                'verbose_name': 'rated result',
                'verbose_name_plural': 'rated results',
                'db_table': 'tournaments_ratedresult',
                'ordering': ['sequence'],
            },
        ),
        migrations.CreateModel(
            name='RatingEntry',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('sequence', models.PositiveIntegerField()),
                ('method', models.CharField(max_length=10)),
                ('mu', models.FloatField()),
                ('sigma', models.FloatField()),
                ('rating', models.IntegerField(verbose_name='rating')),
                ('date', models.DateField()),
                ('fingerprint', models.CharField(max_length=16)),
                ('match', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='draw.match')),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rating_entries', to='people.player')),
            ],
            options={
                'verbose_name': 'rating entry',
                'verbose_name_plural': 'rating entries',
                'db_table': 'tournaments_ratingentry',
                'ordering': ['player', 'sequence'],
            },
        ),
        migrations.CreateModel(
            name='RatingMethodChoice',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('method', models.CharField(max_length=10, verbose_name='rating method')),
                ('previous', models.CharField(max_length=10, verbose_name='previous method')),
                ('chosen_at', models.DateTimeField(auto_now_add=True, verbose_name='chosen at')),
                ('chosen_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='chosen by')),
            ],
            options={
                'verbose_name': 'rating method choice',
                'verbose_name_plural': 'rating method choices',
                'db_table': 'tournaments_ratingmethodchoice',
                'ordering': ['-chosen_at', '-pk'],
            },
        ),
        migrations.AddConstraint(
            model_name='circuit',
            constraint=models.CheckConstraint(condition=models.Q(('best_of__isnull', True), ('best_of__gte', 1), _connector='OR'), name='circuit_best_of_positive'),
        ),
        migrations.AddConstraint(
            model_name='circuitstage',
            constraint=models.UniqueConstraint(fields=('circuit', 'tournament'), name='circuit_stage_tournament_once'),
        ),
        migrations.AddConstraint(
            model_name='circuitstage',
            constraint=models.UniqueConstraint(fields=('circuit', 'number'), name='circuit_stage_number_once'),
        ),
        migrations.AddConstraint(
            model_name='circuitstage',
            constraint=models.CheckConstraint(condition=models.Q(('number__gte', 1)), name='circuit_stage_number_positive'),
        ),
        migrations.AddConstraint(
            model_name='circuitplacing',
            constraint=models.UniqueConstraint(fields=('stage', 'pair'), name='circuit_placing_pair_once'),
        ),
        migrations.AddConstraint(
            model_name='circuitplacing',
            constraint=models.CheckConstraint(condition=models.Q(('place__gte', 1)), name='circuit_placing_place_positive'),
        ),
        migrations.AddConstraint(
            model_name='flight',
            constraint=models.UniqueConstraint(fields=('tournament', 'name'), name='flight_name_once'),
        ),
        migrations.AddConstraint(
            model_name='flight',
            constraint=models.UniqueConstraint(fields=('tournament', 'position'), name='flight_position_once'),
        ),
        migrations.AddIndex(
            model_name='ratedresult',
            index=models.Index(fields=['date'], name='rated_result_date'),
        ),
        migrations.AddIndex(
            model_name='ratingentry',
            index=models.Index(fields=['sequence'], name='rating_entry_sequence'),
        ),
        migrations.AddIndex(
            model_name='ratingentry',
            index=models.Index(fields=['player', 'sequence'], name='rating_entry_player_sequence'),
        ),
        migrations.AddConstraint(
            model_name='ratingentry',
            constraint=models.UniqueConstraint(fields=('player', 'match'), name='rating_entry_once_per_match'),
        ),
        migrations.AddConstraint(
            model_name='ratingmethodchoice',
            constraint=models.CheckConstraint(condition=models.Q(('method__in', ['match', 'margin', 'hands'])), name='rating_method_choice_known'),
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('tournaments', 'seasons', ['circuit', 'circuitstage', 'circuitplacing', 'ratingentry', 'ratedresult', 'ratingchange', 'ratingsync', 'flight', 'flightmember', 'ratingmethodchoice']), elidable=False),
        migrations.RunPython(relabel_merges, relabel_merges_back, elidable=False),
    ]
