"""The room's models (``RoomSettings``, ``MatchCall``, ``PushSubscription``, ``CallNotice``) leave
tournaments' state for ``room`` (``room`` 0001): state only, their tables and rows are unchanged."""
from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0033_circuits_of_organizations'),
    ]

    state_operations = [
        migrations.RemoveField(
            model_name='matchcall',
            name='called_by',
        ),
        migrations.RemoveField(
            model_name='matchcall',
            name='match',
        ),
        migrations.RemoveField(
            model_name='matchcall',
            name='tournament',
        ),
        migrations.RemoveField(
            model_name='pushsubscription',
            name='pair',
        ),
        migrations.RemoveField(
            model_name='pushsubscription',
            name='player',
        ),
        migrations.RemoveField(
            model_name='roomsettings',
            name='tournament',
        ),
        migrations.DeleteModel(
            name='CallNotice',
        ),
        migrations.DeleteModel(
            name='MatchCall',
        ),
        migrations.DeleteModel(
            name='PushSubscription',
        ),
        migrations.DeleteModel(
            name='RoomSettings',
        ),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(state_operations=state_operations),
    ]
