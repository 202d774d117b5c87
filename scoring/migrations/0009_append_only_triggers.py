"""Súmula versions, signatures and the match audit trail are append-only in the database too."""
from django.db import migrations

from config import append_only


class Migration(migrations.Migration):
    dependencies = [("scoring", "0008_version_server_seal")]

    operations = [
        migrations.RunPython(*append_only.operations("scoring_sumulaversion", "scoring_signature",
                                                     "scoring_matchevent")),
    ]
