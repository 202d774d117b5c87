"""A push subscription names the player whose PIN made it; the phones subscribed before, by anyone with
no PIN and to endpoints checked by the old host rule, are stopped (their players subscribe again)."""
import django.db.models.deletion
from django.db import migrations, models
from django.utils import timezone


def stop_unchecked(apps, schema_editor):
    apps.get_model("tournaments", "PushSubscription").objects.filter(
        player__isnull=True, revoked_at__isnull=True).update(revoked_at=timezone.now())


class Migration(migrations.Migration):

    dependencies = [
        ('people', '0004_club_is_a_club'),
        ('tournaments', '0030_link_address'),
    ]

    operations = [
        migrations.AddField(
            model_name='pushsubscription',
            name='player',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='people.player', verbose_name='player'),
        ),
        migrations.RunPython(stop_unchecked, migrations.RunPython.noop),
    ]
