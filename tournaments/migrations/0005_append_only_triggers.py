"""The tournament's audit log is append-only in the database too."""
from django.db import migrations

from config import append_only


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0004_player_entered_by")]

    operations = [migrations.RunPython(*append_only.operations(
        "tournaments_auditentry", nullable={"tournaments_auditentry": ("round_id", "match_id")}))]
