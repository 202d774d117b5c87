"""The match leaves scoring's state (it is ``draw.Match`` now; the table ``scoring_match`` stays).
It waits until every app has repointed its keys to the match."""
from config.model_moves import content_types_moved
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('referee', '0009_keys_to_events_and_draw'),
        ('scoring', '0021_match_to_draw'),
        ('tournaments', '0029_models_to_events_and_draw'),
    ]

    state_operations = [
        migrations.DeleteModel(
            name='Match',
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
        migrations.RunPython(*content_types_moved('scoring', 'draw', ['match']), elidable=False),
    ]
