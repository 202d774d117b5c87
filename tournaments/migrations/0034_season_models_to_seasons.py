"""Circuits, ratings and categories leave tournaments' state for ``seasons`` (its 0001 creates them
there, with the same tables): state only, the tables and rows stay (docs/architecture.md, "How the
models moved"). Nothing below points to them, so no other app repoints a key."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0033_circuits_of_organizations'),
    ]

    state_operations = [
        migrations.RemoveField(
            model_name='circuit',
            name='organization',
        ),
        migrations.RemoveField(
            model_name='circuit',
            name='organizer',
        ),
        migrations.RemoveField(
            model_name='circuitstage',
            name='circuit',
        ),
        migrations.RemoveField(
            model_name='circuitplacing',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='circuitplacing',
            name='stage',
        ),
        migrations.RemoveField(
            model_name='circuitstage',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='flight',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='flightmember',
            name='flight',
        ),
        migrations.RemoveField(
            model_name='flightmember',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='ratedresult',
            name='match',
        ),
        migrations.RemoveField(
            model_name='ratedresult',
            name='tournament',
        ),
        migrations.DeleteModel(
            name='RatingChange',
        ),
        migrations.RemoveField(
            model_name='ratingentry',
            name='match',
        ),
        migrations.RemoveField(
            model_name='ratingentry',
            name='player',
        ),
        migrations.RemoveField(
            model_name='ratingmethodchoice',
            name='chosen_by',
        ),
        migrations.DeleteModel(
            name='RatingSync',
        ),
        migrations.DeleteModel(
            name='Circuit',
        ),
        migrations.DeleteModel(
            name='CircuitPlacing',
        ),
        migrations.DeleteModel(
            name='CircuitStage',
        ),
        migrations.DeleteModel(
            name='Flight',
        ),
        migrations.DeleteModel(
            name='FlightMember',
        ),
        migrations.DeleteModel(
            name='RatedResult',
        ),
        migrations.DeleteModel(
            name='RatingEntry',
        ),
        migrations.DeleteModel(
            name='RatingMethodChoice',
        ),
    ]

    operations = [migrations.SeparateDatabaseAndState(state_operations=state_operations)]
